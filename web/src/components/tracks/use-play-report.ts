import * as communityCalls from '@tunesmith/shared/calls/community';
import { PLAY_COUNTS_AFTER_SECONDS, type PlayRecorded } from '@tunesmith/shared/community';
import { type RefObject, useEffect } from 'react';
import { apiRequest } from '@/lib/api-client';

const LISTENER_KEY = 'tunesmith.listenerId';

/** A visitor's anonymous listener id: random, kept by this browser so a replay today counts once. */
export function listenerId(): string {
  try {
    const kept = localStorage.getItem(LISTENER_KEY);
    if (kept && /^[A-Za-z0-9_-]{16,64}$/.test(kept)) return kept;
    const bytes = crypto.getRandomValues(new Uint8Array(16));
    const made = btoa(String.fromCharCode(...bytes))
      .replace(/\+/g, '-')
      .replace(/\//g, '_')
      .replace(/=+$/, '');
    localStorage.setItem(LISTENER_KEY, made);
    return made;
  } catch {
    // Storage refused (a private window): this page's own id still counts the play once.
    return crypto.randomUUID().replace(/-/g, '');
  }
}

/** Seconds a listener must play for it to count: 30, or half a shorter track (the server's rule). */
export const playThreshold = (duration: number | null | undefined) =>
  duration && duration > 0 ? Math.min(PLAY_COUNTS_AFTER_SECONDS, duration / 2) : PLAY_COUNTS_AFTER_SECONDS;

export function reportPlay(id: string, listenedSeconds: number, signedIn: boolean): Promise<PlayRecorded> {
  return apiRequest<PlayRecorded>(communityCalls.recordPlay, {
    params: { id },
    body: { listenedSeconds, ...(signedIn ? {} : { listenerId: listenerId() }) },
  });
}

/**
 * Reports a play of the track once the player's audio has really played past the threshold: time
 * counts only while it plays forward, so a seek to the end is not a listen. Once per page view; the
 * server counts a listener once a day.
 */
export function usePlayReport(
  audio: RefObject<HTMLAudioElement | null>,
  track: { id: string; duration?: number | null },
  signedIn: boolean,
) {
  useEffect(() => {
    const element = audio.current;
    if (!element) return;
    let listened = 0;
    let last = element.currentTime;
    let reported = false;
    const onTime = () => {
      const step = element.currentTime - last;
      last = element.currentTime;
      if (element.paused || reported || step <= 0 || step > 2) return;
      listened += step;
      if (
        listened >=
        playThreshold(track.duration ?? (Number.isFinite(element.duration) ? element.duration : null))
      ) {
        reported = true;
        reportPlay(track.id, Math.ceil(listened * 10) / 10, signedIn).catch(() => {
          // Not counted this time: the music plays on, nothing to tell the listener.
        });
      }
    };
    const onSeek = () => {
      last = element.currentTime;
    };
    element.addEventListener('timeupdate', onTime);
    element.addEventListener('seeking', onSeek);
    return () => {
      element.removeEventListener('timeupdate', onTime);
      element.removeEventListener('seeking', onSeek);
    };
  }, [audio, track.id, track.duration, signedIn]);
}

/**
 * The community's parts of a track (decision 057): the like button, the play report and the card the
 * community's lists show. One module, so the pages that use them load one chunk for them.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import * as communityCalls from '@tunesmith/shared/calls/community';
import type { LikeState, PlayRecorded } from '@tunesmith/shared/community';
import type { Track } from '@tunesmith/shared/tracks';
import { type ReactNode, type RefObject, useEffect, useId, useRef, useState } from 'react';
import { Link } from 'react-router';
import { buttonClasses } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { apiRequest } from '@/lib/api-client';
import { useUser } from '@/lib/auth';
import { cn } from '@/lib/cn';
import { toast } from '@/lib/toast';
import { TrackCard } from './track-card';
import { trackTitle } from './track-title';

/** The lists that show `likedByMe` and counts: asked again once a like has changed. */
export const LIKED_QUERY_KEY = ['my-likes'] as const;

export function setLike(id: string, liked: boolean): Promise<LikeState> {
  return apiRequest<LikeState>(liked ? communityCalls.likeTrack : communityCalls.unlikeTrack, {
    params: { id },
  });
}

/**
 * Like and unlike a track: a toggle (`aria-pressed`) with its count. It changes at once and goes
 * back if the server refuses. A visitor is asked to sign in first.
 */
export function LikeButton({
  track,
  title,
  className,
}: {
  track: Pick<Track, 'id' | 'likes' | 'likedByMe'>;
  /** The track's title, for the button's accessible name. */
  title: string;
  className?: string;
}) {
  const { user } = useUser();
  const queryClient = useQueryClient();
  const [state, setState] = useState<LikeState>({ liked: track.likedByMe ?? false, likes: track.likes });
  const [asking, setAsking] = useState(false);
  // A fresher answer from the server (a list asked again) takes the place of what was shown.
  useEffect(
    () => setState({ liked: track.likedByMe ?? false, likes: track.likes }),
    [track.likedByMe, track.likes],
  );

  const mutation = useMutation({
    mutationFn: (liked: boolean) => setLike(track.id, liked),
    onMutate: (liked) => {
      const before = state;
      setState({ liked, likes: Math.max(0, before.likes + (liked ? 1 : -1)) });
      return { before };
    },
    onError: (_error, _liked, context) => {
      if (context) setState(context.before);
      toast({ title: 'Could not save your like', description: 'Please try again.', variant: 'destructive' });
    },
    onSuccess: (answer) => {
      setState(answer);
      void queryClient.invalidateQueries({ queryKey: LIKED_QUERY_KEY });
    },
  });

  const label = `${state.liked ? 'Unlike' : 'Like'} ${title}`;
  return (
    <>
      <button
        type="button"
        aria-pressed={user ? state.liked : undefined}
        title={label}
        disabled={mutation.isPending}
        onClick={() => (user ? mutation.mutate(!state.liked) : setAsking(true))}
        className={cn(
          'inline-flex min-h-9 items-center gap-1.5 rounded-full px-2.5 text-sm text-zinc-200 transition hover:bg-white/10 focus-visible:outline-2 focus-visible:outline-fuchsia-400 disabled:opacity-70',
          className,
        )}
      >
        <svg
          aria-hidden="true"
          viewBox="0 0 24 24"
          className={cn(
            'size-5',
            state.liked ? 'fill-fuchsia-400 stroke-fuchsia-400' : 'fill-none stroke-current',
          )}
          strokeWidth={2}
        >
          <path d="M12 21s-7.5-4.6-9.5-9.2C1.2 8.6 3.2 5 6.6 5c2 0 3.6 1.1 4.4 2.6h2C13.8 6.1 15.4 5 17.4 5c3.4 0 5.4 3.6 4.1 6.8C19.5 16.4 12 21 12 21z" />
        </svg>
        {/* Named "Like <title>, <n> likes": the visible count is part of the name, the pressed state says whether. */}
        <span>
          <span className="sr-only">Like {title}, </span>
          {state.likes}
          <span className="sr-only"> {state.likes === 1 ? 'like' : 'likes'}</span>
        </span>
      </button>
      <Dialog
        open={asking}
        onClose={() => setAsking(false)}
        title="Sign in to like tracks"
        description="Your likes are kept in your library's Liked tab."
      >
        <div className="mt-6 flex justify-end gap-3">
          <button type="button" className={buttonClasses('ghost')} onClick={() => setAsking(false)}>
            Not now
          </button>
          <Link to="/auth" className={buttonClasses('primary')}>
            Sign in
          </Link>
        </div>
      </Dialog>
    </>
  );
}

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

/**
 * Seconds a listener must play for it to count: 30 (`PLAY_COUNTS_AFTER_SECONDS`), or half a shorter
 * track, the server's rule. The number is written here rather than imported: the shared module holds
 * the zod schemas, which the pages with cards would otherwise load.
 */
const PLAY_COUNTS_AFTER_SECONDS = 30;

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

/** A track's menu beside its like button (Add to playlist), given the id of the title it names. */
export type TrackMenu = (track: Track, describedBy: string) => ReactNode;

/**
 * A track card in the community's lists (the gallery, Liked, a creator's page, the feed): its creator
 * when they have a public profile, a like button with the count, the page's track menu if it gives
 * one, and plays reported once the threshold is played.
 */
export function CommunityTrackCard({ track, menu }: { track: Track; menu?: TrackMenu | undefined }) {
  const audio = useRef<HTMLAudioElement>(null);
  const titleId = useId();
  const { user } = useUser();
  usePlayReport(audio, track, Boolean(user));
  const title = trackTitle(track);
  return (
    <TrackCard
      track={track}
      // Durations come from the API: no audio is fetched before play.
      preload={track.duration ? 'none' : 'metadata'}
      audioRef={audio}
      titleId={titleId}
      actions={
        <div className="flex flex-wrap items-center justify-between gap-2 text-sm text-zinc-300">
          {/* A public creator is named (a link) under the title; an anonymous one here. */}
          <span className="min-w-0 truncate">{track.creator ? null : 'by an anonymous creator'}</span>
          <span className="flex shrink-0 items-center gap-1">
            <span className="text-xs text-zinc-400">
              {track.plays} {track.plays === 1 ? 'play' : 'plays'}
            </span>
            <LikeButton track={track} title={title} />
            {menu?.(track, titleId)}
          </span>
        </div>
      }
    />
  );
}

/**
 * Timing a track's lyrics, after it plays: its audio goes to the provider's
 * timed transcription (word level) through a short-lived link, and the
 * owner's lyrics are aligned to what it heard (align.ts). The result is kept
 * on an item of its own, beside the track's.
 */
import type { TimedLyrics } from '@tunesmith/shared/lyrics';
import type { Generation } from '../tracks/track';
import { alignLyrics, type HeardWord } from './align';
import { hasSungLyrics } from './known-lyrics';

/** Where a track's timed lyrics are kept. */
export interface LyricsStore {
  get(trackId: string): Promise<TimedLyrics | undefined>;
  /** Keeps them while the track exists; false (nothing kept) when it was deleted meanwhile. */
  put(trackId: string, lyrics: TimedLyrics): Promise<boolean>;
}

export interface LyricsTimingDeps {
  generations: { get(id: string): Promise<Generation | undefined> };
  lyrics: LyricsStore;
  /** Timed words heard in the audio at `audioUrl` (fal-ai/whisper, word level). */
  transcribe(request: { audioUrl: string }): Promise<HeardWord[]>;
  /** A short-lived link the transcriber can fetch for a track's stored audio. */
  audioLink(stored: string): Promise<string>;
  now?: () => number;
}

/** Whether a track's lyrics get timed: completed, sung (not instrumental) and with words to sing. */
export const hasLyricsToTime = (
  g: Pick<Generation, 'status' | 'instrumental' | 'lyrics' | 'audioUrl'>,
): boolean => g.status === 'completed' && !g.instrumental && !!g.audioUrl && hasSungLyrics(g.lyrics);

export type LyricsTimingOutcome =
  | {
      timed: true;
      lines: number;
      words: number;
      timings: { transcribe: number; align: number; store: number };
    }
  | { timed: false; reason: 'not-found' | 'no-lyrics' | 'already-timed' | 'deleted' };

/** Times a track's lyrics once; a step run again after success does nothing. */
export async function timeTrackLyrics(deps: LyricsTimingDeps, trackId: string): Promise<LyricsTimingOutcome> {
  const now = deps.now ?? (() => performance.now());
  const track = await deps.generations.get(trackId);
  if (!track) return { timed: false, reason: 'not-found' };
  if (!hasLyricsToTime(track)) return { timed: false, reason: 'no-lyrics' };
  if (await deps.lyrics.get(trackId)) return { timed: false, reason: 'already-timed' };
  const t0 = now();
  const heard = await deps.transcribe({ audioUrl: await deps.audioLink(track.audioUrl as string) });
  const t1 = now();
  const timed = alignLyrics(track.lyrics ?? '', heard, track.duration ? { duration: track.duration } : {});
  const t2 = now();
  const kept = await deps.lyrics.put(trackId, timed);
  const t3 = now();
  if (!kept) return { timed: false, reason: 'deleted' };
  return {
    timed: true,
    lines: timed.lines.length,
    words: timed.lines.reduce((n, l) => n + l.words.length, 0),
    timings: { transcribe: t1 - t0, align: t2 - t1, store: t3 - t2 },
  };
}

/**
 * Timed lyrics for tracks completed before the workflow timed them
 * (`npm run backfill -- lyrics`): every completed, sung track with words to
 * sing and no timed lyrics is timed by `timeTrackLyrics`, as the workflow's
 * TimeLyrics step times a new one (the provider's timed transcription from a
 * short-lived link, then the alignment). Safe to run again and to stop at any
 * point: a track with timed lyrics is passed over, and they are kept only
 * while the track exists.
 */

import type { TrackDirectory } from '../admin/ports';
import {
  type BackfillOptions,
  type BackfillOutcome,
  type BackfillReport,
  backfillCompletedTracks,
} from '../tracks/completed-tracks-backfill';
import type { Generation } from '../tracks/track';
import { hasSungLyrics } from './known-lyrics';
import { type LyricsTimingDeps, timeTrackLyrics } from './lyrics-timing';

/** Tracks timed at once: each waits mostly on the provider's transcription. */
export const LYRICS_BACKFILL_CONCURRENCY = 4;

export interface LyricsBackfillDeps extends LyricsTimingDeps {
  tracks: Pick<TrackDirectory, 'list'>;
}

export type LyricsBackfillOutcome = BackfillOutcome<{ lines: number; words: number }>;

export type LyricsBackfillOptions = BackfillOptions<LyricsBackfillOutcome>;

export type LyricsBackfillReport = BackfillReport;

/** A sung track with words to sing (the workflow's rule, less its audio, which the walk checks). */
const hasWords = (track: Generation) => !track.instrumental && hasSungLyrics(track.lyrics);

/**
 * Finds the completed tracks with lyrics and no timed lyrics and times theirs,
 * {@link LYRICS_BACKFILL_CONCURRENCY} at once unless told; returns the counts
 * (`checked` counts the tracks with lyrics only).
 */
export async function backfillLyrics(
  deps: LyricsBackfillDeps,
  options: LyricsBackfillOptions = {},
): Promise<LyricsBackfillReport> {
  return backfillCompletedTracks(
    deps.tracks,
    { concurrency: LYRICS_BACKFILL_CONCURRENCY, ...options },
    {
      applies: hasWords,
      has: async (track) => Boolean(await deps.lyrics.get(track.id)),
      make: (track) => time(deps, track),
    },
  );
}

async function time(deps: LyricsBackfillDeps, track: Generation): Promise<LyricsBackfillOutcome> {
  try {
    const outcome = await timeTrackLyrics(deps, track.id);
    // Deleted, changed or timed by the workflow meanwhile: nothing of ours to add.
    if (!outcome.timed) return { id: track.id, result: 'skipped' };
    return { id: track.id, result: 'made', lines: outcome.lines, words: outcome.words };
  } catch (error) {
    return { id: track.id, result: 'failed', reason: error instanceof Error ? error.message : String(error) };
  }
}

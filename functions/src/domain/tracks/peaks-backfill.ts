/**
 * Peaks for tracks made before the workflow made them (`npm run backfill -- peaks`):
 * every completed track without `peaksUrl` gets its WAV's peaks stored beside
 * it and recorded. Safe to run again and to stop at any point: a track that has
 * its peaks is skipped, the peaks file of a track is one key (written again,
 * not duplicated), and `peaksUrl` is set only by a compare-and-set on a track
 * that is still completed, still without peaks and still has that WAV.
 */

import type { TrackDirectory } from '../admin/ports';
import { PEAKS_CONTENT_TYPE, trackPeaksKey, wavPeaksFile } from '../audio/peaks';
import type { GenerationStore } from '../generations/ports';
import {
  type BackfillOptions,
  type BackfillOutcome,
  type BackfillReport,
  backfillCompletedTracks,
} from './completed-tracks-backfill';
import type { Generation } from './track';

/** The tracks bucket as the backfill needs it. */
export interface TrackFiles {
  /** The bytes of stored audio (`s3://bucket/key`); throws when it is not ours or not there. */
  read(stored: string): Promise<Uint8Array>;
  /** Stores a file of a track under `key`; returns its stored URL. */
  put(key: string, bytes: Uint8Array, contentType: string): Promise<string>;
  remove(key: string): Promise<void>;
}

export interface PeaksBackfillDeps {
  tracks: Pick<TrackDirectory, 'list'>;
  generations: Pick<GenerationStore, 'update'>;
  files: TrackFiles;
}

export type PeaksBackfillOptions = BackfillOptions<PeaksBackfillOutcome>;

export type PeaksBackfillOutcome = BackfillOutcome<{ peaksUrl: string }>;

export type PeaksBackfillReport = BackfillReport;

/** Finds the completed tracks without peaks and makes theirs; returns the counts. */
export async function backfillPeaks(
  deps: PeaksBackfillDeps,
  options: PeaksBackfillOptions = {},
): Promise<PeaksBackfillReport> {
  return backfillCompletedTracks(deps.tracks, options, {
    has: (track) => Boolean(track.peaksUrl),
    make: (track, audioUrl) => makePeaks(deps, track, audioUrl),
  });
}

async function makePeaks(
  deps: PeaksBackfillDeps,
  track: Generation,
  audioUrl: string,
): Promise<PeaksBackfillOutcome> {
  const key = trackPeaksKey(track);
  let peaksUrl: string;
  try {
    const peaks = wavPeaksFile(await deps.files.read(audioUrl));
    peaksUrl = await deps.files.put(key, peaks, PEAKS_CONTENT_TYPE);
  } catch (error) {
    return { id: track.id, result: 'failed', reason: error instanceof Error ? error.message : String(error) };
  }
  const result = await deps.generations.update(track.id, (current) =>
    current.status === 'completed' && !current.peaksUrl && current.audioUrl === audioUrl
      ? { ...current, peaksUrl }
      : undefined,
  );
  if (!result) {
    // Deleted while its peaks were made: its delete could not know of them, so they go now.
    await deps.files.remove(key);
    return { id: track.id, result: 'skipped' };
  }
  if (!result.after) return { id: track.id, result: 'skipped' };
  return { id: track.id, result: 'made', peaksUrl };
}

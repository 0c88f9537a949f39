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

export interface PeaksBackfillOptions {
  /** Only report what would be made: nothing is read or written. */
  dryRun?: boolean;
  /** Only tracks created before this instant (ISO 8601); default every track. */
  createdBefore?: string;
  /** Tracks listed per page. */
  pageSize?: number;
  /** Told about each track that lacked peaks, as it is done. */
  onTrack?: (outcome: PeaksBackfillOutcome) => void;
}

export type PeaksBackfillOutcome =
  | { id: string; result: 'made'; peaksUrl: string }
  | { id: string; result: 'would-make' }
  /** Gone, changed or given peaks by someone else meanwhile: left as it is. */
  | { id: string; result: 'skipped' }
  | { id: string; result: 'failed'; reason: string };

export interface PeaksBackfillReport {
  /** Completed tracks looked at. */
  checked: number;
  /** Of those, tracks that already had peaks. */
  alreadyHad: number;
  /** Peaks stored and recorded (0 on a dry run). */
  made: number;
  /** Tracks that would get peaks (dry run). */
  wouldMake: number;
  skipped: number;
  failed: number;
}

const PAGE_SIZE = 50;

/** Finds the completed tracks without peaks and makes theirs; returns the counts. */
export async function backfillPeaks(
  deps: PeaksBackfillDeps,
  options: PeaksBackfillOptions = {},
): Promise<PeaksBackfillReport> {
  const report: PeaksBackfillReport = {
    checked: 0,
    alreadyHad: 0,
    made: 0,
    wouldMake: 0,
    skipped: 0,
    failed: 0,
  };
  const tell = (outcome: PeaksBackfillOutcome) => {
    if (outcome.result === 'made') report.made++;
    else if (outcome.result === 'would-make') report.wouldMake++;
    else if (outcome.result === 'skipped') report.skipped++;
    else report.failed++;
    options.onTrack?.(outcome);
  };
  let cursor: string | undefined;
  do {
    const page = await deps.tracks.list(
      { status: 'completed' },
      { limit: options.pageSize ?? PAGE_SIZE, ...(cursor ? { cursor } : {}) },
    );
    for (const track of page.items) {
      if (track.status !== 'completed') continue;
      if (options.createdBefore && !(track.createdAt < options.createdBefore)) continue;
      report.checked++;
      if (track.peaksUrl) {
        report.alreadyHad++;
        continue;
      }
      if (!track.audioUrl) {
        tell({ id: track.id, result: 'failed', reason: 'the track has no audio' });
        continue;
      }
      if (options.dryRun) {
        tell({ id: track.id, result: 'would-make' });
        continue;
      }
      tell(await makePeaks(deps, track, track.audioUrl));
    }
    cursor = page.cursor;
  } while (cursor);
  return report;
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

/**
 * The walk the per-track backfills share (`npm run backfill -- peaks`,
 * `-- analysis`): every completed track, page by page, optionally only those
 * created before an instant; a track that already has what the step makes is
 * counted and left; one without audio fails; on a dry run the rest are only
 * counted; otherwise the step makes its part and says how it went.
 */

import type { TrackDirectory } from '../admin/ports';
import type { Generation } from './track';

export interface BackfillOptions<Outcome> {
  /** Only report what would be made: nothing is read or written. */
  dryRun?: boolean;
  /** Only tracks created before this instant (ISO 8601); default every track. */
  createdBefore?: string;
  /** Tracks listed per page. */
  pageSize?: number;
  /** Told about each track that lacked the step's part, as it is done. */
  onTrack?: (outcome: Outcome) => void;
}

export type BackfillOutcome<Made> =
  | ({ id: string; result: 'made' } & Made)
  | { id: string; result: 'would-make' }
  /** Gone, changed or given the part by someone else meanwhile: left as it is. */
  | { id: string; result: 'skipped' }
  | { id: string; result: 'failed'; reason: string };

export interface BackfillReport {
  /** Completed tracks looked at. */
  checked: number;
  /** Of those, tracks that already had the step's part. */
  alreadyHad: number;
  /** Parts made and recorded (0 on a dry run). */
  made: number;
  /** Tracks that would get the part (dry run). */
  wouldMake: number;
  skipped: number;
  failed: number;
}

const PAGE_SIZE = 50;

/** Runs one step over the completed tracks without its part; returns the counts. */
export async function backfillCompletedTracks<Made>(
  tracks: Pick<TrackDirectory, 'list'>,
  options: BackfillOptions<BackfillOutcome<Made>>,
  step: {
    /** Whether the track already has the step's part. */
    has: (track: Generation) => boolean;
    /** Makes and records the part from the track's audio. */
    make: (track: Generation, audioUrl: string) => Promise<BackfillOutcome<Made>>;
  },
): Promise<BackfillReport> {
  const report: BackfillReport = { checked: 0, alreadyHad: 0, made: 0, wouldMake: 0, skipped: 0, failed: 0 };
  const tell = (outcome: BackfillOutcome<Made>) => {
    if (outcome.result === 'made') report.made++;
    else if (outcome.result === 'would-make') report.wouldMake++;
    else if (outcome.result === 'skipped') report.skipped++;
    else report.failed++;
    options.onTrack?.(outcome);
  };
  let cursor: string | undefined;
  do {
    const page = await tracks.list(
      { status: 'completed' },
      { limit: options.pageSize ?? PAGE_SIZE, ...(cursor ? { cursor } : {}) },
    );
    for (const track of page.items) {
      if (track.status !== 'completed') continue;
      if (options.createdBefore && !(track.createdAt < options.createdBefore)) continue;
      report.checked++;
      if (step.has(track)) {
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
      tell(await step.make(track, track.audioUrl));
    }
    cursor = page.cursor;
  } while (cursor);
  return report;
}

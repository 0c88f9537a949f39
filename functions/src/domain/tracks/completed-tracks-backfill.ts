/**
 * The walk the per-track backfills share (`npm run backfill -- peaks`,
 * `-- analysis`, `-- lyrics`): every completed track the step concerns, page
 * by page, optionally only those created before an instant; a track that
 * already has what the step makes is counted and left; one without audio
 * fails; on a dry run the rest are only counted; otherwise the step makes its
 * part and says how it went, for at most `concurrency` tracks at once.
 */

import type { TrackDirectory } from '../admin/ports';
import type { Generation } from './track';

export interface BackfillOptions<Outcome> {
  /** Only report what would be made: no audio is read and nothing is written. */
  dryRun?: boolean;
  /** Only tracks created before this instant (ISO 8601); default every track. */
  createdBefore?: string;
  /** Tracks listed per page. */
  pageSize?: number;
  /** Told about each track that lacked the step's part, as it is done. */
  onTrack?: (outcome: Outcome) => void;
  /** Tracks worked on at once (default 1: one after the other, in the order listed). */
  concurrency?: number;
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

/**
 * Runs one step over the completed tracks without its part; returns the
 * counts. An error the step throws stops the walk (the tracks under way are
 * finished first) and is thrown.
 */
export async function backfillCompletedTracks<Made>(
  tracks: Pick<TrackDirectory, 'list'>,
  options: BackfillOptions<BackfillOutcome<Made>>,
  step: {
    /** Whether the step concerns the track at all (default: every completed track); others are not counted. */
    applies?: (track: Generation) => boolean;
    /** Whether the track already has the step's part. */
    has: (track: Generation) => boolean | Promise<boolean>;
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
  const visit = async (track: Generation) => {
    if (await step.has(track)) {
      report.alreadyHad++;
      return;
    }
    if (!track.audioUrl) {
      tell({ id: track.id, result: 'failed', reason: 'the track has no audio' });
      return;
    }
    if (options.dryRun) {
      tell({ id: track.id, result: 'would-make' });
      return;
    }
    tell(await step.make(track, track.audioUrl));
  };
  const limit = Math.max(1, Math.floor(options.concurrency ?? 1));
  const running = new Set<Promise<void>>();
  let stopped: { error: unknown } | undefined;
  const start = (track: Generation) => {
    const work: Promise<void> = visit(track)
      .catch((error: unknown) => {
        stopped ??= { error };
      })
      .finally(() => running.delete(work));
    running.add(work);
  };
  let cursor: string | undefined;
  walk: do {
    const page = await tracks.list(
      { status: 'completed' },
      { limit: options.pageSize ?? PAGE_SIZE, ...(cursor ? { cursor } : {}) },
    );
    for (const track of page.items) {
      if (track.status !== 'completed') continue;
      if (options.createdBefore && !(track.createdAt < options.createdBefore)) continue;
      if (step.applies && !step.applies(track)) continue;
      report.checked++;
      start(track);
      while (running.size >= limit) await Promise.race(running);
      if (stopped) break walk;
    }
    cursor = page.cursor;
  } while (cursor);
  await Promise.all(running);
  if (stopped) throw stopped.error;
  return report;
}

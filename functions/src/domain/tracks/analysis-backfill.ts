/**
 * Tempo and key for tracks made before the workflow measured them
 * (`npm run backfill -- analysis`): every completed track without `analysis`
 * gets it from its WAV's samples. Safe to run again and to stop at any point:
 * a track that has its analysis is skipped, and `analysis` is set only by a
 * compare-and-set on a track that is still completed, still without it and
 * still has that audio. The files already made are left as they are (their
 * XMP and Opus comments carry tempo and key from the next files backfill or
 * new track on).
 */

import type { TrackAnalysis } from '@tunesmith/shared/tracks';
import type { TrackDirectory } from '../admin/ports';
import { analysisSteps } from '../audio/analysis';
import { parseWav } from '../audio/wav';
import type { GenerationStore } from '../generations/ports';
import type { TrackFiles } from './peaks-backfill';
import type { Generation } from './track';

export interface AnalysisBackfillDeps {
  tracks: Pick<TrackDirectory, 'list'>;
  generations: Pick<GenerationStore, 'update'>;
  files: Pick<TrackFiles, 'read'>;
  /** Runs the measuring steps (in slices where other work shares the process); at once by default. */
  run?: <T>(steps: Generator<void, T, void>) => Promise<T> | T;
}

export interface AnalysisBackfillOptions {
  /** Only report what would be measured: nothing is read or written. */
  dryRun?: boolean;
  /** Only tracks created before this instant (ISO 8601); default every track. */
  createdBefore?: string;
  /** Tracks listed per page. */
  pageSize?: number;
  /** Told about each track that lacked an analysis, as it is done. */
  onTrack?: (outcome: AnalysisBackfillOutcome) => void;
}

export type AnalysisBackfillOutcome =
  | { id: string; result: 'made'; analysis: TrackAnalysis }
  | { id: string; result: 'would-make' }
  /** Gone, changed or measured by someone else meanwhile: left as it is. */
  | { id: string; result: 'skipped' }
  | { id: string; result: 'failed'; reason: string };

export interface AnalysisBackfillReport {
  /** Completed tracks looked at. */
  checked: number;
  /** Of those, tracks that already had their tempo and key. */
  alreadyHad: number;
  /** Analyses recorded (0 on a dry run). */
  made: number;
  /** Tracks that would be measured (dry run). */
  wouldMake: number;
  skipped: number;
  failed: number;
}

const PAGE_SIZE = 50;

const runAtOnce = <T>(steps: Generator<void, T, void>): T => {
  for (;;) {
    const next = steps.next();
    if (next.done) return next.value;
  }
};

/** Finds the completed tracks without tempo and key and measures theirs; returns the counts. */
export async function backfillAnalysis(
  deps: AnalysisBackfillDeps,
  options: AnalysisBackfillOptions = {},
): Promise<AnalysisBackfillReport> {
  const report: AnalysisBackfillReport = {
    checked: 0,
    alreadyHad: 0,
    made: 0,
    wouldMake: 0,
    skipped: 0,
    failed: 0,
  };
  const tell = (outcome: AnalysisBackfillOutcome) => {
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
      if (track.analysis) {
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
      tell(await measure(deps, track, track.audioUrl));
    }
    cursor = page.cursor;
  } while (cursor);
  return report;
}

async function measure(
  deps: AnalysisBackfillDeps,
  track: Generation,
  audioUrl: string,
): Promise<AnalysisBackfillOutcome> {
  let analysis: TrackAnalysis | undefined;
  try {
    const pcm = parseWav(await deps.files.read(audioUrl));
    analysis = await (deps.run ?? runAtOnce)(analysisSteps(pcm));
  } catch (error) {
    return { id: track.id, result: 'failed', reason: error instanceof Error ? error.message : String(error) };
  }
  if (!analysis)
    return { id: track.id, result: 'failed', reason: 'the audio is too short or too quiet to measure' };
  const measured = analysis;
  const result = await deps.generations.update(track.id, (current) =>
    current.status === 'completed' && !current.analysis && current.audioUrl === audioUrl
      ? { ...current, analysis: measured }
      : undefined,
  );
  if (!result?.after) return { id: track.id, result: 'skipped' };
  return { id: track.id, result: 'made', analysis: measured };
}

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
import {
  type BackfillOptions,
  type BackfillOutcome,
  type BackfillReport,
  backfillCompletedTracks,
} from './completed-tracks-backfill';
import type { TrackFiles } from './peaks-backfill';
import type { Generation } from './track';

export interface AnalysisBackfillDeps {
  tracks: Pick<TrackDirectory, 'list'>;
  generations: Pick<GenerationStore, 'update'>;
  files: Pick<TrackFiles, 'read'>;
  /** Runs the measuring steps (in slices where other work shares the process); at once by default. */
  run?: <T>(steps: Generator<void, T, void>) => Promise<T> | T;
}

export type AnalysisBackfillOptions = BackfillOptions<AnalysisBackfillOutcome>;

export type AnalysisBackfillOutcome = BackfillOutcome<{ analysis: TrackAnalysis }>;

export type AnalysisBackfillReport = BackfillReport;

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
  return backfillCompletedTracks(deps.tracks, options, {
    has: (track) => Boolean(track.analysis),
    make: (track, audioUrl) => measure(deps, track, audioUrl),
  });
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

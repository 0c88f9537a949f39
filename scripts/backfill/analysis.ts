import {
  type AnalysisBackfillOptions,
  type AnalysisBackfillReport,
  backfillAnalysis,
} from '../../functions/src/domain/tracks/analysis-backfill';
import type { BackfillStep, Target } from './step';
import { tracksTableAndBucket } from './tracks-bucket';

/** backfillAnalysis (the tracks domain) on a target's table and tracks bucket. */
export async function runAnalysisBackfill(
  target: Target,
  options: AnalysisBackfillOptions = {},
): Promise<AnalysisBackfillReport> {
  const { tracks, generations, files, close } = tracksTableAndBucket(target);
  try {
    return await backfillAnalysis({ tracks, generations, files }, options);
  } finally {
    close();
  }
}

export function describeAnalysisReport(report: AnalysisBackfillReport, dryRun: boolean): string {
  const lines = [
    `Completed tracks checked: ${report.checked}`,
    `Already had tempo and key: ${report.alreadyHad}`,
    dryRun ? `Would be measured: ${report.wouldMake}` : `Tempo and key measured: ${report.made}`,
  ];
  if (report.skipped) lines.push(`Skipped (deleted or changed meanwhile): ${report.skipped}`);
  if (report.failed) lines.push(`Failed: ${report.failed}`);
  return lines.join('\n');
}

/**
 * `npm run backfill -- analysis`: tracks made before the workflow measured
 * tempo and key get them, from their WAV, recorded on the track. Tracks that
 * have them are skipped, so a second run changes nothing.
 */
export const analysisStep: BackfillStep = {
  name: 'analysis',
  summary: 'tempo and key for completed tracks that have none',
  description: `Measures the tempo and key of every completed track that has none, from its WAV, and records them
on the track (its page and card show them). Files already made keep their tags. Running it again changes nothing.`,
  environment: {
    TABLE_NAME: { output: 'TableName' },
    TRACKS_BUCKET: { output: 'TracksBucketName' },
  },
  options: {
    'dry-run': 'only count the tracks that would be measured',
    before: 'only tracks created before this ISO 8601 instant',
  },
  async run(target, { dryRun, createdBefore }, print) {
    const report = await runAnalysisBackfill(target, {
      dryRun,
      ...(createdBefore ? { createdBefore } : {}),
      onTrack: (outcome) => {
        if (outcome.result === 'made')
          print(`${outcome.id}: ${outcome.analysis.bpm} BPM, ${outcome.analysis.key}`);
        else if (outcome.result === 'would-make') print(`${outcome.id}: would be measured`);
        else if (outcome.result === 'skipped') print(`${outcome.id}: skipped (deleted or changed meanwhile)`);
        else print(`${outcome.id}: failed: ${outcome.reason}`);
      },
    });
    print(describeAnalysisReport(report, dryRun));
    return { failed: report.failed };
  },
};

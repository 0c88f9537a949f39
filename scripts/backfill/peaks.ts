import {
  backfillPeaks,
  type PeaksBackfillOptions,
  type PeaksBackfillReport,
} from '../../functions/src/domain/tracks/peaks-backfill';
import type { BackfillStep, Target } from './step';
import { tracksTableAndBucket } from './tracks-bucket';

/** backfillPeaks (the tracks domain) on a target's table and tracks bucket. */
export async function runPeaksBackfill(
  target: Target,
  options: PeaksBackfillOptions = {},
): Promise<PeaksBackfillReport> {
  const { tracks, generations, files, close } = tracksTableAndBucket(target);
  try {
    return await backfillPeaks({ tracks, generations, files }, options);
  } finally {
    close();
  }
}

export function describePeaksReport(report: PeaksBackfillReport, dryRun: boolean): string {
  const lines = [
    `Completed tracks checked: ${report.checked}`,
    `Already had peaks: ${report.alreadyHad}`,
    dryRun ? `Would get peaks: ${report.wouldMake}` : `Peaks made: ${report.made}`,
  ];
  if (report.skipped) lines.push(`Skipped (deleted or changed meanwhile): ${report.skipped}`);
  if (report.failed) lines.push(`Failed: ${report.failed}`);
  return lines.join('\n');
}

/**
 * `npm run backfill -- peaks`: tracks made before the workflow stored
 * waveform peaks get theirs, `tracks/{id}.peaks.json` beside the WAV,
 * recorded on the track. Tracks with peaks are skipped, so a second run
 * changes nothing.
 */
export const peaksStep: BackfillStep = {
  name: 'peaks',
  summary: 'waveform peaks for completed tracks that have none',
  description: `Stores the waveform peaks of every completed track that has none (tracks/{id}.peaks.json beside its
WAV) and records them on the track. Running it again changes nothing.`,
  environment: {
    TABLE_NAME: { output: 'TableName' },
    TRACKS_BUCKET: { output: 'TracksBucketName' },
  },
  options: {
    'dry-run': 'only count the tracks that would get peaks',
    before: 'only tracks created before this ISO 8601 instant',
  },
  async run(target, { dryRun, createdBefore }, print) {
    const report = await runPeaksBackfill(target, {
      dryRun,
      ...(createdBefore ? { createdBefore } : {}),
      onTrack: (outcome) => {
        if (outcome.result === 'made') print(`${outcome.id}: peaks made`);
        else if (outcome.result === 'would-make') print(`${outcome.id}: would get peaks`);
        else if (outcome.result === 'skipped') print(`${outcome.id}: skipped (deleted or changed meanwhile)`);
        else print(`${outcome.id}: failed: ${outcome.reason}`);
      },
    });
    print(describePeaksReport(report, dryRun));
    return { failed: report.failed };
  },
};

import { oggOpusStreamEncoder } from '../../functions/src/adapters/audio/opus-encoder';
import { c2paContentCredentials } from '../../functions/src/adapters/c2pa/content-credentials';
import {
  credentialsMadeOnFirstUse,
  memoryCredentialStore,
  secretsManagerCredentialStore,
} from '../../functions/src/adapters/c2pa/credential-store';
import { dynamoSettingsRepository } from '../../functions/src/adapters/dynamo/settings-repository';
import { siteNameSource } from '../../functions/src/domain/settings/site';
import {
  backfillFiles,
  type FilesBackfillOptions,
  type FilesBackfillReport,
} from '../../functions/src/workflow/files-backfill';
import type { BackfillStep, Target } from './step';
import { tracksTableAndBucket } from './tracks-bucket';

/**
 * backfillFiles (functions/src/workflow/files-backfill.ts) on a target's
 * table and tracks bucket, for its site, with the content credentials kept
 * in C2PA_SIGNING_SECRET_ARN or, without it (the local cloud keeps its own
 * in memory), made for this run.
 */
export async function runFilesBackfill(
  target: Target,
  options: FilesBackfillOptions = {},
): Promise<FilesBackfillReport> {
  const { region, documents, table, tracks, generations, files, close } = tracksTableAndBucket(target);
  const siteName = siteNameSource(
    dynamoSettingsRepository(documents, table),
    target.SITE_NAME || 'Tunesmith',
  );
  const secret = target.C2PA_SIGNING_SECRET_ARN;
  try {
    return await backfillFiles(
      {
        tracks,
        generations,
        files,
        site: { origin: (target.PUBLIC_ORIGIN as string).replace(/\/+$/, ''), name: siteName },
        streamEncoder: oggOpusStreamEncoder,
        contentCredentials: c2paContentCredentials(
          credentialsMadeOnFirstUse(
            secret ? secretsManagerCredentialStore(secret, region) : memoryCredentialStore(),
            siteName,
          ),
        ),
        log: {
          warn: (message, fields) => console.warn(`warning: ${message}`, fields?.generationId ?? ''),
        },
      },
      options,
    );
  } finally {
    close();
  }
}

export function describeFilesReport(report: FilesBackfillReport, dryRun: boolean): string {
  const lines = [
    `Completed tracks checked: ${report.checked}`,
    `Already marked and measured: ${report.alreadyHad}`,
    dryRun ? `Would get their files: ${report.wouldMake}` : `Files made: ${report.made}`,
  ];
  if (report.prepared) lines.push(`Pending downloads prepared: ${report.prepared}`);
  if (report.skipped) lines.push(`Skipped (deleted or changed meanwhile): ${report.skipped}`);
  if (report.failed) lines.push(`Failed: ${report.failed}`);
  return lines.join('\n');
}

/**
 * `npm run backfill -- files`: tracks completed before the files were marked
 * get what new tracks get, under new keys; the old files go once the track
 * points at the new ones. Tracks with loudness are skipped, so it can stop
 * and run again.
 */
export const filesStep: BackfillStep = {
  name: 'files',
  summary:
    'marking, loudness and the normalised stream for completed tracks without loudness; pending downloads',
  description: `Marks the WAV of every completed track without loudness (LIST/INFO, XMP, content credentials),
records its hash and loudness, and makes its players' copy at the stream's gain (-14 LUFS, at most
-1 dBTP), under new keys; the old files go once the track points at the new ones. A track whose
download the workflow left pending (the DownloadsNotPrepared alarm) gets it prepared. Running it
again changes nothing.`,
  environment: {
    TABLE_NAME: { output: 'TableName' },
    TRACKS_BUCKET: { output: 'TracksBucketName' },
    PUBLIC_ORIGIN: { output: 'SiteUrl' },
    C2PA_SIGNING_SECRET_ARN: { output: 'ContentCredentialsSecretArn', optional: true },
  },
  options: {
    'dry-run': 'only count the tracks that would get their files',
    before: 'only tracks created before this ISO 8601 instant',
    after: 'only tracks created after this ISO 8601 instant (with --before: a batch)',
  },
  async run(target, { dryRun, createdBefore, createdAfter }, print) {
    const report = await runFilesBackfill(target, {
      dryRun,
      ...(createdBefore ? { createdBefore } : {}),
      ...(createdAfter ? { createdAfter } : {}),
      onTrack: (outcome) => {
        if (outcome.result === 'made') print(`${outcome.id}: marked, measured and normalised`);
        else if (outcome.result === 'would-make') print(`${outcome.id}: would get its files`);
        else if (outcome.result === 'prepared') print(`${outcome.id}: its pending download prepared`);
        else if (outcome.result === 'skipped') print(`${outcome.id}: skipped (deleted or changed meanwhile)`);
        else print(`${outcome.id}: failed: ${outcome.reason}`);
      },
    });
    print(describeFilesReport(report, dryRun));
    return { failed: report.failed };
  },
};

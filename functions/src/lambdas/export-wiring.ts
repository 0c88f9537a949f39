import { randomUUID } from 'node:crypto';
import { awsClientDefaults } from '../adapters/client-options';
import { dynamo } from '../adapters/dynamo/client';
import { dynamoExportRepository } from '../adapters/dynamo/export-repository';
import { dynamoGenerationStore } from '../adapters/dynamo/generation-store';
import { dynamoLyricsStore } from '../adapters/dynamo/lyrics-store';
import { dynamoSettingsRepository } from '../adapters/dynamo/settings-repository';
import { dynamoUserRepository } from '../adapters/dynamo/user-repository';
import { lazySdk } from '../adapters/lazy-sdk';
import { bucketFromEnv, s3 } from '../adapters/s3/client';
import { s3ExportFiles, s3TrackFiles } from '../adapters/s3/export-files';
import { sesMailer } from '../adapters/ses/mailer';
import { traced } from '../adapters/tracing';
import { runtimeConfig } from '../config';
import type { ExportDeps } from '../domain/exports/ports';
import { siteNameSource } from '../domain/settings/site';
import { log } from '../http/logger';
import type { ExportRouteDeps } from '../http/routes/exports';
import { audioLinks } from './audio-wiring';
import { backgroundJobs } from './jobs-wiring';

const clock = { now: () => new Date() };

/** What the generation group's export calls need: records, the zip's link, starting the job. */
export function exportRouteDeps(): ExportRouteDeps {
  const { client, tableName } = dynamo();
  return {
    exports: dynamoExportRepository(client, tableName),
    files: s3ExportFiles(s3(), bucketFromEnv('TRACKS_BUCKET'), audioLinks()),
    jobs: backgroundJobs(),
    clock,
    newId: randomUUID,
  };
}

let built: ExportDeps | undefined;

/**
 * Everything the export job needs (the jobs function), built once per
 * runtime. Env: TABLE_NAME, TRACKS_BUCKET, PUBLIC_ORIGIN, MAIL_FROM (and
 * MAIL_CONFIGURATION_SET on AWS), SITE_NAME, the audio signing key's
 * variables, SES_ENDPOINT / S3_ENDPOINT locally.
 */
export function exportJobDeps(): ExportDeps {
  if (built) return built;
  const { client, tableName } = dynamo();
  const tracksBucket = bucketFromEnv('TRACKS_BUCKET');
  const siteOrigin = process.env.PUBLIC_ORIGIN?.replace(/\/$/, '');
  if (!siteOrigin) throw new Error('Missing environment variable PUBLIC_ORIGIN');
  const ses = lazySdk(
    () => import('../adapters/ses/sdk'),
    (sdk) =>
      traced(
        new sdk.SESv2Client({
          ...awsClientDefaults,
          region: runtimeConfig().region,
          ...(process.env.SES_ENDPOINT ? { endpoint: process.env.SES_ENDPOINT } : {}),
        }),
      ),
  );
  built = {
    exports: dynamoExportRepository(client, tableName),
    files: s3ExportFiles(s3(), tracksBucket, audioLinks()),
    trackFiles: s3TrackFiles(s3(), tracksBucket),
    generations: dynamoGenerationStore(client, tableName),
    users: dynamoUserRepository(client, tableName),
    jobs: backgroundJobs(),
    mailer: sesMailer(
      ses,
      process.env.MAIL_FROM || 'Tunesmith <no-reply@tunesmith.local>',
      process.env.MAIL_CONFIGURATION_SET || undefined,
    ),
    clock,
    newId: randomUUID,
    lyrics: dynamoLyricsStore(client, tableName),
    siteOrigin,
    siteName: siteNameSource(
      dynamoSettingsRepository(client, tableName),
      process.env.SITE_NAME || 'Tunesmith',
      {
        onError: (error) => log.warn('site name unreadable; mail uses SITE_NAME', { error }),
      },
    ),
    log,
  };
  return built;
}

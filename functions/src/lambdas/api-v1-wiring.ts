import { randomUUID } from 'node:crypto';
import { dynamo } from '../adapters/dynamo/client';
import { dynamoGenerationStore } from '../adapters/dynamo/generation-store';
import { dynamoIdempotencyStore } from '../adapters/dynamo/idempotency-store';
import { dynamoLyricsStore } from '../adapters/dynamo/lyrics-store';
import { dynamoPlanRepository } from '../adapters/dynamo/plan-repository';
import { dynamoQuotaStore } from '../adapters/dynamo/quota-store';
import { dynamoRateLimiter } from '../adapters/dynamo/rate-limiter';
import { bucketFromEnv, s3 } from '../adapters/s3/client';
import { s3DownloadLinks } from '../adapters/s3/download-links';
import { s3AudioLinker, s3Links, UPLOAD_LINK_SECONDS } from '../adapters/s3/links';
import { s3UploadStore } from '../adapters/s3/upload-store';
import { sfn, stateMachineArnFromEnv, stepFunctionsStarter } from '../adapters/sfn/step-functions';
import type { GroupHandlers } from '../http/group-handler';
import { v1Routes } from '../http/routes/api-v1';
import { audioLinks } from './audio-wiring';
import { modelSettings } from './model-settings-wiring';
import { publicOrigin } from './site-origin';

/**
 * The `/api/v1` calls' handlers (decision 055) with their stores: the
 * generation group's (tracks, quota, plans, the workflow, the tracks and
 * uploads buckets, timed lyrics) and the idempotency records. Env:
 * TABLE_NAME, TRACKS_BUCKET, UPLOADS_BUCKET, STATE_MACHINE_ARN,
 * PUBLIC_ORIGIN and the audio signing settings (audio-wiring.ts).
 */
export function v1Handlers(): GroupHandlers {
  const { client, tableName } = dynamo();
  const links = audioLinks();
  const uploadsBucket = bucketFromEnv('UPLOADS_BUCKET');
  const uploadLinks = s3Links(s3());
  return v1Routes({
    generations: {
      generations: dynamoGenerationStore(client, tableName),
      quota: dynamoQuotaStore(client, tableName),
      clock: { now: () => new Date() },
      newId: randomUUID,
    },
    plans: dynamoPlanRepository(client, tableName),
    siteOrigin: publicOrigin(),
    workflow: stepFunctionsStarter(sfn(), stateMachineArnFromEnv()),
    modelSettings: modelSettings(),
    uploads: s3UploadStore(s3(), uploadsBucket),
    uploadLink: (key, options) => uploadLinks.write({ bucket: uploadsBucket, key }, options),
    uploadLinkSeconds: UPLOAD_LINK_SECONDS,
    limiter: dynamoRateLimiter(client, tableName),
    audioLinks: s3AudioLinker(links),
    downloadLink: s3DownloadLinks(links, bucketFromEnv('TRACKS_BUCKET')),
    lyrics: dynamoLyricsStore(client, tableName),
    idempotency: dynamoIdempotencyStore(client, tableName),
  });
}

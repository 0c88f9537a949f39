import { randomUUID } from 'node:crypto';
import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { dynamoApiKeyStore } from '../adapters/dynamo/api-key-store';
import { dynamoAuditLog } from '../adapters/dynamo/audit-log';
import { dynamo } from '../adapters/dynamo/client';
import { dynamoGenerationStore } from '../adapters/dynamo/generation-store';
import { bucketFromEnv, s3 } from '../adapters/s3/client';
import { s3Links } from '../adapters/s3/links';
import { s3Sweeper } from '../adapters/s3/sweeper';
import { s3TrackAudio } from '../adapters/s3/track-audio';
import { s3UploadStore } from '../adapters/s3/upload-store';
import { s3VersionSweeper } from '../adapters/s3/versions';
import { keys } from '../data/keys';
import type { AccountDeletionDeps, AccountDeletionJobDeps } from '../domain/accounts/account-deletion';
import { log } from '../http/logger';
import { billingWiring } from './billing-wiring';
import { exportRemoval } from './export-removal';
import { likesAndPlaysRemoval } from './likes-removal';
import { sessionWiring } from './session-wiring';
import { sharePageWiring } from './share-wiring';
import { webhookRemoval } from './webhook-removal';
import { wiring } from './wiring';

/**
 * What the account cascade needs on AWS (and the local cloud): the table's
 * profiles, tracks, exports and audit, both buckets, the user pool and
 * Stripe. The admin area uses the same pieces through its own wiring.
 */
export function accountDeletionDeps(): AccountDeletionDeps {
  const { client, tableName } = dynamo();
  const session = sessionWiring();
  const uploadsBucket = bucketFromEnv('UPLOADS_BUCKET');
  const tracksBucket = bucketFromEnv('TRACKS_BUCKET');
  return {
    users: session.users,
    identity: session.userIdentity,
    payments: billingWiring().payments,
    unlinkCustomer: async (customerId) => {
      await client.send(new DeleteCommand({ TableName: tableName, Key: keys.paymentCustomer(customerId) }));
    },
    generations: dynamoGenerationStore(client, tableName),
    uploads: { ...s3UploadStore(s3(), uploadsBucket), ...s3Sweeper(s3(), uploadsBucket) },
    // Only removal is used here: no link is ever signed.
    trackAudio: {
      ...s3TrackAudio(s3(), s3Links(s3()), tracksBucket),
      ...s3VersionSweeper(s3(), tracksBucket),
    },
    exports: exportRemoval(),
    apiKeys: dynamoApiKeyStore(client, tableName),
    webhooks: webhookRemoval(),
    likesAndPlays: likesAndPlaysRemoval(),
    sharePages: sharePageWiring(),
    audit: dynamoAuditLog(client, tableName),
    clock: { now: () => new Date() },
    newId: randomUUID,
  };
}

let built: AccountDeletionJobDeps | undefined;

/** The `delete-account` job's dependencies: the cascade's, and account mail for the confirmation. Built once. */
export function accountDeletionJobDeps(): AccountDeletionJobDeps {
  if (!built) {
    const { accounts } = wiring();
    built = {
      ...accountDeletionDeps(),
      mailer: accounts.mailer,
      siteOrigin: accounts.siteOrigin,
      siteName: accounts.siteName,
      log,
    };
  }
  return built;
}

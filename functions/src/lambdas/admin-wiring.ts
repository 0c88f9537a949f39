/**
 * The admin area's users, plans, settings and tracks: their routes and
 * everything they use, which the admin group loads with the first request
 * for one of them (lambdas/admin.ts, decision 042). Env: see lambdas/admin.ts.
 */
import { randomUUID } from 'node:crypto';
import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { dynamoTrackDirectory, dynamoUserDirectory } from '../adapters/dynamo/admin-directory';
import { dynamoApiKeyStore } from '../adapters/dynamo/api-key-store';
import { dynamoAuditLog } from '../adapters/dynamo/audit-log';
import { dynamoBillingAccounts } from '../adapters/dynamo/billing-accounts';
import { dynamo } from '../adapters/dynamo/client';
import { dynamoModelUsage, dynamoSiteCounters } from '../adapters/dynamo/counters';
import { dynamoGenerationStore } from '../adapters/dynamo/generation-store';
import { dynamoPlanRepository } from '../adapters/dynamo/plan-repository';
import { dynamoSettingsRepository } from '../adapters/dynamo/settings-repository';
import { dynamoUserRepository } from '../adapters/dynamo/user-repository';
import { lazyPort } from '../adapters/lazy-sdk';
import { bucketFromEnv, s3 } from '../adapters/s3/client';
import { s3AudioLinker } from '../adapters/s3/links';
import { s3Sweeper } from '../adapters/s3/sweeper';
import { s3TrackAudio } from '../adapters/s3/track-audio';
import { s3UploadStore } from '../adapters/s3/upload-store';
import { s3VersionSweeper } from '../adapters/s3/versions';
import { keys } from '../data/keys';
import type { AdminDeps } from '../domain/admin/ports';
import type { GroupHandlers } from '../http/group-handler';
import { log } from '../http/logger';
import { adminRoutes } from '../http/routes/admin';
import { adminModelsRoutes } from '../http/routes/admin-models';
import { audioLinks } from './audio-wiring';
import { modelSettings } from './model-settings-wiring';
import { sessionWiring } from './session-wiring';
import { sharePageWiring } from './share-wiring';

function build(): AdminDeps & { log: typeof log } {
  const { client, tableName } = dynamo();
  const session = sessionWiring();
  const uploadsBucket = bucketFromEnv('UPLOADS_BUCKET');
  const tracksBucket = bucketFromEnv('TRACKS_BUCKET');
  const links = audioLinks();
  return {
    counters: dynamoSiteCounters(client, tableName),
    audit: dynamoAuditLog(client, tableName),
    clock: { now: () => new Date() },
    newId: randomUUID,
    users: dynamoUserRepository(client, tableName),
    directory: dynamoUserDirectory(client, tableName),
    identity: session.userIdentity,
    accounts: dynamoBillingAccounts(client, tableName),
    // Stripe, its keys and the settings key load with the first call that needs them (decision 042).
    payments: lazyPort(
      async () => (await import('./billing-wiring')).billingWiring().payments,
      [
        'cancelNow',
        'listSubscriptions',
        'expireCheckoutSession',
        'findPrice',
        'ensureProduct',
        'createPrice',
        'archivePrice',
        'syncPortal',
      ],
    ),
    unlinkCustomer: async (customerId) => {
      await client.send(new DeleteCommand({ TableName: tableName, Key: keys.paymentCustomer(customerId) }));
    },
    exports: lazyPort(async () => (await import('./export-removal')).exportRemoval(), ['removeAll']),
    apiKeys: dynamoApiKeyStore(client, tableName),
    webhooks: lazyPort(async () => (await import('./webhook-removal')).webhookRemoval(), ['removeAll']),
    likesAndPlays: lazyPort(
      async () => (await import('./likes-removal')).likesAndPlaysRemoval(),
      ['removeAll'],
    ),
    plans: dynamoPlanRepository(client, tableName),
    pricingPage: lazyPort(
      async () => (await import('./pricing-wiring')).pricingPageFromEnv(process.env),
      ['read', 'write'],
    ),
    generations: dynamoGenerationStore(client, tableName),
    tracks: dynamoTrackDirectory(client, tableName),
    uploads: { ...s3UploadStore(s3(), uploadsBucket), ...s3Sweeper(s3(), uploadsBucket) },
    trackAudio: { ...s3TrackAudio(s3(), links, tracksBucket), ...s3VersionSweeper(s3(), tracksBucket) },
    audioLinks: s3AudioLinker(links),
    settings: lazyPort(
      async () => (await import('./settings-wiring')).settingsFromEnv(client, tableName),
      ['list', 'get', 'put', 'putIfAbsent'],
    ),
    storedSettings: dynamoSettingsRepository(client, tableName),
    stripeKeyCheck: lazyPort(
      async () =>
        (await import('../adapters/stripe/stripe-key-check')).stripeKeyCheck(
          process.env.STRIPE_API_BASE ? { apiBase: process.env.STRIPE_API_BASE } : {},
        ),
      ['checkSecretKey'],
    ),
    sharePages: sharePageWiring(),
    onShareRefreshFailure: (generationId, error) =>
      log.warn('the share page of a changed track was not brought in line', { generationId, error }),
    log,
  };
}

let deps: AdminDeps | undefined;

/** The admin area's routes but the dashboard's, on deps built once per runtime. */
export function adminAreaRoutes(): GroupHandlers {
  const built = () => {
    deps ??= build();
    return deps;
  };
  return {
    ...adminRoutes(built),
    // The Models page (decision 051): its settings through the process's one reader, so a save applies here at once.
    ...adminModelsRoutes(() => {
      const { client, tableName } = dynamo();
      return { ...built(), modelSettings: modelSettings(), modelUsage: dynamoModelUsage(client, tableName) };
    }),
  };
}

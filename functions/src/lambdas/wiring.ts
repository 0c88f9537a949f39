import { awsClientDefaults } from '../adapters/client-options';
import { dynamo } from '../adapters/dynamo/client';
import { dynamoPendingSignIns } from '../adapters/dynamo/pending-sign-ins';
import { dynamoRateLimiter } from '../adapters/dynamo/rate-limiter';
import { dynamoSettingsRepository } from '../adapters/dynamo/settings-repository';
import { dynamoTokenStore } from '../adapters/dynamo/token-store';
import { lazySdk } from '../adapters/lazy-sdk';
import { nodeSecrets } from '../adapters/node-secrets';
import { sesMailer } from '../adapters/ses/mailer';
import { traced } from '../adapters/tracing';
import { runtimeConfig } from '../config';
import type { AccountDeps } from '../domain/accounts/account-service';
import type { AdminDeps } from '../domain/accounts/admin';
import { siteNameSource } from '../domain/settings/site';
import { log } from '../http/logger';
import { sessionWiring } from './session-wiring';

/**
 * The account services of the `auth` and `admin-session` groups: sessions
 * plus one-time tokens, rate limits and mail. Built once per runtime.
 */
function build() {
  const base = sessionWiring();
  const { client, tableName } = dynamo();
  const limiter = dynamoRateLimiter(client, tableName);
  const clock = { now: () => new Date(), sleep: (ms: number) => new Promise<void>((r) => setTimeout(r, ms)) };
  // Loaded with the first mail: most account requests send none.
  const ses = lazySdk(
    () => import('../adapters/ses/sdk'),
    (sdk) =>
      traced(
        new sdk.SESv2Client({
          ...awsClientDefaults,
          region: runtimeConfig().region,
          ...(base.config.sesEndpoint ? { endpoint: base.config.sesEndpoint } : {}),
        }),
      ),
  );
  // Site Name is not secret: read as stored, without the settings key.
  const siteName = siteNameSource(dynamoSettingsRepository(client, tableName), base.config.siteName, {
    onError: (error) => log.warn('site name unreadable; SITE_NAME stands in', { error }),
  });
  const accounts: AccountDeps = {
    users: base.users,
    identity: base.userIdentity,
    revoked: base.revoked,
    tokens: dynamoTokenStore(client, tableName),
    mailer: sesMailer(ses, base.config.mailFrom, process.env.MAIL_CONFIGURATION_SET || undefined),
    limiter,
    secrets: nodeSecrets,
    clock,
    siteOrigin: base.config.publicOrigin,
    siteName,
    log,
  };
  const admin: AdminDeps = {
    admins: base.admins,
    identity: base.adminIdentity,
    revoked: base.revoked,
    secrets: nodeSecrets,
    limiter,
    clock,
    pendingSignIns: dynamoPendingSignIns(client, tableName),
    // The issuer an authenticator app shows beside an admin's codes.
    siteName,
  };
  return { accounts, admin, sessions: base.sessions, adminChallenge: base.adminChallenge };
}

let built: ReturnType<typeof build> | undefined;

export function wiring(): ReturnType<typeof build> {
  built ??= build();
  return built;
}

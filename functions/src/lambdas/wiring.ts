import { CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import { SESv2Client } from '@aws-sdk/client-sesv2';
import { cognitoIdentityProvider } from '../adapters/cognito/identity-provider';
import { dynamoAdminRepository } from '../adapters/dynamo/admin-repository';
import { dynamo } from '../adapters/dynamo/client';
import { dynamoRateLimiter } from '../adapters/dynamo/rate-limiter';
import { dynamoTokenStore } from '../adapters/dynamo/token-store';
import { dynamoUserRepository } from '../adapters/dynamo/user-repository';
import { nodeSecrets } from '../adapters/node-secrets';
import { sesMailer } from '../adapters/ses/mailer';
import { accountsConfig, runtimeConfig } from '../config';
import type { AccountDeps } from '../domain/accounts/account-service';
import type { AdminDeps } from '../domain/accounts/admin';
import { cookieJar } from '../http/cookies';
import { logger } from '../http/logger';
import { adminSessions, userSessions } from '../http/session';

/**
 * Builds the adapters every route group shares, once per Lambda runtime and
 * only when first needed, from the environment (`.env.example` lists it).
 */
function build() {
  const { client, tableName } = dynamo();
  const config = accountsConfig();
  const region = runtimeConfig().region;
  const cognito = new CognitoIdentityProviderClient({
    region,
    ...(config.cognitoEndpoint ? { endpoint: config.cognitoEndpoint } : {}),
  });
  const issuerBase = config.cognitoEndpoint ?? `https://cognito-idp.${region}.amazonaws.com`;
  const users = dynamoUserRepository(client, tableName);
  const admins = dynamoAdminRepository(client, tableName);
  const limiter = dynamoRateLimiter(client, tableName);
  const clock = { now: () => new Date(), sleep: (ms: number) => new Promise<void>((r) => setTimeout(r, ms)) };
  const userIdentity = cognitoIdentityProvider({
    client: cognito,
    userPoolId: config.userPoolId,
    clientId: config.userPoolClientId,
    issuer: `${issuerBase}/${config.userPoolId}`,
  });
  const adminIdentity = cognitoIdentityProvider({
    client: cognito,
    userPoolId: config.adminPoolId,
    clientId: config.adminPoolClientId,
    issuer: `${issuerBase}/${config.adminPoolId}`,
  });
  const ses = new SESv2Client({ region, ...(config.sesEndpoint ? { endpoint: config.sesEndpoint } : {}) });
  const jar = cookieJar(config.publicOrigin);
  const accounts: AccountDeps = {
    users,
    identity: userIdentity,
    tokens: dynamoTokenStore(client, tableName),
    mailer: sesMailer(ses, config.mailFrom),
    limiter,
    secrets: nodeSecrets,
    clock,
    siteOrigin: config.publicOrigin,
    siteName: config.siteName,
    log: logger,
  };
  const adminDeps: AdminDeps = { admins, identity: adminIdentity, limiter, clock };
  return {
    accounts,
    admin: adminDeps,
    sessions: {
      user: userSessions({ users, identity: userIdentity }, jar),
      admin: adminSessions({ admins, identity: adminIdentity }, jar),
    },
  };
}

let built: ReturnType<typeof build> | undefined;

export function wiring(): ReturnType<typeof build> {
  built ??= build();
  return built;
}

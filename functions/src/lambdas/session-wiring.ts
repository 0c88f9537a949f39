import type { CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import { awsClientDefaults } from '../adapters/client-options';
import { cognitoIdentityProvider } from '../adapters/cognito/identity-provider';
import { dynamoAdminRepository } from '../adapters/dynamo/admin-repository';
import { dynamo } from '../adapters/dynamo/client';
import { dynamoRevokedSessions } from '../adapters/dynamo/revoked-sessions';
import { dynamoAdminSessionReads, dynamoUserSessionReads } from '../adapters/dynamo/session-reads';
import { dynamoUserRepository } from '../adapters/dynamo/user-repository';
import { nodeSecrets } from '../adapters/node-secrets';
import { traced } from '../adapters/tracing';
import { accountsConfig, runtimeConfig } from '../config';
import { cookieJar } from '../http/cookies';
import { adminChallengeCookie, adminSessions, userSessions } from '../http/session';

/**
 * What every route group needs to recognise a signed-in user or admin: the
 * table's profiles, both Cognito pools and the cookie jar. Built once per
 * Lambda runtime, on first use; groups that send no mail import only this.
 */
function build() {
  const { client, tableName } = dynamo();
  const config = accountsConfig();
  const region = runtimeConfig().region;
  // One client for both pools, made when a call first needs Cognito.
  let cognito: CognitoIdentityProviderClient | undefined;
  const cognitoClient = (sdk: typeof import('../adapters/cognito/sdk')) => {
    cognito ??= traced(
      new sdk.CognitoIdentityProviderClient({
        ...awsClientDefaults,
        region,
        ...(config.cognitoEndpoint ? { endpoint: config.cognitoEndpoint } : {}),
      }),
    );
    return cognito;
  };
  const issuerBase = config.cognitoEndpoint ?? `https://cognito-idp.${region}.amazonaws.com`;
  const pool = (userPoolId: string, clientId: string) =>
    cognitoIdentityProvider({
      client: cognitoClient,
      userPoolId,
      clientId,
      issuer: `${issuerBase}/${userPoolId}`,
    });
  const users = dynamoUserRepository(client, tableName);
  const admins = dynamoAdminRepository(client, tableName);
  const userIdentity = pool(config.userPoolId, config.userPoolClientId);
  const adminIdentity = pool(config.adminPoolId, config.adminPoolClientId);
  const jar = cookieJar(config.publicOrigin);
  const revoked = dynamoRevokedSessions(client, tableName);
  const secrets = nodeSecrets;
  return {
    config,
    users,
    admins,
    userIdentity,
    adminIdentity,
    revoked,
    adminChallenge: adminChallengeCookie(jar),
    sessions: {
      user: userSessions(
        { sessionReads: dynamoUserSessionReads(client, tableName), identity: userIdentity, revoked, secrets },
        jar,
      ),
      admin: adminSessions(
        {
          sessionReads: dynamoAdminSessionReads(client, tableName),
          identity: adminIdentity,
          revoked,
          secrets,
        },
        jar,
      ),
    },
  };
}

let built: ReturnType<typeof build> | undefined;

export function sessionWiring(): ReturnType<typeof build> {
  built ??= build();
  return built;
}

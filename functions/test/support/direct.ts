import { CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { cognitoIdentityProvider } from '../../src/adapters/cognito/identity-provider';
import { dynamoAdminRepository } from '../../src/adapters/dynamo/admin-repository';
import { dynamoTokenStore } from '../../src/adapters/dynamo/token-store';
import { dynamoUserRepository } from '../../src/adapters/dynamo/user-repository';
import { clientConfig, cloudEnv, target } from './run';
import { poolIssuer } from './target';

/**
 * The data and identity stores behind the API, for arranging and checking what
 * HTTP cannot: the emulators locally; on a stage its table and pools by the
 * names from the stack's outputs, with the default credential chain.
 */
export function direct() {
  const env = cloudEnv;
  const base = new DynamoDBClient(clientConfig('dynamodb'));
  const documents = DynamoDBDocumentClient.from(base, { marshallOptions: { removeUndefinedValues: true } });
  const tableName = env.TABLE_NAME ?? '';
  const cognito = new CognitoIdentityProviderClient(clientConfig('cognito'));
  return {
    documents,
    tableName,
    users: dynamoUserRepository(documents, tableName),
    admins: dynamoAdminRepository(documents, tableName),
    tokens: dynamoTokenStore(documents, tableName),
    adminIdentity: cognitoIdentityProvider({
      client: cognito,
      userPoolId: env.ADMIN_POOL_ID ?? '',
      clientId: env.ADMIN_POOL_CLIENT_ID ?? '',
      issuer: poolIssuer(target, env, env.ADMIN_POOL_ID ?? ''),
    }),
    close() {
      base.destroy();
      cognito.destroy();
    },
  };
}

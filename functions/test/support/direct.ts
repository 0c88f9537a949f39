import { CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { cognitoIdentityProvider } from '../../src/adapters/cognito/identity-provider';
import { dynamoAdminRepository } from '../../src/adapters/dynamo/admin-repository';
import { dynamoTokenStore } from '../../src/adapters/dynamo/token-store';
import { dynamoUserRepository } from '../../src/adapters/dynamo/user-repository';
import { cloudEnv } from './http';

/** The data and identity stores behind the API, for arranging and checking what HTTP cannot. */
export function direct() {
  const env = cloudEnv;
  const region = env.AWS_REGION ?? 'us-east-1';
  const credentials =
    env.AWS_ACCESS_KEY_ID && env.AWS_SECRET_ACCESS_KEY
      ? { credentials: { accessKeyId: env.AWS_ACCESS_KEY_ID, secretAccessKey: env.AWS_SECRET_ACCESS_KEY } }
      : {};
  const base = new DynamoDBClient({
    region,
    ...(env.DYNAMODB_ENDPOINT ? { endpoint: env.DYNAMODB_ENDPOINT } : {}),
    ...credentials,
  });
  const documents = DynamoDBDocumentClient.from(base, { marshallOptions: { removeUndefinedValues: true } });
  const tableName = env.TABLE_NAME ?? '';
  const cognito = new CognitoIdentityProviderClient({
    region,
    ...(env.COGNITO_ENDPOINT ? { endpoint: env.COGNITO_ENDPOINT } : {}),
    ...credentials,
  });
  const issuerBase = env.COGNITO_ENDPOINT ?? `https://cognito-idp.${region}.amazonaws.com`;
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
      issuer: `${issuerBase}/${env.ADMIN_POOL_ID}`,
    }),
    close() {
      base.destroy();
      cognito.destroy();
    },
  };
}

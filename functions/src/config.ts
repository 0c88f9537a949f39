/**
 * Runtime settings from the environment, read when first needed so that the
 * local cloud can set them before a handler runs. Names are documented in
 * `.env.example`.
 */
export interface RuntimeConfig {
  region: string;
  tableName: string;
  /** Set only locally: where DynamoDB Local listens. */
  dynamoEndpoint: string | undefined;
}

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`Missing environment variable ${name}`);
  return value;
}

export function runtimeConfig(): RuntimeConfig {
  return {
    region: process.env.AWS_REGION ?? 'us-east-1',
    tableName: required('TABLE_NAME'),
    dynamoEndpoint: process.env.DYNAMODB_ENDPOINT || undefined,
  };
}

export interface AccountsConfig {
  userPoolId: string;
  userPoolClientId: string;
  adminPoolId: string;
  adminPoolClientId: string;
  /** Set only locally: where cognito-local listens. */
  cognitoEndpoint: string | undefined;
  /** Set only locally: where the SES emulator listens. */
  sesEndpoint: string | undefined;
  mailFrom: string;
  publicOrigin: string;
  siteName: string;
}

export function accountsConfig(): AccountsConfig {
  return {
    userPoolId: required('USER_POOL_ID'),
    userPoolClientId: required('USER_POOL_CLIENT_ID'),
    adminPoolId: required('ADMIN_POOL_ID'),
    adminPoolClientId: required('ADMIN_POOL_CLIENT_ID'),
    cognitoEndpoint: process.env.COGNITO_ENDPOINT || undefined,
    sesEndpoint: process.env.SES_ENDPOINT || undefined,
    mailFrom: process.env.MAIL_FROM || 'Tunesmith <no-reply@tunesmith.local>',
    publicOrigin: required('PUBLIC_ORIGIN'),
    siteName: process.env.SITE_NAME || 'Tunesmith',
  };
}

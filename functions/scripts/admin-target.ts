/**
 * What the administrator commands (`npm run admin:create`, `npm run
 * admin:reset-mfa`) share: where the admin pool and the table are (AWS from
 * the environment, or the running local cloud with `--local`), the stores
 * the domain's admin functions take, and the password rules.
 */
import { randomBytes } from 'node:crypto';
import { CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { ADMIN_PASSWORD_MIN_LENGTH } from '@tunesmith/shared/constants';
import { cognitoIdentityProvider } from '../src/adapters/cognito/identity-provider';
import { dynamoAdminRepository } from '../src/adapters/dynamo/admin-repository';
import { dynamoAuditLog } from '../src/adapters/dynamo/audit-log';
import { runningLocalCloud, UsageError } from './local-cloud';

export { UsageError };

/** The admin pool's minimum (infra/lib/auth.ts) and the change-password rule (decision 036). */
export const MIN_PASSWORD_LENGTH = ADMIN_PASSWORD_MIN_LENGTH;
const MAX_PASSWORD_LENGTH = 256;

/** Said in each command's usage: where the AWS settings come from. */
export const awsSettingsHelp = `Against AWS, set from the stack outputs: TABLE_NAME (TableName), ADMIN_POOL_ID (AdminPoolId),
ADMIN_POOL_CLIENT_ID (AdminPoolClientId), and AWS_REGION; AWS credentials as usual.`;

export interface Target {
  region: string;
  tableName: string;
  adminPoolId: string;
  adminPoolClientId: string;
  /** Local only: emulator endpoints and their dummy credentials. */
  dynamoEndpoint?: string;
  cognitoEndpoint?: string;
  credentials?: { accessKeyId: string; secretAccessKey: string };
  /** Where the admin signs in, when known. */
  siteUrl?: string;
}

/** 24 characters from an alphabet without look-alikes (about 139 bits), plus one of each class. */
export function generatePassword(): string {
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnpqrstuvwxyz23456789';
  let password = '';
  for (const byte of randomBytes(24)) password += alphabet[byte % alphabet.length];
  return `${password}aA2`;
}

/** The password given, or a generated one; refused outside the admin pool's rules. */
export function passwordOf(given: string | undefined): { password: string; generated: boolean } {
  const password = given ?? generatePassword();
  if (password.length < MIN_PASSWORD_LENGTH) {
    throw new UsageError(`The password must be at least ${MIN_PASSWORD_LENGTH} characters.`);
  }
  if (password.length > MAX_PASSWORD_LENGTH) {
    throw new UsageError(`The password must be at most ${MAX_PASSWORD_LENGTH} characters.`);
  }
  return { password, generated: given === undefined };
}

/** A username as the admin pool takes it. */
export function usernameOf(given: string | undefined, usage: string): string {
  const username = given?.trim() ?? '';
  if (!username) throw new UsageError(`--username is required.\n\n${usage}`);
  if (username.length > 128 || /\s/.test(username)) {
    throw new UsageError('The username must be 1 to 128 characters without spaces.');
  }
  return username;
}

function localTarget(env: NodeJS.ProcessEnv): Target {
  const { env: e, url } = runningLocalCloud(env, [
    'TABLE_NAME',
    'ADMIN_POOL_ID',
    'ADMIN_POOL_CLIENT_ID',
    'DYNAMODB_ENDPOINT',
    'COGNITO_ENDPOINT',
  ]);
  return {
    region: e.AWS_REGION || 'us-east-1',
    tableName: e.TABLE_NAME as string,
    adminPoolId: e.ADMIN_POOL_ID as string,
    adminPoolClientId: e.ADMIN_POOL_CLIENT_ID as string,
    dynamoEndpoint: e.DYNAMODB_ENDPOINT,
    cognitoEndpoint: e.COGNITO_ENDPOINT,
    credentials: {
      accessKeyId: e.AWS_ACCESS_KEY_ID || 'local',
      secretAccessKey: e.AWS_SECRET_ACCESS_KEY || 'local',
    },
    ...(url ? { siteUrl: url } : {}),
  };
}

function awsTarget(env: NodeJS.ProcessEnv): Target {
  const names = ['TABLE_NAME', 'ADMIN_POOL_ID', 'ADMIN_POOL_CLIENT_ID', 'AWS_REGION'] as const;
  const missing = names.filter((name) => !env[name]);
  if (missing.length) {
    throw new UsageError(
      `Missing environment variable(s) ${missing.join(', ')}.\n` +
        'Take them from the stack outputs (TableName, AdminPoolId, AdminPoolClientId), e.g.\n' +
        '  aws cloudformation describe-stacks --stack-name Tunesmith --query "Stacks[0].Outputs"\n' +
        'or use --local for the local cloud.',
    );
  }
  return {
    region: env.AWS_REGION as string,
    tableName: env.TABLE_NAME as string,
    adminPoolId: env.ADMIN_POOL_ID as string,
    adminPoolClientId: env.ADMIN_POOL_CLIENT_ID as string,
    ...(env.SITE_URL ? { siteUrl: env.SITE_URL.replace(/\/$/, '') } : {}),
  };
}

/**
 * The admin pool and the table of the target, as the domain's admin
 * functions take them, for the length of `use`.
 */
export async function withAdminStores<T>(
  local: boolean,
  env: NodeJS.ProcessEnv,
  use: (stores: AdminStores, target: Target) => Promise<T>,
): Promise<T> {
  const target = local ? localTarget(env) : awsTarget(env);
  const connection = (endpoint: string | undefined) => ({
    region: target.region,
    ...(endpoint ? { endpoint } : {}),
    ...(target.credentials ? { credentials: target.credentials } : {}),
  });
  const dynamo = new DynamoDBClient(connection(target.dynamoEndpoint));
  const cognito = new CognitoIdentityProviderClient(connection(target.cognitoEndpoint));
  try {
    const documents = DynamoDBDocumentClient.from(dynamo, {
      marshallOptions: { removeUndefinedValues: true },
    });
    const issuerBase = target.cognitoEndpoint ?? `https://cognito-idp.${target.region}.amazonaws.com`;
    const stores = {
      admins: dynamoAdminRepository(documents, target.tableName),
      identity: cognitoIdentityProvider({
        client: cognito,
        userPoolId: target.adminPoolId,
        clientId: target.adminPoolClientId,
        issuer: `${issuerBase}/${target.adminPoolId}`,
      }),
      audit: dynamoAuditLog(documents, target.tableName),
      clock: { now: () => new Date() },
      newId: () => crypto.randomUUID(),
    };
    return await use(stores, target);
  } finally {
    dynamo.destroy();
    cognito.destroy();
  }
}
export type AdminStores = {
  admins: ReturnType<typeof dynamoAdminRepository>;
  identity: ReturnType<typeof cognitoIdentityProvider>;
  audit: ReturnType<typeof dynamoAuditLog>;
  clock: { now: () => Date };
  newId: () => string;
};

/** Runs a command's `main`, printing a caller's mistake as is and anything else as what failed. */
export async function runCommand(
  failure: string,
  main: (argv: string[], env: NodeJS.ProcessEnv) => Promise<number>,
): Promise<void> {
  // The SDK's notice about Node versions would bury the command's few lines of output.
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  try {
    process.exitCode = await main(process.argv.slice(2), process.env);
  } catch (error) {
    if (error instanceof UsageError) {
      console.error(error.message);
    } else {
      const name = (error as { name?: string }).name ?? 'Error';
      console.error(`${failure}: ${name}: ${(error as Error).message ?? String(error)}`);
    }
    process.exitCode = 1;
  }
}

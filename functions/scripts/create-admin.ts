/**
 * `npm run admin:create -- --username <name> [--password <pw>] [--email <address>] [--local]`
 *
 * Creates an administrator (an identity in the admin pool plus its profile
 * item in the table, role admin, active) with the domain's `createAdmin`, the
 * same code path the local cloud uses for its first admin.
 *
 * - Against AWS (default): reads TABLE_NAME, ADMIN_POOL_ID, ADMIN_POOL_CLIENT_ID
 *   and AWS_REGION from the environment (take them from the stack outputs
 *   TableName, AdminPoolId, AdminPoolClientId) and uses the usual AWS
 *   credentials (AWS_PROFILE, ...).
 * - `--local`: talks to the running local cloud (`npm start`), found through
 *   `local-cloud.json` in its data directory (`.data`, or TUNESMITH_DATA_DIR).
 *
 * Without `--password` a strong random password is generated and printed.
 * Exits 1 with a message when the input is invalid or the admin exists.
 */
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { cognitoIdentityProvider } from '../src/adapters/cognito/identity-provider';
import { dynamoAdminRepository } from '../src/adapters/dynamo/admin-repository';
import { createAdmin } from '../src/domain/accounts/admin';
import { DomainError } from '../src/domain/errors';
import { runningLocalCloud, UsageError } from './local-cloud';

/** The admin pool's minimum (infra/lib/auth.ts) and the change-password rule: at least 6 characters. */
const MIN_PASSWORD_LENGTH = 6;
const MAX_PASSWORD_LENGTH = 256;

const usage = `Usage: npm run admin:create -- --username <name> [--password <password>] [--email <address>] [--local]

  --username  sign-in name of the new admin (required)
  --password  at least ${MIN_PASSWORD_LENGTH} characters; omitted: a random one is generated and printed
  --email     optional contact address
  --local     use the running local cloud (npm start) instead of AWS

Against AWS, set from the stack outputs: TABLE_NAME (TableName), ADMIN_POOL_ID (AdminPoolId),
ADMIN_POOL_CLIENT_ID (AdminPoolClientId), and AWS_REGION; AWS credentials as usual.`;

interface Target {
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

/** 24 characters from an alphabet without look-alikes, plus one of each class. */
function generatePassword(): string {
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnpqrstuvwxyz23456789';
  let password = '';
  for (const byte of randomBytes(24)) password += alphabet[byte % alphabet.length];
  return `${password}aA2`;
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

interface Input {
  username: string;
  password: string;
  generated: boolean;
  email?: string;
  local: boolean;
}

function readArgs(argv: string[]) {
  return parseArgs({
    args: argv,
    options: {
      username: { type: 'string' },
      password: { type: 'string' },
      email: { type: 'string' },
      local: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
    strict: true,
    allowPositionals: false,
  });
}

function parseInput(argv: string[]): Input | 'help' {
  let parsed: ReturnType<typeof readArgs>;
  try {
    parsed = readArgs(argv);
  } catch (error) {
    throw new UsageError(`${(error as Error).message}\n\n${usage}`);
  }
  const { values } = parsed;
  if (values.help) return 'help';
  const username = values.username?.trim() ?? '';
  if (!username) throw new UsageError(`--username is required.\n\n${usage}`);
  if (username.length > 128 || /\s/.test(username)) {
    throw new UsageError('The username must be 1 to 128 characters without spaces.');
  }
  const email = values.email?.trim();
  if (email !== undefined && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) {
    throw new UsageError(`"${email}" is not an email address.`);
  }
  const generated = values.password === undefined;
  const password = values.password ?? generatePassword();
  if (password.length < MIN_PASSWORD_LENGTH) {
    throw new UsageError(`The password must be at least ${MIN_PASSWORD_LENGTH} characters.`);
  }
  if (password.length > MAX_PASSWORD_LENGTH) {
    throw new UsageError(`The password must be at most ${MAX_PASSWORD_LENGTH} characters.`);
  }
  return { username, password, generated, ...(email ? { email } : {}), local: values.local ?? false };
}

async function main(argv: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const input = parseInput(argv);
  if (input === 'help') {
    console.log(usage);
    return 0;
  }
  const target = input.local ? localTarget(env) : awsTarget(env);
  const connection = (endpoint: string | undefined) => ({
    region: target.region,
    ...(endpoint ? { endpoint } : {}),
    ...(target.credentials ? { credentials: target.credentials } : {}),
  });
  const dynamo = new DynamoDBClient(connection(target.dynamoEndpoint));
  const cognito = new CognitoIdentityProviderClient(connection(target.cognitoEndpoint));
  try {
    const issuerBase = target.cognitoEndpoint ?? `https://cognito-idp.${target.region}.amazonaws.com`;
    const admin = await createAdmin(
      {
        admins: dynamoAdminRepository(
          DynamoDBDocumentClient.from(dynamo, { marshallOptions: { removeUndefinedValues: true } }),
          target.tableName,
        ),
        identity: cognitoIdentityProvider({
          client: cognito,
          userPoolId: target.adminPoolId,
          clientId: target.adminPoolClientId,
          issuer: `${issuerBase}/${target.adminPoolId}`,
        }),
        clock: { now: () => new Date() },
      },
      { username: input.username, password: input.password, ...(input.email ? { email: input.email } : {}) },
    );
    console.log(`Created admin "${admin.username}" (role ${admin.role}).`);
    if (input.generated) console.log(`Password: ${input.password}`);
    if (target.siteUrl) console.log(`Sign in at ${target.siteUrl}/admin/login`);
    return 0;
  } catch (error) {
    if (error instanceof DomainError && error.kind === 'conflict') {
      throw new UsageError(`Admin "${input.username}" already exists; choose another username.`);
    }
    if (error instanceof DomainError && error.kind === 'validation') {
      throw new UsageError(`Refused: ${error.message}`);
    }
    throw error;
  } finally {
    dynamo.destroy();
    cognito.destroy();
  }
}

// The SDK's notice about Node 22 would bury this command's one line of output.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
try {
  process.exitCode = await main(process.argv.slice(2), process.env);
} catch (error) {
  if (error instanceof UsageError) {
    console.error(error.message);
  } else {
    const name = (error as { name?: string }).name ?? 'Error';
    console.error(`Could not create the admin: ${name}: ${(error as Error).message ?? String(error)}`);
  }
  process.exitCode = 1;
}

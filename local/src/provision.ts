import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import {
  AdminCreateUserCommand,
  AdminGetUserCommand,
  AdminSetUserPasswordCommand,
  type CognitoIdentityProviderClient,
  CreateUserPoolClientCommand,
  CreateUserPoolCommand,
  DescribeUserPoolClientCommand,
  DescribeUserPoolCommand,
  type ExplicitAuthFlowsType,
} from '@aws-sdk/client-cognito-identity-provider';
import {
  type AttributeDefinition,
  CreateTableCommand,
  DescribeTableCommand,
  type DynamoDBClient,
  type GlobalSecondaryIndex,
  UpdateTimeToLiveCommand,
} from '@aws-sdk/client-dynamodb';
import { tableDesign } from '@tunesmith/functions/data/keys';

/** What the local cloud remembers between starts, in `<dataDir>/local-cloud.json`. */
export interface LocalState {
  userPoolId: string;
  userPoolClientId: string;
  adminPoolId: string;
  adminPoolClientId: string;
  admin: { username: string; password: string };
}

/** The saved state, or undefined when missing or unreadable (then everything is created anew). */
export function readState(file: string): Partial<LocalState> | undefined {
  if (!existsSync(file)) return undefined;
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as Partial<LocalState>;
  } catch {
    return undefined;
  }
}

/** Saves the state; it holds a password, so only the owner may read it. */
export function writeState(file: string, state: LocalState): void {
  writeFileSync(file, `${JSON.stringify(state, null, 2)}\n`, { mode: 0o600 });
}

const isNotFound = (error: unknown) =>
  ['ResourceNotFoundException', 'UserNotFoundException'].includes((error as { name?: string }).name ?? '');

/**
 * Creates the single table from {@link tableDesign} unless it exists: the
 * key schema, the three GSIs (all attributes projected), on-demand billing and
 * the TTL attribute. Returns whether it had to create it.
 */
export async function ensureTable(client: DynamoDBClient, tableName: string): Promise<boolean> {
  const existing = await client.send(new DescribeTableCommand({ TableName: tableName })).catch((error) => {
    if (isNotFound(error)) return undefined;
    throw error;
  });
  if (existing) {
    const want = Object.values(tableDesign.indexes).map((index) => index.indexName);
    const have = new Set((existing.Table?.GlobalSecondaryIndexes ?? []).map((index) => index.IndexName));
    const missing = want.filter((name) => !have.has(name));
    if (missing.length) {
      throw new Error(
        `Table ${tableName} lacks the index(es) ${missing.join(', ')} the code now expects. ` +
          'Start once with --fresh to rebuild the local data.',
      );
    }
    return false;
  }

  const attributes = new Set<string>([tableDesign.partitionKey, tableDesign.sortKey]);
  const indexes: GlobalSecondaryIndex[] = Object.values(tableDesign.indexes).map((index) => {
    attributes.add(index.partitionKey);
    attributes.add(index.sortKey);
    return {
      IndexName: index.indexName,
      KeySchema: [
        { AttributeName: index.partitionKey, KeyType: 'HASH' },
        { AttributeName: index.sortKey, KeyType: 'RANGE' },
      ],
      Projection: { ProjectionType: 'ALL' },
    };
  });
  const definitions: AttributeDefinition[] = [...attributes].map((name) => ({
    AttributeName: name,
    AttributeType: 'S',
  }));
  await client.send(
    new CreateTableCommand({
      TableName: tableName,
      BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: definitions,
      KeySchema: [
        { AttributeName: tableDesign.partitionKey, KeyType: 'HASH' },
        { AttributeName: tableDesign.sortKey, KeyType: 'RANGE' },
      ],
      GlobalSecondaryIndexes: indexes,
    }),
  );
  // DynamoDB Local accepts TTL but deletes expired items lazily; readers check expiry themselves.
  await client.send(
    new UpdateTimeToLiveCommand({
      TableName: tableName,
      TimeToLiveSpecification: { AttributeName: tableDesign.ttlAttribute, Enabled: true },
    }),
  );
  return true;
}

/** Our sign-up rules: at least 8 characters, nothing else demanded. */
const passwordPolicy = {
  MinimumLength: 8,
  RequireLowercase: false,
  RequireUppercase: false,
  RequireNumbers: false,
  RequireSymbols: false,
};

const authFlows: ExplicitAuthFlowsType[] = ['ALLOW_USER_PASSWORD_AUTH', 'ALLOW_REFRESH_TOKEN_AUTH'];

async function poolExists(
  cognito: CognitoIdentityProviderClient,
  poolId: string | undefined,
  clientId: string | undefined,
): Promise<boolean> {
  if (!poolId || !clientId) return false;
  try {
    await cognito.send(new DescribeUserPoolCommand({ UserPoolId: poolId }));
    await cognito.send(new DescribeUserPoolClientCommand({ UserPoolId: poolId, ClientId: clientId }));
    return true;
  } catch (error) {
    if (isNotFound(error)) return false;
    throw error;
  }
}

async function createPool(
  cognito: CognitoIdentityProviderClient,
  kind: 'users' | 'admins',
): Promise<{ poolId: string; clientId: string }> {
  const pool = await cognito.send(
    new CreateUserPoolCommand({
      PoolName: `tunesmith-${kind}`,
      // Users sign in with their email; admins with a username.
      ...(kind === 'users' ? { UsernameAttributes: ['email'] } : {}),
      Policies: { PasswordPolicy: passwordPolicy },
    }),
  );
  const poolId = pool.UserPool?.Id;
  if (!poolId) throw new Error(`cognito-local created the ${kind} pool without an id`);
  const client = await cognito.send(
    new CreateUserPoolClientCommand({
      UserPoolId: poolId,
      ClientName: `tunesmith-${kind}-web`,
      ExplicitAuthFlows: authFlows,
      GenerateSecret: false,
    }),
  );
  const clientId = client.UserPoolClient?.ClientId;
  if (!clientId) throw new Error(`cognito-local created the ${kind} client without an id`);
  return { poolId, clientId };
}

/**
 * The two pools and their app clients: the saved ones when cognito-local
 * still knows them, else new ones.
 */
export async function ensurePools(
  cognito: CognitoIdentityProviderClient,
  saved: Partial<LocalState> | undefined,
): Promise<Omit<LocalState, 'admin'>> {
  const [users, admins] = await Promise.all([
    poolExists(cognito, saved?.userPoolId, saved?.userPoolClientId).then((exists) =>
      exists
        ? { poolId: saved?.userPoolId as string, clientId: saved?.userPoolClientId as string }
        : createPool(cognito, 'users'),
    ),
    poolExists(cognito, saved?.adminPoolId, saved?.adminPoolClientId).then((exists) =>
      exists
        ? { poolId: saved?.adminPoolId as string, clientId: saved?.adminPoolClientId as string }
        : createPool(cognito, 'admins'),
    ),
  ]);
  return {
    userPoolId: users.poolId,
    userPoolClientId: users.clientId,
    adminPoolId: admins.poolId,
    adminPoolClientId: admins.clientId,
  };
}

/** 24 characters from an alphabet without look-alikes, mixed case and digits. */
function randomPassword(): string {
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnpqrstuvwxyz23456789';
  const bytes = randomBytes(24);
  let password = '';
  for (const byte of bytes) password += alphabet[byte % alphabet.length];
  // Whatever the pool's policy says, be sure each class is present.
  return `${password}aA2`;
}

/**
 * The first admin: the saved one when it still exists in the admin pool,
 * else `admin` created with a random permanent password.
 */
export async function ensureAdmin(
  cognito: CognitoIdentityProviderClient,
  adminPoolId: string,
  saved: LocalState['admin'] | undefined,
): Promise<LocalState['admin']> {
  if (saved?.username && saved.password) {
    const exists = await cognito
      .send(new AdminGetUserCommand({ UserPoolId: adminPoolId, Username: saved.username }))
      .then(
        () => true,
        (error) => {
          if (isNotFound(error)) return false;
          throw error;
        },
      );
    if (exists) return saved;
  }
  const admin = { username: 'admin', password: randomPassword() };
  await cognito.send(
    new AdminCreateUserCommand({
      UserPoolId: adminPoolId,
      Username: admin.username,
      TemporaryPassword: randomPassword(),
      MessageAction: 'SUPPRESS',
    }),
  );
  await cognito.send(
    new AdminSetUserPasswordCommand({
      UserPoolId: adminPoolId,
      Username: admin.username,
      Password: admin.password,
      Permanent: true,
    }),
  );
  return admin;
}

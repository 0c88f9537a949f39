import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import {
  AdminGetUserCommand,
  type CognitoIdentityProviderClient,
  CreateUserPoolClientCommand,
  CreateUserPoolCommand,
  DescribeUserPoolClientCommand,
  DescribeUserPoolCommand,
  type ExplicitAuthFlowsType,
  UpdateUserPoolClientCommand,
  type UpdateUserPoolClientCommandInput,
  UpdateUserPoolCommand,
  type UpdateUserPoolCommandInput,
} from '@aws-sdk/client-cognito-identity-provider';
import {
  type AttributeDefinition,
  CreateTableCommand,
  DescribeTableCommand,
  type DynamoDBClient,
  type GlobalSecondaryIndex,
  UpdateTimeToLiveCommand,
} from '@aws-sdk/client-dynamodb';
import { DeleteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { cognitoIdentityProvider } from '@tunesmith/functions/adapters/cognito/identity-provider';
import { dynamoAdminRepository } from '@tunesmith/functions/adapters/dynamo/admin-repository';
import { keys, tableDesign } from '@tunesmith/functions/data/keys';
import { type AdminUser, createAdmin } from '@tunesmith/functions/domain/accounts/admin';

/** What the local cloud remembers between starts, in `<dataDir>/local-cloud.json`. */
export interface LocalState {
  userPoolId: string;
  userPoolClientId: string;
  adminPoolId: string;
  adminPoolClientId: string;
  admin: { username: string; password: string };
  /**
   * Set while a local cloud runs on this data directory (removed when it
   * stops): its process and the endpoints and settings it gave the handlers,
   * for tools such as `npm run admin:create -- --local`.
   */
  running?: { pid: number; url: string; env: Record<string, string> };
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

/** Our password rules, as in the CDK pools: a minimum length and no composition rules. */
const passwordPolicy = (minimumLength: number) => ({
  PasswordPolicy: {
    MinimumLength: minimumLength,
    RequireLowercase: false,
    RequireUppercase: false,
    RequireNumbers: false,
    RequireSymbols: false,
  },
});

/** As in CDK: sign-in only with admin calls, plus refresh (decision 014). */
const authFlows: ExplicitAuthFlowsType[] = ['ALLOW_ADMIN_USER_PASSWORD_AUTH', 'ALLOW_REFRESH_TOKEN_AUTH'];

/**
 * The settings of each pool that CDK also sets (infra/lib/auth.ts): users with
 * 8-character passwords, admins with 6; in both every identity is made with
 * admin calls (Cognito's SignUp is refused). Password recovery is the app's
 * own; cognito-local sends no mail. cognito-local stores these settings and
 * the Cognito proxy enforces the ones it does not (cognito-proxy.ts).
 */
const poolSettings = {
  users: {
    Policies: passwordPolicy(8),
    AdminCreateUserConfig: { AllowAdminCreateUserOnly: true },
    AccountRecoverySetting: { RecoveryMechanisms: [{ Name: 'admin_only', Priority: 1 }] },
    MfaConfiguration: 'OFF',
  },
  admins: {
    Policies: passwordPolicy(6),
    AdminCreateUserConfig: { AllowAdminCreateUserOnly: true },
    AccountRecoverySetting: { RecoveryMechanisms: [{ Name: 'admin_only', Priority: 1 }] },
    MfaConfiguration: 'OFF',
  },
} as const satisfies Record<'users' | 'admins', Omit<UpdateUserPoolCommandInput, 'UserPoolId'>>;

/**
 * The app clients' settings, as in CDK: short-lived access tokens, revocable
 * refresh tokens, and a user's own token may read and write only `locale`.
 */
const clientSettings = {
  ExplicitAuthFlows: authFlows,
  ReadAttributes: ['locale'],
  WriteAttributes: ['locale'],
  AccessTokenValidity: 15,
  IdTokenValidity: 15,
  RefreshTokenValidity: 30,
  TokenValidityUnits: { AccessToken: 'minutes', IdToken: 'minutes', RefreshToken: 'days' },
  EnableTokenRevocation: true,
  PreventUserExistenceErrors: 'ENABLED',
} as const satisfies Omit<UpdateUserPoolClientCommandInput, 'UserPoolId' | 'ClientId'>;

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
      ...poolSettings[kind],
    }),
  );
  const poolId = pool.UserPool?.Id;
  if (!poolId) throw new Error(`cognito-local created the ${kind} pool without an id`);
  const client = await cognito.send(
    new CreateUserPoolClientCommand({
      UserPoolId: poolId,
      ClientName: `tunesmith-${kind}-web`,
      GenerateSecret: false,
      ...clientSettings,
    }),
  );
  const clientId = client.UserPoolClient?.ClientId;
  if (!clientId) throw new Error(`cognito-local created the ${kind} client without an id`);
  return { poolId, clientId };
}

/** Brings a pool made by an older version of this code to today's settings. */
async function updatePool(
  cognito: CognitoIdentityProviderClient,
  kind: 'users' | 'admins',
  ids: { poolId: string; clientId: string },
): Promise<{ poolId: string; clientId: string }> {
  await cognito.send(new UpdateUserPoolCommand({ UserPoolId: ids.poolId, ...poolSettings[kind] }));
  await cognito.send(
    new UpdateUserPoolClientCommand({ UserPoolId: ids.poolId, ClientId: ids.clientId, ...clientSettings }),
  );
  return ids;
}

/**
 * The two pools and their app clients: the saved ones when cognito-local
 * still knows them (with their settings brought up to date), else new ones.
 */
export async function ensurePools(
  cognito: CognitoIdentityProviderClient,
  saved: Partial<LocalState> | undefined,
): Promise<Omit<LocalState, 'admin' | 'running'>> {
  const [users, admins] = await Promise.all([
    poolExists(cognito, saved?.userPoolId, saved?.userPoolClientId).then((exists) =>
      exists
        ? updatePool(cognito, 'users', {
            poolId: saved?.userPoolId as string,
            clientId: saved?.userPoolClientId as string,
          })
        : createPool(cognito, 'users'),
    ),
    poolExists(cognito, saved?.adminPoolId, saved?.adminPoolClientId).then((exists) =>
      exists
        ? updatePool(cognito, 'admins', {
            poolId: saved?.adminPoolId as string,
            clientId: saved?.adminPoolClientId as string,
          })
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
export function randomPassword(): string {
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnpqrstuvwxyz23456789';
  const bytes = randomBytes(24);
  let password = '';
  for (const byte of bytes) password += alphabet[byte % alphabet.length];
  // Whatever the pool's policy says, be sure each class is present.
  return `${password}aA2`;
}

export interface AdminStores {
  cognito: CognitoIdentityProviderClient;
  /** The endpoint `cognito` talks to: tokens' issuer is `<endpoint>/<pool id>`. */
  cognitoEndpoint: string;
  adminPoolId: string;
  adminPoolClientId: string;
  documents: DynamoDBDocumentClient;
  tableName: string;
}

/**
 * The first admin, an identity in the admin pool with a profile item in the
 * table (role admin, active), made by the domain's `createAdmin` like
 * `npm run admin:create`. The saved one is kept while it exists in the pool,
 * and its profile is added when missing (data from before admins had
 * profiles); otherwise `admin` is created anew with a random password.
 */
export async function ensureAdmin(
  stores: AdminStores,
  saved: LocalState['admin'] | undefined,
): Promise<LocalState['admin']> {
  const admins = dynamoAdminRepository(stores.documents, stores.tableName);
  const identity = cognitoIdentityProvider({
    client: stores.cognito,
    userPoolId: stores.adminPoolId,
    clientId: stores.adminPoolClientId,
    issuer: `${stores.cognitoEndpoint}/${stores.adminPoolId}`,
  });
  const clock = { now: () => new Date() };
  const identityOf = (username: string) =>
    stores.cognito.send(new AdminGetUserCommand({ UserPoolId: stores.adminPoolId, Username: username })).then(
      (user) => user,
      (error) => {
        if (isNotFound(error)) return undefined;
        throw error;
      },
    );

  if (saved?.username && saved.password) {
    const existing = await identityOf(saved.username);
    if (existing) {
      if (!(await admins.getByUsername(saved.username))) {
        const stamp = clock.now().toISOString();
        const profile: AdminUser = {
          id: existing.UserAttributes?.find((a) => a.Name === 'sub')?.Value ?? saved.username,
          username: saved.username,
          email: existing.UserAttributes?.find((a) => a.Name === 'email')?.Value ?? null,
          role: 'admin',
          isActive: true,
          lastLoginAt: null,
          sessionsValidAfter: 0,
          createdAt: stamp,
          updatedAt: stamp,
        };
        await admins.create(profile);
      }
      return saved;
    }
  }

  const admin = { username: saved?.username || 'admin', password: randomPassword() };
  // Leftovers of an admin whose password is lost (new pool, or state file removed) are replaced.
  if (await admins.getByUsername(admin.username)) {
    await stores.documents.send(
      new DeleteCommand({ TableName: stores.tableName, Key: keys.admin(admin.username) }),
    );
  }
  if (await identityOf(admin.username)) await identity.deleteUser(admin.username);
  await createAdmin({ admins, identity, clock }, admin);
  return admin;
}

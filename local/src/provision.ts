import { randomBytes } from 'node:crypto';
import {
  AdminGetUserCommand,
  type CognitoIdentityProviderClient,
  CreateUserPoolClientCommand,
  CreateUserPoolCommand,
  DescribeUserPoolClientCommand,
  DescribeUserPoolCommand,
  type ExplicitAuthFlowsType,
  ListUserPoolsCommand,
  SetUserPoolMfaConfigCommand,
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
  UpdateTableCommand,
  UpdateTimeToLiveCommand,
} from '@aws-sdk/client-dynamodb';
import { DeleteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { cognitoIdentityProvider } from '@tunesmith/functions/adapters/cognito/identity-provider';
import { dynamoAdminRepository } from '@tunesmith/functions/adapters/dynamo/admin-repository';
import { keys, tableDesign } from '@tunesmith/functions/data/keys';
import {
  type AdminUser,
  createAdmin,
  SECOND_FACTOR_MINUTES,
} from '@tunesmith/functions/domain/accounts/admin';
import { hasEveryPrice, offeredCycles } from '@tunesmith/functions/domain/billing/plan-prices';
import { isPaidPlan } from '@tunesmith/functions/domain/generations/entitlements';
import type { Plan, PlanRepository } from '@tunesmith/functions/domain/plans/plan';
import { seedPlans } from '@tunesmith/functions/domain/plans/seed-plans';
import { seedDefaults } from '@tunesmith/functions/domain/seed';
import type { SettingsRepository } from '@tunesmith/functions/domain/settings/settings';
import { seedSettings } from '@tunesmith/functions/domain/settings/settings';
import { planPriceId } from '@tunesmith/shared/plans';
import { definitionHash, type LocalState } from './local-state';

const isNotFound = (error: unknown) =>
  ['ResourceNotFoundException', 'UserNotFoundException'].includes((error as { name?: string }).name ?? '');

/** The table's shape: {@link tableDesign}, or another in tests of a design change. */
export type TableDesign = Pick<typeof tableDesign, 'partitionKey' | 'sortKey' | 'ttlAttribute'> & {
  indexes: Record<string, { indexName: string; partitionKey: string; sortKey: string; sortKeyType?: 'N' }>;
};

const stringAttributes = (names: Iterable<string>): AttributeDefinition[] =>
  [...new Set(names)].map((name) => ({ AttributeName: name, AttributeType: 'S' }));

/** An index's key attributes: strings, but for a number sort key (decision 056). */
const indexAttributes = (index: TableDesign['indexes'][string]): AttributeDefinition[] => [
  { AttributeName: index.partitionKey, AttributeType: 'S' },
  { AttributeName: index.sortKey, AttributeType: index.sortKeyType ?? 'S' },
];

const indexOf = (index: TableDesign['indexes'][string]): GlobalSecondaryIndex => ({
  IndexName: index.indexName,
  KeySchema: [
    { AttributeName: index.partitionKey, KeyType: 'HASH' },
    { AttributeName: index.sortKey, KeyType: 'RANGE' },
  ],
  Projection: { ProjectionType: 'ALL' },
});

/** Waits (up to a minute) until a new index is active, as DynamoDB makes it after filling it. */
async function waitUntilActive(client: DynamoDBClient, tableName: string, indexName: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const described = await client.send(new DescribeTableCommand({ TableName: tableName }));
    const status = described.Table?.GlobalSecondaryIndexes?.find(
      (i) => i.IndexName === indexName,
    )?.IndexStatus;
    if (status === 'ACTIVE') return;
    if (Date.now() > deadline)
      throw new Error(`The new index ${indexName} of ${tableName} is still ${status}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * Brings the single table to {@link tableDesign} with one describe call when
 * it is already so: creates it when missing (the key schema, the GSIs with
 * all attributes projected, on-demand billing and the TTL attribute), and on
 * kept data adds each index the design has and the table lacks (a new index
 * in the code; DynamoDB Local fills it from the items there). Returns what it did.
 */
export async function ensureTable(
  client: DynamoDBClient,
  tableName: string,
  design: TableDesign = tableDesign,
): Promise<{ created: boolean; indexesAdded: string[] }> {
  const existing = await client.send(new DescribeTableCommand({ TableName: tableName })).catch((error) => {
    if (isNotFound(error)) return undefined;
    throw error;
  });
  if (existing) {
    const have = new Set((existing.Table?.GlobalSecondaryIndexes ?? []).map((index) => index.IndexName));
    const missing = Object.values(design.indexes).filter((index) => !have.has(index.indexName));
    // One index per call, as DynamoDB allows, each used only once it is active (filled).
    for (const index of missing) {
      await client.send(
        new UpdateTableCommand({
          TableName: tableName,
          AttributeDefinitions: indexAttributes(index),
          GlobalSecondaryIndexUpdates: [{ Create: indexOf(index) }],
        }),
      );
      await waitUntilActive(client, tableName, index.indexName);
    }
    return { created: false, indexesAdded: missing.map((index) => index.indexName) };
  }

  const indexes = Object.values(design.indexes);
  await client.send(
    new CreateTableCommand({
      TableName: tableName,
      BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: [
        ...stringAttributes([design.partitionKey, design.sortKey]),
        ...indexes.flatMap(indexAttributes),
      ],
      KeySchema: [
        { AttributeName: design.partitionKey, KeyType: 'HASH' },
        { AttributeName: design.sortKey, KeyType: 'RANGE' },
      ],
      GlobalSecondaryIndexes: indexes.map(indexOf),
    }),
  );
  // DynamoDB Local accepts TTL but deletes expired items lazily; readers check expiry themselves.
  await client.send(
    new UpdateTimeToLiveCommand({
      TableName: tableName,
      TimeToLiveSpecification: { AttributeName: design.ttlAttribute, Enabled: true },
    }),
  );
  return { created: true, indexesAdded: [] };
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
 * 8-character passwords, admins with 12 and an authenticator's code on every
 * sign-in (decision 036); in both every identity is made with admin calls
 * (Cognito's SignUp is refused). Password recovery is the app's own;
 * cognito-local sends no mail. cognito-local stores these settings and the
 * Cognito proxy enforces the ones it does not (cognito-proxy.ts).
 */
const poolSettings = {
  users: {
    Policies: passwordPolicy(8),
    AdminCreateUserConfig: { AllowAdminCreateUserOnly: true },
    AccountRecoverySetting: { RecoveryMechanisms: [{ Name: 'admin_only', Priority: 1 }] },
    MfaConfiguration: 'OFF',
  },
  admins: {
    Policies: passwordPolicy(12),
    AdminCreateUserConfig: { AllowAdminCreateUserOnly: true },
    AccountRecoverySetting: { RecoveryMechanisms: [{ Name: 'admin_only', Priority: 1 }] },
    MfaConfiguration: 'ON',
  },
} as const satisfies Record<'users' | 'admins', Omit<UpdateUserPoolCommandInput, 'UserPoolId'>>;

/** Which second factors each pool offers, as CDK's `mfaSecondFactor`: authenticators for admins, none for users. */
const softwareTokenMfa = { users: false, admins: true } as const;

/**
 * The app clients' settings, as in CDK: short-lived access tokens, revocable
 * refresh tokens, and a user's own token may read and write only `locale`;
 * the admin client gives a sign-in time to set an authenticator up.
 */
const baseClientSettings = {
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
const clientSettings = {
  users: baseClientSettings,
  admins: { ...baseClientSettings, AuthSessionValidity: SECOND_FACTOR_MINUTES },
} as const satisfies Record<
  'users' | 'admins',
  Omit<UpdateUserPoolClientCommandInput, 'UserPoolId' | 'ClientId'>
>;

/** The pool's second factors (SetUserPoolMfaConfig: CreateUserPool and UpdateUserPool do not set them). */
const setSecondFactors = (cognito: CognitoIdentityProviderClient, kind: 'users' | 'admins', poolId: string) =>
  cognito.send(
    new SetUserPoolMfaConfigCommand({
      UserPoolId: poolId,
      MfaConfiguration: poolSettings[kind].MfaConfiguration,
      SoftwareTokenMfaConfiguration: { Enabled: softwareTokenMfa[kind] },
    }),
  );

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
  await setSecondFactors(cognito, kind, poolId);
  const client = await cognito.send(
    new CreateUserPoolClientCommand({
      UserPoolId: poolId,
      ClientName: `tunesmith-${kind}-web`,
      GenerateSecret: false,
      ...clientSettings[kind],
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
  await setSecondFactors(cognito, kind, ids.poolId);
  await cognito.send(
    new UpdateUserPoolClientCommand({
      UserPoolId: ids.poolId,
      ClientId: ids.clientId,
      ...clientSettings[kind],
    }),
  );
  return ids;
}

/** The hash of the pools' and clients' settings (see `ProvisionMarker` in local-state.ts). */
export const poolSettingsHash = definitionHash({ poolSettings, softwareTokenMfa, clientSettings });

/**
 * The two pools and their app clients: the saved ones when cognito-local
 * still knows them (with their settings brought up to date), else new ones.
 * When `appliedHash` (from the marker) says the saved pools already have
 * today's settings, one list call that finds both is all it takes.
 */
export async function ensurePools(
  cognito: CognitoIdentityProviderClient,
  saved: Partial<LocalState> | undefined,
  appliedHash?: string,
): Promise<Omit<LocalState, 'admin' | 'running'>> {
  if (
    appliedHash === poolSettingsHash &&
    saved?.userPoolId &&
    saved.userPoolClientId &&
    saved.adminPoolId &&
    saved.adminPoolClientId
  ) {
    const listed = await cognito.send(new ListUserPoolsCommand({ MaxResults: 60 }));
    const ids = new Set((listed.UserPools ?? []).map((pool) => pool.Id));
    // More pools than one page holds is not a local cloud's: check each the long way.
    if (ids.has(saved.userPoolId) && ids.has(saved.adminPoolId)) {
      return {
        userPoolId: saved.userPoolId,
        userPoolClientId: saved.userPoolClientId,
        adminPoolId: saved.adminPoolId,
        adminPoolClientId: saved.adminPoolClientId,
      };
    }
  }
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

/** Whether the admin `username` has its profile in the table (its identity is Cognito's). */
export async function adminProfileExists(
  documents: DynamoDBDocumentClient,
  tableName: string,
  username: string,
): Promise<boolean> {
  return Boolean(await dynamoAdminRepository(documents, tableName).getByUsername(username));
}

/** The hash of the starting data (see `ProvisionMarker` in local-state.ts); the stamp does not count. */
export const seedHash = definitionHash({ plans: seedPlans(''), settings: seedSettings('') });

/**
 * The starting data ({@link seedDefaults}): put in place on a new table, and
 * on kept data when `appliedHash` (from the marker) is not today's
 * {@link seedHash} (a new default setting in the code). Returns the hash applied.
 */
export async function ensureSeed(
  deps: { plans: PlanRepository; settings: SettingsRepository },
  options: { tableCreated: boolean; appliedHash?: string },
): Promise<{ seeded: boolean; hash: string }> {
  if (!options.tableCreated && options.appliedHash === seedHash) return { seeded: false, hash: seedHash };
  await seedDefaults(deps);
  return { seeded: true, hash: seedHash };
}

/** What of the plans decides their prices: their ids, amounts, cycles, price ids and state, not when they changed. */
export function planPricesHash(plans: readonly Plan[]): string {
  return definitionHash(plans.map(({ updatedAt: _updated, createdAt: _created, ...plan }) => plan));
}

/**
 * Every paid plan's prices in the embedded Stripe: `sync` (syncPlanPrices)
 * runs unless the plans are those last synced (`appliedHash`, from the
 * marker), each active paid plan has a price id for every cycle it offers,
 * and Stripe still has each of those prices, active. Returns the hash of the
 * plans as they stand afterwards.
 */
export async function ensurePlanPrices(
  deps: {
    plans: PlanRepository;
    stripe: { hasActivePrices(priceIds: readonly string[]): boolean };
    sync: () => Promise<unknown>;
  },
  appliedHash?: string,
): Promise<{ synced: boolean; hash: string }> {
  const plans = await deps.plans.listBySortOrder();
  const sold = plans.filter((plan) => plan.isActive && isPaidPlan(plan));
  const priceIds = sold.flatMap((plan) =>
    offeredCycles(plan).flatMap((cycle) => planPriceId(plan, cycle) ?? []),
  );
  if (
    appliedHash === planPricesHash(plans) &&
    sold.every(hasEveryPrice) &&
    deps.stripe.hasActivePrices(priceIds)
  ) {
    return { synced: false, hash: appliedHash };
  }
  await deps.sync();
  return { synced: true, hash: planPricesHash(await deps.plans.listBySortOrder()) };
}

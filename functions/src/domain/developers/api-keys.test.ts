import { createHash, randomInt } from 'node:crypto';
import { API_KEYS_MAX, developerMessages } from '@tunesmith/shared/developer-api';
import { describe, expect, it } from 'vitest';
import { aBasicPlan, aPlan, aUser } from '../../testing/fixtures';
import { inMemoryPlans } from '../../testing/in-memory';
import { fakeClock, inMemoryLimiter, inMemoryUsers } from '../../testing/in-memory-accounts';
import { inMemoryApiKeys } from '../../testing/in-memory-developers';
import { ACCOUNT_CLOSED } from '../accounts/user';
import { DomainError } from '../errors';
import {
  API_KEY_RATE_LIMITS,
  authenticateApiKey,
  authorizeApiCall,
  createApiKey,
  listApiKeys,
  revokeApiKey,
} from './api-keys';
import type { ApiKeyMode } from './ports';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

function setup(mode: ApiKeyMode = 'live') {
  const apiKeys = inMemoryApiKeys();
  const clock = fakeClock('2026-06-01T10:00:00.000Z');
  const users = inMemoryUsers();
  const plans = inMemoryPlans([aPlan({ id: 'free' }), aBasicPlan({ id: 'basic', apiAccess: false })]);
  const limiter = inMemoryLimiter();
  let ids = 0;
  const deps = {
    apiKeys,
    clock,
    mode,
    hash: sha256,
    randomBase62: (length: number) => Array.from({ length }, () => BASE62[randomInt(62)]).join(''),
    newId: () => `key-${String(++ids).padStart(3, '0')}`,
    users,
    plans,
    limiter,
  };
  return { deps, apiKeys, clock, users, plans };
}

const ada = aUser({ id: 'ada', subscriptionPlanId: 'free' });

async function refusal(promise: Promise<unknown>): Promise<DomainError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DomainError);
  return error as DomainError;
}

describe('API keys', () => {
  it('makes a live key of 32 base62 characters, keeps only its hash and its first 12 characters', async () => {
    const { deps, apiKeys } = setup('live');
    const created = await createApiKey(deps, 'ada', { name: 'CI', scopes: ['read'] });
    expect(created.key).toMatch(/^ts_live_[0-9A-Za-z]{32}$/);
    expect(created.prefix).toBe(created.key.slice(0, 12));
    expect(created).toMatchObject({ name: 'CI', scopes: ['read'], createdAt: '2026-06-01T10:00:00.000Z' });
    const stored = apiKeys.all.get(created.id);
    expect(stored?.hash).toBe(sha256(created.key));
    expect(JSON.stringify(stored)).not.toContain(created.key);
  });

  it('marks keys of the local cloud as test keys', async () => {
    const { deps } = setup('test');
    const created = await createApiKey(deps, 'ada', { name: 'Local', scopes: ['generate'] });
    expect(created.key).toMatch(/^ts_test_[0-9A-Za-z]{32}$/);
  });

  it('lists the live keys newest first, without the key or its hash', async () => {
    const { deps, clock } = setup();
    const first = await createApiKey(deps, 'ada', { name: 'first', scopes: ['read'] });
    clock.advance(1000);
    const second = await createApiKey(deps, 'ada', { name: 'second', scopes: ['read', 'generate'] });
    await createApiKey(deps, 'bob', { name: 'not ada', scopes: ['read'] });
    const listed = await listApiKeys(deps, 'ada');
    expect(listed.map((k) => k.name)).toEqual(['second', 'first']);
    expect(listed[0]).toEqual({
      id: second.id,
      name: 'second',
      prefix: second.prefix,
      scopes: ['read', 'generate'],
      createdAt: second.createdAt,
      lastUsedAt: null,
    });
    expect(JSON.stringify(listed)).not.toContain(first.key.slice(12));
  });

  it(`refuses a key beyond ${API_KEYS_MAX} live ones, and counts a revoked one out`, async () => {
    const { deps } = setup();
    const made = [];
    for (let i = 0; i < API_KEYS_MAX; i++)
      made.push(await createApiKey(deps, 'ada', { name: `k${i}`, scopes: ['read'] }));
    const error = await refusal(createApiKey(deps, 'ada', { name: 'one more', scopes: ['read'] }));
    expect(error).toMatchObject({ kind: 'conflict', message: developerMessages.tooManyKeys });
    await revokeApiKey(deps, 'ada', made[0]?.id ?? '');
    await expect(createApiKey(deps, 'ada', { name: 'one more', scopes: ['read'] })).resolves.toMatchObject({
      name: 'one more',
    });
  });

  it('revokes at once: the key no longer authenticates and leaves the list', async () => {
    const { deps } = setup();
    const created = await createApiKey(deps, 'ada', { name: 'CI', scopes: ['read'] });
    expect(await authenticateApiKey(deps, created.key)).toEqual({
      keyId: created.id,
      userId: 'ada',
      scopes: ['read'],
    });
    await revokeApiKey(deps, 'ada', created.id);
    expect(await authenticateApiKey(deps, created.key)).toBeUndefined();
    expect(await listApiKeys(deps, 'ada')).toEqual([]);
  });

  it("answers 404 for another user's key, an unknown one or one revoked already", async () => {
    const { deps } = setup();
    const created = await createApiKey(deps, 'ada', { name: 'CI', scopes: ['read'] });
    expect(await refusal(revokeApiKey(deps, 'bob', created.id))).toMatchObject({ kind: 'not-found' });
    expect(await authenticateApiKey(deps, created.key)).toBeDefined();
    expect(await refusal(revokeApiKey(deps, 'ada', 'nope'))).toMatchObject({ kind: 'not-found' });
    await revokeApiKey(deps, 'ada', created.id);
    expect(await refusal(revokeApiKey(deps, 'ada', created.id))).toMatchObject({ kind: 'not-found' });
  });

  it('refuses malformed and unknown keys', async () => {
    const { deps } = setup();
    const created = await createApiKey(deps, 'ada', { name: 'CI', scopes: ['read'] });
    expect(await authenticateApiKey(deps, `${created.key}x`)).toBeUndefined();
    expect(await authenticateApiKey(deps, created.key.replace('ts_live_', 'ts_prod_'))).toBeUndefined();
    expect(await authenticateApiKey(deps, `ts_live_${'a'.repeat(32)}`)).toBeUndefined();
  });

  it('records the last use at most once a minute', async () => {
    const { deps, clock } = setup();
    const created = await createApiKey(deps, 'ada', { name: 'CI', scopes: ['read'] });
    const lastUsed = async () => (await listApiKeys(deps, 'ada'))[0]?.lastUsedAt;
    await authenticateApiKey(deps, created.key);
    expect(await lastUsed()).toBe('2026-06-01T10:00:00.000Z');
    clock.advance(59_000);
    await authenticateApiKey(deps, created.key);
    expect(await lastUsed()).toBe('2026-06-01T10:00:00.000Z');
    clock.advance(1_000);
    await authenticateApiKey(deps, created.key);
    expect(await lastUsed()).toBe('2026-06-01T10:01:00.000Z');
  });
});

describe('a call of /api/v1 with a key', () => {
  async function withKey(scopes: ('read' | 'generate')[] = ['read', 'generate']) {
    const env = setup();
    await env.users.create(ada);
    const created = await createApiKey(env.deps, 'ada', { name: 'CI', scopes });
    const call = (overrides: Partial<Parameters<typeof authorizeApiCall>[1]> = {}) =>
      authorizeApiCall(env.deps, {
        authorization: `Bearer ${created.key}`,
        scope: 'read',
        startsWork: false,
        ...overrides,
      });
    return { ...env, created, call };
  }

  it('lets a live key with the scope through, as its user', async () => {
    const { call, created } = await withKey();
    const { key, user } = await call();
    expect(key).toEqual({ keyId: created.id, userId: 'ada', scopes: ['read', 'generate'] });
    expect(user.id).toBe('ada');
  });

  it('answers 401 without a bearer key, and for a revoked key', async () => {
    const { call, deps, created } = await withKey();
    expect(await refusal(call({ authorization: undefined }))).toMatchObject({
      kind: 'unauthorized',
      message: developerMessages.keyMissing,
    });
    expect(await refusal(call({ authorization: `Basic ${created.key}` }))).toMatchObject({
      kind: 'unauthorized',
    });
    await revokeApiKey(deps, 'ada', created.id);
    expect(await refusal(call())).toMatchObject({
      kind: 'unauthorized',
      message: developerMessages.keyInvalid,
    });
  });

  it('answers 403 for a key without the route scope', async () => {
    const { call } = await withKey(['read']);
    expect(await refusal(call({ scope: 'generate' }))).toMatchObject({
      kind: 'forbidden',
      message: developerMessages.scopeMissing('generate'),
    });
  });

  it('answers 401 once the user is gone or being deleted', async () => {
    const { call, users } = await withKey();
    await users.update('ada', { sessionsValidAfter: ACCOUNT_CLOSED });
    expect(await refusal(call())).toMatchObject({ kind: 'unauthorized' });
    users.all.delete('ada');
    expect(await refusal(call())).toMatchObject({ kind: 'unauthorized' });
  });

  it("answers 403 with the reason while the key's user is suspended, and lets it through once lifted", async () => {
    const { call, users } = await withKey();
    await users.update('ada', { suspended: true });
    expect(await refusal(call())).toMatchObject({ kind: 'forbidden', message: 'This account is suspended.' });
    await users.update('ada', { suspended: false });
    expect((await call()).user.id).toBe('ada');
  });

  it('answers 403 when the plan in force has no API access, and reads a plan stored before the setting as on', async () => {
    const { call, users, plans } = await withKey();
    users.all.set('ada', { ...ada, subscriptionPlanId: 'basic', planStatus: 'active' });
    expect(await refusal(call())).toMatchObject({
      kind: 'forbidden',
      message: developerMessages.noApiAccess,
    });
    // Basic's paid period is over: the Free plan is in force, and it has API access.
    users.all.set('ada', { ...ada, subscriptionPlanId: 'basic', planStatus: 'expired' });
    await expect(call()).resolves.toBeDefined();
    plans.all.set('free', { ...aPlan({ id: 'free' }), apiAccess: false });
    expect(await refusal(call())).toMatchObject({ kind: 'forbidden' });
  });

  it(`allows ${API_KEY_RATE_LIMITS.requests} calls a minute per key and ${API_KEY_RATE_LIMITS.starts} starts, then 429 with the seconds left`, async () => {
    const { call, clock } = await withKey();
    clock.advance(15_000);
    for (let i = 0; i < API_KEY_RATE_LIMITS.starts; i++) await call({ startsWork: true, scope: 'generate' });
    const start = await refusal(call({ startsWork: true, scope: 'generate' }));
    expect(start).toMatchObject({ kind: 'rate-limited', message: developerMessages.rateLimited });
    expect(start.details).toEqual({ retryAfter: 45 });
    for (let i = API_KEY_RATE_LIMITS.starts + 1; i < API_KEY_RATE_LIMITS.requests; i++) await call();
    expect(await refusal(call())).toMatchObject({ kind: 'rate-limited' });
  });
});

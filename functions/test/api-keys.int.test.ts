import { randomUUID } from 'node:crypto';
import { QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { API_KEYS_MAX, developerMessages } from '@tunesmith/shared/developer-api';
import { afterAll, describe, expect, it } from 'vitest';
import { dynamoApiKeyStore } from '../src/adapters/dynamo/api-key-store';
import { dynamoPlanRepository } from '../src/adapters/dynamo/plan-repository';
import { keys } from '../src/data/keys';
import { ACCOUNT_CLOSED } from '../src/domain/accounts/user';
import { API_KEY_RATE_LIMITS } from '../src/domain/developers/api-keys';
import { signedInUser } from './support/accounts';
import { direct } from './support/direct';
import { type ApiResponse, Browser, cookieName } from './support/http';
import { target } from './support/run';

// API keys through the HTTP API: made, listed and revoked from a session; and
// the check every /api/v1 call passes (401, 403, 429) before its handler runs.
// GET /api/v1/tracks needs `read`, POST /api/v1/tracks `generate` and starts work.

const store = direct();
const plans = dynamoPlanRepository(store.documents, store.tableName);
const madePlans: string[] = [];
afterAll(async () => {
  for (const id of madePlans) await plans.delete(id);
  store.close();
});

const marker = target.kind === 'stage' ? 'ts_live_' : 'ts_test_';

async function newKey(
  browser: Browser,
  scopes: string[] = ['read', 'generate'],
  name = 'CI',
): Promise<string> {
  const res = await browser.post('/api/user/api-keys', { name, scopes });
  expect(res.status).toBe(201);
  return String(res.body.key);
}

/** A client that holds no cookie and sends the key as a bearer token, as a server would. */
const withKey = (key: string) => {
  const client = new Browser();
  return {
    get: (path: string) => client.get(path, { authorization: `Bearer ${key}` }),
    post: (path: string, body: unknown = {}) => client.post(path, body, { authorization: `Bearer ${key}` }),
  };
};

const v1Error = (res: ApiResponse) => res.body.error as { code: string; message: string } | undefined;

/** Waits for the next minute when this one has under 15 s left, so a burst of calls stays in one rate window. */
async function earlyInAMinute(): Promise<void> {
  const second = new Date().getUTCSeconds();
  if (second > 45) await new Promise((resolve) => setTimeout(resolve, (60 - second) * 1000 + 200));
}

describe('API keys from Profile → Developers', () => {
  it('makes a key shown once, lists it without the key, and revokes it at once', async () => {
    const { browser } = await signedInUser();
    const created = await browser.post('/api/user/api-keys', { name: '  Build server ', scopes: ['read'] });
    expect(created.status).toBe(201);
    const key = String(created.body.key);
    expect(key).toMatch(new RegExp(`^${marker}[0-9A-Za-z]{32}$`));
    expect(created.body).toMatchObject({ name: 'Build server', scopes: ['read'], prefix: key.slice(0, 12) });

    const listed = await browser.get('/api/user/api-keys');
    expect(listed.status).toBe(200);
    expect(listed.body.keys).toEqual([
      {
        id: created.body.id,
        name: 'Build server',
        prefix: key.slice(0, 12),
        scopes: ['read'],
        createdAt: created.body.createdAt,
        lastUsedAt: null,
      },
    ]);
    expect(JSON.stringify(listed.body)).not.toContain(key.slice(12));

    // A call records the key's last use.
    expect((await withKey(key).get('/api/v1/tracks')).status).not.toBe(401);
    const used = await browser.get('/api/user/api-keys');
    expect((used.body.keys as { lastUsedAt: string | null }[])[0]?.lastUsedAt).toEqual(expect.any(String));

    const revoked = await browser.call('DELETE', `/api/user/api-keys/${created.body.id}`);
    expect(revoked.status).toBe(204);
    expect((await browser.get('/api/user/api-keys')).body.keys).toEqual([]);
    const after = await withKey(key).get('/api/v1/tracks');
    expect([after.status, v1Error(after)]).toEqual([
      401,
      { code: 'unauthorized', message: developerMessages.keyInvalid },
    ]);
  });

  it("answers 404 for another user's key, and leaves it working", async () => {
    const ada = await signedInUser();
    const bob = await signedInUser();
    const created = await ada.browser.post('/api/user/api-keys', { name: 'Ada', scopes: ['read'] });
    const res = await bob.browser.call('DELETE', `/api/user/api-keys/${created.body.id}`);
    expect(res.status).toBe(404);
    expect((await bob.browser.get('/api/user/api-keys')).body.keys).toEqual([]);
    expect((await withKey(String(created.body.key)).get('/api/v1/tracks')).status).not.toBe(401);
  });

  it('removes every key of a user, revoked ones too, as deleting the account does', async () => {
    const { browser, id } = await signedInUser();
    const live = await newKey(browser, ['read'], 'live');
    const revoked = await browser.post('/api/user/api-keys', { name: 'revoked', scopes: ['read'] });
    expect((await browser.call('DELETE', `/api/user/api-keys/${revoked.body.id}`)).status).toBe(204);
    await dynamoApiKeyStore(store.documents, store.tableName).removeAll(id);
    const left = await store.documents.send(
      new QueryCommand({
        TableName: store.tableName,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
        ExpressionAttributeValues: { ':pk': keys.user(id).pk, ':prefix': 'APIKEY' },
      }),
    );
    expect(left.Items).toEqual([]);
    expect((await withKey(live).get('/api/v1/tracks')).status).toBe(401);
  });

  it('refuses a bad name or scope with the rule message', async () => {
    const { browser } = await signedInUser();
    const noName = await browser.post('/api/user/api-keys', { name: ' ', scopes: ['read'] });
    expect([noName.status, noName.body.message]).toEqual([400, developerMessages.keyNameRequired]);
    const noScope = await browser.post('/api/user/api-keys', { name: 'x', scopes: [] });
    expect([noScope.status, noScope.body.message]).toEqual([400, developerMessages.scopesRequired]);
    const badScope = await browser.post('/api/user/api-keys', { name: 'x', scopes: ['admin'] });
    expect([badScope.status, badScope.body.message]).toEqual([400, developerMessages.scopeInvalid]);
    expect((await browser.get('/api/user/api-keys')).body.keys).toEqual([]);
  });

  it(`refuses an ${API_KEYS_MAX + 1}th key, also when creates race`, async () => {
    const { browser } = await signedInUser();
    for (let i = 0; i < API_KEYS_MAX - 3; i++) await newKey(browser, ['read'], `k${i}`);
    const raced = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        browser.post('/api/user/api-keys', { name: `race${i}`, scopes: ['read'] }),
      ),
    );
    expect(raced.filter((r) => r.status === 201)).toHaveLength(3);
    for (const refused of raced.filter((r) => r.status !== 201)) {
      expect([refused.status, refused.body.message]).toEqual([409, developerMessages.tooManyKeys]);
    }
    expect((await browser.get('/api/user/api-keys')).body.keys).toHaveLength(API_KEYS_MAX);
    const more = await browser.post('/api/user/api-keys', { name: 'one more', scopes: ['read'] });
    expect([more.status, more.body.message]).toEqual([409, developerMessages.tooManyKeys]);
  });
});

describe('/api/v1 with a key', () => {
  it('refuses a call without a key, a session cookie included, and a key sent as a cookie', async () => {
    const { browser } = await signedInUser();
    const key = await newKey(browser);
    const session = await browser.get('/api/v1/tracks');
    expect([session.status, v1Error(session)]).toEqual([
      401,
      { code: 'unauthorized', message: developerMessages.keyMissing },
    ]);
    expect(session.setCookies).toEqual([]);
    const asCookie = new Browser();
    asCookie.cookies.set(cookieName('ts_session'), key);
    asCookie.cookies.set('api_key', key);
    expect((await asCookie.get('/api/v1/tracks')).status).toBe(401);
    // Nor does a key work as a session.
    const keyOnSession = await new Browser().get('/api/user/api-keys', { authorization: `Bearer ${key}` });
    expect(keyOnSession.status).toBe(401);
  });

  it('answers 403 for a key without the route scope', async () => {
    const { browser } = await signedInUser();
    const reader = withKey(await newKey(browser, ['read']));
    const res = await reader.post('/api/v1/tracks', { tags: 'pop' });
    expect([res.status, v1Error(res)]).toEqual([
      403,
      { code: 'forbidden', message: developerMessages.scopeMissing('generate') },
    ]);
  });

  it('answers 403 when the plan in force has no API access', async () => {
    const { browser, id } = await signedInUser();
    const key = await newKey(browser);
    const now = new Date().toISOString();
    const planId = `no-api-${randomUUID()}`;
    madePlans.push(planId);
    // A free plan given to the user, hidden from the pricing page, without API access.
    await plans.put({
      id: planId,
      name: `No API ${planId.slice(-6)}`,
      description: null,
      weeklyPrice: 0,
      monthlyPrice: 0,
      yearlyPrice: 0,
      weeklyPriceId: null,
      monthlyPriceId: null,
      yearlyPriceId: null,
      maxGenerations: 5,
      generationsNumber: 5,
      features: [],
      isActive: false,
      commercialUse: false,
      stemsFour: true,
      stemsSix: false,
      apiAccess: false,
      sortOrder: 999,
      createdAt: now,
      updatedAt: now,
    });
    await store.documents.send(
      new UpdateCommand({
        TableName: store.tableName,
        Key: keys.user(id),
        UpdateExpression: 'SET subscriptionPlanId = :plan',
        ExpressionAttributeValues: { ':plan': planId },
      }),
    );
    const res = await withKey(key).get('/api/v1/tracks');
    expect([res.status, v1Error(res)]).toEqual([
      403,
      { code: 'forbidden', message: developerMessages.noApiAccess },
    ]);
  });

  it('answers 401 once the account is being deleted', async () => {
    const { browser, id } = await signedInUser();
    const key = await newKey(browser);
    await store.documents.send(
      new UpdateCommand({
        TableName: store.tableName,
        Key: keys.user(id),
        UpdateExpression: 'SET sessionsValidAfter = :closed',
        ExpressionAttributeValues: { ':closed': ACCOUNT_CLOSED },
      }),
    );
    const res = await withKey(key).get('/api/v1/tracks');
    expect([res.status, v1Error(res)?.code]).toEqual([401, 'unauthorized']);
  });

  it(`limits a key to ${API_KEY_RATE_LIMITS.starts} starts and ${API_KEY_RATE_LIMITS.requests} calls a minute: 429 with Retry-After`, async () => {
    const { browser } = await signedInUser();
    const starter = withKey(await newKey(browser, ['generate'], 'starter'));
    const reader = withKey(await newKey(browser, ['read'], 'reader'));
    await earlyInAMinute();

    // Refused bodies count too (the limit is checked before the body is read), and spend no quota.
    for (let i = 0; i < API_KEY_RATE_LIMITS.starts; i++) {
      expect((await starter.post('/api/v1/tracks', {})).status).toBe(400);
    }
    const start = await starter.post('/api/v1/tracks', {});
    expect([start.status, v1Error(start)]).toEqual([
      429,
      { code: 'rate_limited', message: developerMessages.rateLimited },
    ]);
    const wait = Number(start.headers.get('retry-after'));
    expect(wait).toBeGreaterThanOrEqual(1);
    expect(wait).toBeLessThanOrEqual(60);

    // The other key's minute is its own.
    for (let i = 0; i < API_KEY_RATE_LIMITS.requests; i++) {
      expect((await reader.get('/api/v1/tracks')).status).not.toBe(429);
    }
    const over = await reader.get('/api/v1/tracks');
    expect([over.status, v1Error(over)?.code]).toEqual([429, 'rate_limited']);
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  });

  it('answers with no CORS headers, and a 404 in the v1 error shape', async () => {
    const { browser } = await signedInUser();
    const client = withKey(await newKey(browser));
    const answers = [
      await client.get('/api/v1/tracks'),
      await client.post('/api/v1/tracks', { tags: 'pop' }),
      await client.get(`/api/v1/tracks/${'a'.repeat(200)}`),
      await new Browser('https://elsewhere.example').get('/api/v1/tracks'),
    ];
    for (const res of answers) {
      expect([...res.headers.keys()].filter((name) => name.startsWith('access-control-'))).toEqual([]);
    }
    expect([answers[2]?.status, v1Error(answers[2] as ApiResponse)?.code]).toEqual([404, 'not_found']);
  });
});

import { createHash, randomInt } from 'node:crypto';
import { developerMessages } from '@tunesmith/shared/developer-api';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { describe, expect, it, vi } from 'vitest';
import { API_KEY_RATE_LIMITS, authorizeApiCall, createApiKey } from '../domain/developers/api-keys';
import { validationError } from '../domain/errors';
import { aPlan, aUser } from '../testing/fixtures';
import { inMemoryPlans } from '../testing/in-memory';
import { fakeClock, inMemoryLimiter, inMemoryUsers } from '../testing/in-memory-accounts';
import { inMemoryApiKeys } from '../testing/in-memory-developers';
import { createGroupHandler, type RouteContext } from './group-handler';
import { json } from './responses';
import { v1ErrorShape } from './v1-errors';

process.env.LOG_LEVEL = 'silent';
const context = { awsRequestId: 'r1', getRemainingTimeInMillis: () => 1000 } as unknown as Context;

function event(method: string, path: string, headers: Record<string, string> = {}): APIGatewayProxyEventV2 {
  return {
    version: '2.0',
    routeKey: '$default',
    rawPath: path,
    rawQueryString: '',
    headers,
    isBase64Encoded: false,
    requestContext: {
      accountId: 'local',
      apiId: 'local',
      domainName: 'localhost',
      domainPrefix: 'localhost',
      http: { method, path, protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent: 'test' },
      requestId: 'r1',
      routeKey: '$default',
      stage: '$default',
      time: '',
      timeEpoch: 0,
    },
  };
}

async function setup(scopes: ('read' | 'generate')[] = ['read', 'generate']) {
  const users = inMemoryUsers();
  await users.create(aUser({ id: 'ada' }));
  const deps = {
    apiKeys: inMemoryApiKeys(),
    clock: fakeClock('2026-06-01T10:00:00.000Z'),
    mode: 'test' as const,
    hash: (text: string) => createHash('sha256').update(text).digest('hex'),
    randomBase62: (length: number) =>
      Array.from(
        { length },
        () => '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ'[randomInt(62)],
      ).join(''),
    newId: () => 'key-1',
    users,
    plans: inMemoryPlans([aPlan({ id: 'free' })]),
    limiter: inMemoryLimiter(),
  };
  const { key } = await createApiKey(deps, 'ada', { name: 'CI', scopes });
  const seen: RouteContext[] = [];
  const handlers = {
    v1ListTracks: vi.fn(async (_e: APIGatewayProxyEventV2, ctx: RouteContext) => {
      seen.push(ctx);
      return json(200, { tracks: [], next: null });
    }),
    v1CreateTrack: vi.fn(async () => {
      throw validationError('Tags are required.', { field: 'tags' });
    }),
  };
  const handler = createGroupHandler('api-v1', handlers, {
    authorizeKey: (call) => authorizeApiCall(deps, call),
    answerShape: v1ErrorShape,
    publicOrigin: () => 'https://tunesmith.test',
  });
  const bearer = { authorization: `Bearer ${key}` };
  return { handler, handlers, seen, bearer, key };
}

const bodyOf = (res: { body?: string }) => JSON.parse(res.body ?? '');

describe('routes called with an API key', () => {
  it('hand the key and its owner to the handler, and need no Origin or JSON type on a POST (no CSRF check)', async () => {
    const { handler, handlers, seen, bearer } = await setup();
    const res = await handler(event('GET', '/api/v1/tracks', bearer), context);
    expect(res.statusCode).toBe(200);
    expect(seen[0]?.apiKey).toEqual({ id: 'key-1', userId: 'ada', scopes: ['read', 'generate'] });
    expect(seen[0]?.user?.id).toBe('ada');
    const post = await handler({ ...event('POST', '/api/v1/tracks', bearer), body: 'tags=x' }, context);
    expect(handlers.v1CreateTrack).toHaveBeenCalledOnce();
    expect(post.statusCode).toBe(400);
  });

  it('answer every error as { error: { code, message } }, with the app message', async () => {
    const { handler, bearer } = await setup(['read']);
    const cases: [APIGatewayProxyEventV2, number, string, string][] = [
      [event('GET', '/api/v1/tracks'), 401, 'unauthorized', developerMessages.keyMissing],
      [
        event('GET', '/api/v1/tracks', { authorization: `Bearer ts_test_${'x'.repeat(32)}` }),
        401,
        'unauthorized',
        developerMessages.keyInvalid,
      ],
      [event('POST', '/api/v1/tracks', bearer), 403, 'forbidden', developerMessages.scopeMissing('generate')],
      [event('GET', '/api/v1/nothing-here', bearer), 404, 'not_found', 'Not found'],
      [event('GET', '/api/v1/tracks/t1', bearer), 501, 'internal_error', 'Not implemented yet'],
    ];
    for (const [request, status, code, message] of cases) {
      const res = await handler(request, context);
      expect([res.statusCode, bodyOf(res)], request.rawPath).toEqual([status, { error: { code, message } }]);
      expect(res.headers?.['content-type']).toMatch(/application\/json/);
    }
  });

  it('answer a validation error as invalid_request', async () => {
    const { handler, bearer } = await setup();
    const res = await handler(event('POST', '/api/v1/tracks', bearer), context);
    expect(bodyOf(res)).toEqual({ error: { code: 'invalid_request', message: 'Tags are required.' } });
  });

  it('ignore a session cookie: without a key it is a 401, and no cookie is ever set', async () => {
    const { handler, key } = await setup();
    const res = await handler(
      { ...event('GET', '/api/v1/tracks'), cookies: ['ts_session=good', `key=${key}`] },
      context,
    );
    expect(res.statusCode).toBe(401);
    expect(res.cookies).toBeUndefined();
  });

  it('answer 429 rate_limited with Retry-After once the key has used its minute', async () => {
    const { handler, bearer } = await setup();
    for (let i = 0; i < API_KEY_RATE_LIMITS.requests; i++) {
      expect((await handler(event('GET', '/api/v1/tracks', bearer), context)).statusCode).toBe(200);
    }
    const res = await handler(event('GET', '/api/v1/tracks', bearer), context);
    expect(res.statusCode).toBe(429);
    expect(bodyOf(res)).toEqual({ error: { code: 'rate_limited', message: developerMessages.rateLimited } });
    expect(res.headers?.['retry-after']).toBe('60');
  });

  it('cannot be built without the key check and the v1 answer shape', () => {
    expect(() => createGroupHandler('api-v1', {}, { answerShape: v1ErrorShape })).toThrow(/authorizeKey/);
    expect(() => createGroupHandler('api-v1', {}, { authorizeKey: async () => Promise.reject() })).toThrow(
      /answerShape/,
    );
  });

  it('still take calls only through CloudFront when an origin secret is set', async () => {
    const { handlers, bearer } = await setup();
    const locked = createGroupHandler('api-v1', handlers, {
      authorizeKey: async () => {
        throw new Error('not reached');
      },
      answerShape: v1ErrorShape,
      originSecret: async () => ['edge-secret'],
    });
    const res = await locked(event('GET', '/api/v1/tracks', bearer), context);
    expect([res.statusCode, bodyOf(res)]).toEqual([
      403,
      { error: { code: 'forbidden', message: 'Forbidden' } },
    ]);
  });
});

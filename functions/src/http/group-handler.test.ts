import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { describe, expect, it, vi } from 'vitest';
import type { User } from '../domain/accounts/user';
import { conflict, notFound, validationError } from '../domain/errors';
import { createGroupHandler } from './group-handler';
import { logger } from './logger';
import { json } from './responses';
import type { Sessions } from './session';

const alice = { id: 'u1', email: 'alice@example.com' } as User;

/** Sessions that accept the cookie `ts_session=good` and refresh `ts_session=stale`. */
const fakeUserSessions: Sessions<User> = {
  async authenticate(e) {
    const cookie = e.cookies?.[0];
    if (cookie === 'ts_session=good') return { principal: alice, cookies: [] };
    if (cookie === 'ts_session=stale') return { principal: alice, cookies: ['ts_session=fresh'] };
    return undefined;
  },
  issue: () => [],
  clear: () => ['ts_session=; Max-Age=0'],
  tokens: () => ({}),
  present: (e) => Boolean(e.cookies?.length),
};
const sessions = { user: fakeUserSessions };
const sameOrigin = { origin: 'https://tunesmith.test', 'content-type': 'application/json' };
const options = { sessions, publicOrigin: () => 'https://tunesmith.test' };

function event(method: string, path: string): APIGatewayProxyEventV2 {
  return {
    version: '2.0',
    routeKey: '$default',
    rawPath: path,
    rawQueryString: '',
    headers: {},
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

const context = { awsRequestId: 'r1', getRemainingTimeInMillis: () => 1000 } as unknown as Context;
process.env.LOG_LEVEL = 'silent';

describe('createGroupHandler', () => {
  it('answers 501 JSON for a manifest route whose feature is not built', async () => {
    const handler = createGroupHandler('generation', {}, options);
    const res = await handler(
      { ...event('POST', '/api/generate-lyrics'), headers: sameOrigin, cookies: ['ts_session=good'] },
      context,
    );
    expect(res.statusCode).toBe(501);
    expect(JSON.parse(res.body as string)).toEqual({ message: 'Not implemented yet' });
    expect(res.headers?.['content-type']).toMatch(/application\/json/);
    expect(res.headers?.['cache-control']).toBe('no-store');
  });

  it('dispatches to the bound handler with decoded path params', async () => {
    const getTrack = vi.fn(async (_e: APIGatewayProxyEventV2, ctx: { params: Record<string, string> }) =>
      json(200, { id: ctx.params.id }),
    );
    const handler = createGroupHandler('catalog', { getTrack });
    const res = await handler({ ...event('GET', '/api/track/abc'), pathParameters: { id: 'abc' } }, context);
    expect(res.statusCode).toBe(200);
    expect(JSON.parse(res.body as string)).toEqual({ id: 'abc' });
    expect(getTrack).toHaveBeenCalledOnce();
  });

  it('takes calls only through CloudFront when an origin secret is set, except the signed webhooks', async () => {
    const listPlans = vi.fn(async () => json(200, []));
    const stripeWebhook = vi.fn(async () => json(200, { received: true }));
    const originSecret = async () => ['current-secret', 'previous-secret'];
    const catalog = createGroupHandler('catalog', { listPlans }, { originSecret });
    const direct = await catalog(event('GET', '/api/plans'), context);
    expect([direct.statusCode, JSON.parse(direct.body as string)]).toEqual([403, { message: 'Forbidden' }]);
    const forged = await catalog(
      { ...event('GET', '/api/plans'), headers: { 'x-origin-verify': 'guess' } },
      context,
    );
    expect(forged.statusCode).toBe(403);
    expect(listPlans).not.toHaveBeenCalled();
    for (const value of ['current-secret', 'previous-secret']) {
      const viaEdge = await catalog(
        { ...event('GET', '/api/plans'), headers: { 'x-origin-verify': value } },
        context,
      );
      expect(viaEdge.statusCode).toBe(200);
    }
    const webhooks = createGroupHandler('webhooks', { stripeWebhook }, { originSecret });
    const hook = await webhooks(
      {
        ...event('POST', '/api/webhooks/stripe'),
        headers: { 'content-type': 'application/json' },
        body: '{}',
      },
      context,
    );
    expect(hook.statusCode).toBe(200);
  });

  it('answers 404 for a path parameter that cannot be an id, before the handler runs', async () => {
    const getTrack = vi.fn(async () => json(200, {}));
    const handler = createGroupHandler('catalog', { getTrack });
    for (const id of ['a'.repeat(2100), 'a'.repeat(129), '../etc', 'a b', 'ü', '']) {
      const res = await handler({ ...event('GET', '/api/track/x'), pathParameters: { id } }, context);
      expect(res.statusCode, id.slice(0, 20)).toBe(404);
      expect(JSON.parse(res.body as string)).toEqual({ message: 'Not found' });
    }
    expect(getTrack).not.toHaveBeenCalled();
    const ok = await handler(
      { ...event('GET', '/api/track/x'), pathParameters: { id: `${'a'.repeat(120)}-_Z9` } },
      context,
    );
    expect(ok.statusCode).toBe(200);
  });

  it('answers 404 JSON for a path outside the group', async () => {
    const handler = createGroupHandler('catalog', {});
    const res = await handler(event('GET', '/api/elsewhere'), context);
    expect(res.statusCode).toBe(404);
    expect(JSON.parse(res.body as string)).toEqual({ message: 'Not found' });
  });

  it.each([
    [validationError('Title cannot be empty.'), 400],
    [notFound('Track not found'), 404],
    [conflict('Email already in use'), 409],
  ])('maps domain error %s to its status with its message', async (error, status) => {
    const handler = createGroupHandler('catalog', {
      listPlans: async () => {
        throw error;
      },
    });
    const res = await handler(event('GET', '/api/plans'), context);
    expect(res.statusCode).toBe(status);
    expect(JSON.parse(res.body as string)).toEqual({ message: error.message });
  });

  it('answers 500 with a generic message and no stack for an unexpected error', async () => {
    const handler = createGroupHandler('catalog', {
      listPlans: async () => {
        throw new Error('secret connection string leaked');
      },
    });
    const res = await handler(event('GET', '/api/plans'), context);
    expect(res.statusCode).toBe(500);
    expect(res.body).not.toMatch(/secret|stack|at /);
    expect(JSON.parse(res.body as string).message).toBe('Something went wrong. Please try again.');
  });

  it('refuses a handler bound to a route of another group', () => {
    expect(() => createGroupHandler('catalog', { login: async () => json(200, {}) })).toThrow(
      /not part of group/,
    );
  });

  it('answers 401 on a user route without a valid session, clearing stale cookies', async () => {
    const handler = createGroupHandler(
      'generation',
      { listMyGenerations: async () => json(200, []) },
      options,
    );
    const anonymous = await handler(event('GET', '/api/my-generations'), context);
    expect(anonymous.statusCode).toBe(401);
    expect(JSON.parse(anonymous.body as string)).toEqual({ message: 'Unauthorized' });
    expect(anonymous.cookies).toBeUndefined();

    const stale = await handler(
      { ...event('GET', '/api/my-generations'), cookies: ['ts_session=bad'] },
      context,
    );
    expect(stale.statusCode).toBe(401);
    expect(stale.cookies).toEqual(['ts_session=; Max-Age=0']);
  });

  it('hands the signed-in user to the handler and adds refreshed cookies to the answer', async () => {
    const listMyGenerations = vi.fn(async (_e: APIGatewayProxyEventV2, ctx: { user?: User }) =>
      json(200, { id: ctx.user?.id }),
    );
    const handler = createGroupHandler('generation', { listMyGenerations }, options);
    const res = await handler(
      { ...event('GET', '/api/my-generations'), cookies: ['ts_session=stale'] },
      context,
    );
    expect(JSON.parse(res.body as string)).toEqual({ id: 'u1' });
    expect(res.cookies).toEqual(['ts_session=fresh']);
  });

  it('refuses a state-changing call from another origin or without an origin (CSRF)', async () => {
    const login = vi.fn(async () => json(200, {}));
    const handler = createGroupHandler('auth', { login }, options);
    const post = (headers: Record<string, string>) =>
      handler({ ...event('POST', '/api/auth/login'), headers, body: '{}' }, context);

    expect(
      (await post({ origin: 'https://evil.example', 'content-type': 'application/json' })).statusCode,
    ).toBe(403);
    expect((await post({ 'content-type': 'application/json' })).statusCode).toBe(403);
    expect((await post({ origin: 'https://tunesmith.test', 'content-type': 'text/plain' })).statusCode).toBe(
      415,
    );
    expect(login).not.toHaveBeenCalled();

    expect((await post(sameOrigin)).statusCode).toBe(200);
    expect(
      (
        await post({
          host: 'localhost:3000',
          origin: 'http://localhost:3000',
          'content-type': 'application/json',
        })
      ).statusCode,
    ).toBe(200);
    expect(login).toHaveBeenCalledTimes(2);
  });

  it('does not apply the origin check to reads', async () => {
    const handler = createGroupHandler('catalog', { listPlans: async () => json(200, []) }, options);
    const res = await handler(
      { ...event('GET', '/api/plans'), headers: { origin: 'https://elsewhere.example' } },
      context,
    );
    expect(res.statusCode).toBe(200);
  });

  it('adds domain error details such as expired to the error body', async () => {
    const handler = createGroupHandler('catalog', {
      listPlans: async () => {
        throw validationError('This link has expired.', { expired: true });
      },
    });
    const res = await handler(event('GET', '/api/plans'), context);
    expect(JSON.parse(res.body as string)).toEqual({ message: 'This link has expired.', expired: true });
  });

  it('logs the route template, never a token in the path', async () => {
    const handler = createGroupHandler('auth', { verifyEmail: async () => json(200, {}) }, options);
    const lines = await captureLogs(() =>
      handler(
        {
          ...event('GET', '/api/auth/verify-email/secret-token-123'),
          routeKey: 'GET /api/auth/verify-email/{token}',
          pathParameters: { token: 'secret-token-123' },
        },
        context,
      ),
    );
    expect(lines.join('\n')).toContain('/api/auth/verify-email/{token}');
    expect(lines.join('\n')).not.toContain('secret-token-123');
  });
});

/** The log lines written while `run` runs, at level INFO. */
async function captureLogs(run: () => Promise<unknown>): Promise<string[]> {
  const lines: string[] = [];
  const write = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
    lines.push(String(chunk));
    return true;
  });
  logger.setLogLevel('INFO');
  try {
    await run();
  } finally {
    logger.setLogLevel('SILENT');
    write.mockRestore();
  }
  return lines;
}

describe('request logs', () => {
  it('are JSON lines with the request id as correlation id, the route template and the status', async () => {
    const handler = createGroupHandler('catalog', { listPlans: async () => json(200, []) });
    const lines = await captureLogs(() =>
      handler({ ...event('GET', '/api/plans'), routeKey: 'GET /api/plans' }, context),
    );
    const entry = lines.map((line) => JSON.parse(line)).find((line) => line.message === 'request');
    expect(entry).toMatchObject({
      level: 'INFO',
      correlation_id: 'r1',
      group: 'catalog',
      method: 'GET',
      route: 'GET /api/plans',
      status: 200,
    });
    expect(typeof entry.ms).toBe('number');
  });
});

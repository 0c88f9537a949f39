import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { describe, expect, it, vi } from 'vitest';
import { conflict, notFound, validationError } from '../domain/errors';
import { createGroupHandler } from './group-handler';
import { json } from './responses';

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
    const handler = createGroupHandler('generation', {});
    const res = await handler(event('POST', '/api/generate-lyrics'), context);
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
});

import { Readable } from 'node:stream';
import { clientAddress } from '@tunesmith/functions/http/request';
import { routeById } from '@tunesmith/shared/routes';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import {
  createApiAdapter,
  type HandlerLoader,
  lambdaLoader,
  MAX_BODY_BYTES,
  type RawRequest,
  type ResponseSink,
  readBody,
  toEvent,
  toHttpResponse,
  writeResult,
} from './api-adapter';

const request = (overrides: Partial<RawRequest> = {}): RawRequest => ({
  method: 'GET',
  url: '/api/plans',
  headers: { host: '127.0.0.1:3000', 'user-agent': 'vitest' },
  body: Buffer.alloc(0),
  sourceIp: '127.0.0.1',
  ...overrides,
});

/** An adapter whose every group answers with `respond` and records what it was called with. */
function recordingAdapter(respond: (event: APIGatewayProxyEventV2) => unknown = () => ({ statusCode: 204 })) {
  const calls: { group: string; event: APIGatewayProxyEventV2; context: Context }[] = [];
  const loadHandler: HandlerLoader = async (group) => (event, context) => {
    calls.push({ group, event, context });
    return respond(event);
  };
  const errors: unknown[] = [];
  const adapter = createApiAdapter({ loadHandler, logError: (_message, error) => errors.push(error) });
  return { adapter, calls, errors };
}

const json = (body: Buffer) => JSON.parse(body.toString('utf8')) as unknown;

describe('toEvent', () => {
  it('builds the routeKey from the manifest template, not the concrete path', () => {
    const route = routeById('verifyEmail');
    const event = toEvent(request({ url: '/api/auth/verify-email/abc' }), {
      route,
      params: { token: 'abc' },
    });

    expect(event.version).toBe('2.0');
    expect(event.routeKey).toBe('GET /api/auth/verify-email/{token}');
    expect(event.requestContext.routeKey).toBe('GET /api/auth/verify-email/{token}');
    expect(event.requestContext.stage).toBe('$default');
    expect(event.requestContext.http).toEqual({
      method: 'GET',
      path: '/api/auth/verify-email/abc',
      protocol: 'HTTP/1.1',
      sourceIp: '127.0.0.1',
      userAgent: 'vitest',
    });
  });

  it('adds the viewer hop as CloudFront does, so a client cannot choose its address', () => {
    const route = { route: routeById('listPlans'), params: {} };
    const forged = toEvent(
      request({ sourceIp: '127.4.5.6', headers: { 'x-forwarded-for': '203.0.113.9, 198.51.100.1' } }),
      route,
    );
    expect(forged.headers['x-forwarded-for']).toBe('203.0.113.9, 198.51.100.1, 127.4.5.6, 127.0.0.1');
    // One trusted hop (TRUSTED_PROXY_HOPS=1, as locally and behind CloudFront) reads the viewer.
    expect(clientAddress(forged, 1)).toBe('127.4.5.6');
    const plain = toEvent(request({ sourceIp: '127.4.5.6' }), route);
    expect(clientAddress(plain, 1)).toBe('127.4.5.6');
  });

  it('moves cookies out of the headers into the cookies array', () => {
    const event = toEvent(
      request({ headers: { Cookie: 'session=abc; theme=dark', 'X-Custom': ['a', 'b'] } }),
      { route: routeById('listPlans'), params: {} },
    );

    expect(event.cookies).toEqual(['session=abc', 'theme=dark']);
    expect(event.headers.cookie).toBeUndefined();
    expect(event.headers['x-custom']).toBe('a,b');
  });

  it('keeps the raw query string and decodes the parameters, joining repeats with commas', () => {
    const event = toEvent(request({ url: '/api/plans?q=hello%20world&tag=a&tag=b&empty' }), {
      route: routeById('listPlans'),
      params: {},
    });

    expect(event.rawPath).toBe('/api/plans');
    expect(event.rawQueryString).toBe('q=hello%20world&tag=a&tag=b&empty');
    expect(event.queryStringParameters).toEqual({ q: 'hello world', tag: 'a,b', empty: '' });
  });

  it('leaves query, path parameters, cookies and body out when there are none', () => {
    const event = toEvent(request(), { route: routeById('listPlans'), params: {} });

    expect(event.queryStringParameters).toBeUndefined();
    expect(event.pathParameters).toBeUndefined();
    expect(event.cookies).toBeUndefined();
    expect(event.body).toBeUndefined();
    expect(event.isBase64Encoded).toBe(false);
  });

  it('passes a JSON body as text and a binary body as base64', () => {
    const route = routeById('login');
    const text = toEvent(
      request({
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: Buffer.from('{"a":"é"}'),
      }),
      { route, params: {} },
    );
    const bytes = Buffer.from([0, 255, 1, 254]);
    const binary = toEvent(
      request({ method: 'POST', headers: { 'content-type': 'audio/mpeg' }, body: bytes }),
      { route, params: {} },
    );

    expect(text).toMatchObject({ body: '{"a":"é"}', isBase64Encoded: false });
    expect(binary).toMatchObject({ body: bytes.toString('base64'), isBase64Encoded: true });
  });
});

describe('toHttpResponse and writeResult', () => {
  it('sends each cookie as its own Set-Cookie header', () => {
    const response = toHttpResponse({
      statusCode: 200,
      headers: { 'Content-Type': 'application/json' },
      cookies: ['a=1; HttpOnly', 'b=2; Path=/'],
      body: '{}',
    });

    expect(response.headers['set-cookie']).toEqual(['a=1; HttpOnly', 'b=2; Path=/']);
    expect(response.headers['content-type']).toBe('application/json');
  });

  it('decodes a base64 body to the original bytes', () => {
    const bytes = Buffer.from([0, 1, 2, 250, 255]);
    const response = toHttpResponse({
      statusCode: 200,
      body: bytes.toString('base64'),
      isBase64Encoded: true,
    });

    expect(response.body.equals(bytes)).toBe(true);
  });

  it('answers a non-structured result with 200 JSON, as API Gateway does', () => {
    expect(json(toHttpResponse({ ok: true }).body)).toEqual({ ok: true });
    expect(toHttpResponse({ ok: true })).toMatchObject({
      statusCode: 200,
      headers: { 'content-type': 'application/json' },
    });
    expect(toHttpResponse('hello').body.toString()).toBe('hello');
  });

  it('writes status, headers, content length and body to the response', () => {
    const written: { status?: number; headers?: Record<string, unknown>; body?: Buffer } = {};
    const sink = {
      writeHead(status: number, headers: Record<string, unknown>) {
        written.status = status;
        written.headers = headers;
        return this;
      },
      end(body: Buffer) {
        written.body = body;
        return this;
      },
    } as unknown as ResponseSink;

    writeResult(sink, { statusCode: 201, cookies: ['a=1'], body: 'created' });

    expect(written.status).toBe(201);
    expect(written.headers).toMatchObject({ 'set-cookie': ['a=1'], 'content-length': '7' });
    expect(written.body?.toString()).toBe('created');
  });
});

describe('createApiAdapter', () => {
  it('routes to the group of the matching manifest entry with decoded path parameters', async () => {
    const { adapter, calls } = recordingAdapter();

    await adapter.invoke(request({ url: '/api/track/a%20b%2Fc' }));

    expect(calls).toHaveLength(1);
    expect(calls[0]?.group).toBe('catalog');
    expect(calls[0]?.event.pathParameters).toEqual({ id: 'a b/c' });
    expect(calls[0]?.event.routeKey).toBe('GET /api/track/{id}');
    expect(calls[0]?.context.functionName).toBe('tunesmith-catalog');
    expect(calls[0]?.context.getRemainingTimeInMillis()).toBeGreaterThan(0);
  });

  it('answers 404 JSON for an unknown path without calling a handler', async () => {
    const { adapter, calls } = recordingAdapter();

    const response = await adapter.invoke(request({ url: '/api/nope' }));

    expect(response.statusCode).toBe(404);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(json(response.body)).toEqual({ message: 'Not found' });
    expect(calls).toHaveLength(0);
  });

  it('answers 404 for a known path with the wrong method', async () => {
    const { adapter, calls } = recordingAdapter();

    const response = await adapter.invoke(request({ method: 'DELETE', url: '/api/plans' }));

    expect(response.statusCode).toBe(404);
    expect(json(response.body)).toEqual({ message: 'Not found' });
    expect(calls).toHaveLength(0);
  });

  it('answers 413 for a body over 10 MiB', async () => {
    const { adapter, calls } = recordingAdapter();

    const response = await adapter.invoke(
      request({
        method: 'POST',
        url: '/api/auth/login',
        headers: { 'content-type': 'application/json' },
        body: Buffer.alloc(MAX_BODY_BYTES + 1, 0x20),
      }),
    );

    expect(response.statusCode).toBe(413);
    expect(json(response.body)).toEqual({ message: 'Request Entity Too Large' });
    expect(calls).toHaveLength(0);
  });

  it('answers 413 from the socket path while reading an oversized stream', async () => {
    const { adapter, calls } = recordingAdapter();
    const chunk = Buffer.alloc(1024 * 1024);
    const req = Object.assign(Readable.from(Array.from({ length: 11 }, () => chunk)), {
      method: 'POST',
      url: '/api/auth/login',
      // Streamed without a length, as HTTP/1.1 sends a body of unknown size.
      headers: { 'content-type': 'application/octet-stream', 'transfer-encoding': 'chunked' },
      headersDistinct: { 'content-type': ['application/octet-stream'], 'transfer-encoding': ['chunked'] },
      httpVersion: '1.1',
      socket: { remoteAddress: '::ffff:127.0.0.1' },
    });
    const out: { status?: number; body?: Buffer } = {};
    const res = {
      setHeader: () => {},
      writeHead: (status: number) => {
        out.status = status;
      },
      end: (body: Buffer) => {
        out.body = body;
      },
    };

    await adapter.handle(req as never, res as never);

    expect(out.status).toBe(413);
    expect(json(out.body as Buffer)).toEqual({ message: 'Request Entity Too Large' });
    expect(calls).toHaveLength(0);
  });

  it('answers a request that declares no body without waiting on its stream', async () => {
    const { adapter, calls } = recordingAdapter(() => ({ statusCode: 200, body: 'ok' }));
    // A stream that never ends: reading it would never finish.
    const req = Object.assign(new Readable({ read() {} }), {
      method: 'GET',
      url: '/api/plans',
      headers: { host: '127.0.0.1:3000' },
      headersDistinct: { host: ['127.0.0.1:3000'] },
      httpVersion: '1.1',
      socket: { remoteAddress: '127.0.0.1' },
    });
    const out: { status?: number; body?: Buffer } = {};
    const res = {
      writeHead: (status: number) => {
        out.status = status;
      },
      end: (body: Buffer) => {
        out.body = body;
      },
    };

    await adapter.handle(req as never, res as never);

    expect(out.status).toBe(200);
    expect(out.body?.toString()).toBe('ok');
    expect(calls[0]?.event.body).toBeUndefined();
  });

  it('gives a group one execution environment: the same log stream for every invocation, a new request id each', async () => {
    const { adapter, calls } = recordingAdapter();

    await adapter.invoke(request());
    await adapter.invoke(request());
    await adapter.invoke(request({ url: '/api/auth/user' }));

    const [first, second, other] = calls.map((call) => call.context);
    expect(first?.functionName).toBe('tunesmith-catalog');
    expect(first?.invokedFunctionArn).toBe(
      'arn:aws:lambda:us-east-1:000000000000:function:tunesmith-catalog',
    );
    expect(first?.logGroupName).toBe('/aws/lambda/tunesmith-catalog');
    expect(first?.logStreamName).toMatch(/^\d{4}\/\d{2}\/\d{2}\/\[\$LATEST\][0-9a-f]{32}$/);
    expect(second?.logStreamName).toBe(first?.logStreamName);
    expect(second?.awsRequestId).not.toBe(first?.awsRequestId);
    expect(other?.functionName).toBe('tunesmith-auth');
    expect(other?.logStreamName).not.toBe(first?.logStreamName);
    expect(first?.getRemainingTimeInMillis()).toBeGreaterThan(29_000);
  });

  it('accepts a body of exactly 10 MiB', async () => {
    const { body, tooLarge } = await readBody(Readable.from([Buffer.alloc(MAX_BODY_BYTES)]));

    expect(tooLarge).toBe(false);
    expect(body.length).toBe(MAX_BODY_BYTES);
  });

  it('answers 500 with API Gateway message and reports the error when a handler crashes', async () => {
    const { adapter, errors } = recordingAdapter(() => {
      throw new Error('boom');
    });

    const response = await adapter.invoke(request());

    expect(response.statusCode).toBe(500);
    expect(json(response.body)).toEqual({ message: 'Internal Server Error' });
    expect(errors).toHaveLength(1);
  });

  it('carries cookies and binary bodies both ways through a handler', async () => {
    const upload = Buffer.from([9, 8, 7, 0, 255]);
    const { adapter, calls } = recordingAdapter((event) => ({
      statusCode: 200,
      headers: { 'content-type': 'application/octet-stream' },
      cookies: [`seen=${event.cookies?.join('|')}`, 'other=1'],
      body: event.body,
      isBase64Encoded: event.isBase64Encoded,
    }));

    const response = await adapter.invoke(
      request({
        method: 'POST',
        url: '/api/auth/login',
        headers: { cookie: 'a=1; b=2', 'content-type': 'application/octet-stream' },
        body: upload,
      }),
    );

    expect(calls[0]?.event.isBase64Encoded).toBe(true);
    expect(response.headers['set-cookie']).toEqual(['seen=a=1|b=2', 'other=1']);
    expect(response.body.equals(upload)).toBe(true);
  });

  it('imports each group once', async () => {
    let loads = 0;
    const adapter = createApiAdapter({
      loadHandler: async () => {
        loads++;
        return () => ({ statusCode: 200 });
      },
    });

    await adapter.invoke(request());
    await adapter.invoke(request({ url: '/api/public-tracks' }));

    expect(loads).toBe(1);
  });

  it('loads the real entry points, and refuses them to a second cloud in the same process', async () => {
    const handler = await lambdaLoader('http://127.0.0.1:1')('catalog');

    expect(handler).toEqual(expect.any(Function));
    await expect(lambdaLoader('http://127.0.0.1:2')('catalog')).rejects.toThrow(
      /already serve the local cloud/,
    );
  });
});

import { randomBytes, randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Readable } from 'node:stream';
import { messages } from '@tunesmith/shared/messages';
import { matchRoute, type RouteDef, type RouteGroup, routeGroups } from '@tunesmith/shared/routes';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';

/** API Gateway's payload limit for HTTP APIs. */
export const MAX_BODY_BYTES = 10 * 1024 * 1024;

const ACCOUNT_ID = '000000000000';
const API_ID = 'local';
const REGION = 'us-east-1';
/** API Gateway gives up on an integration after 30 s; the handler sees that as its deadline. */
const TIMEOUT_MS = 30_000;

/** The shape every route-group entry point exports. */
export type LambdaHandler = (event: APIGatewayProxyEventV2, context: Context) => unknown;

/** The address API Gateway sees for the edge in front of it: this server's own. */
const EDGE_ADDRESS = '127.0.0.1';

/** Loads the entry point of a route group. */
export type HandlerLoader = (group: RouteGroup) => Promise<LambdaHandler>;

/** An HTTP request as read from the socket, body fully buffered. */
export interface RawRequest {
  method: string;
  /** Path and query as received, still percent-encoded: `/api/track/a%20b?x=1`. */
  url: string;
  /** Header names in any case; repeated headers as arrays. */
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
  sourceIp: string;
  /** `HTTP/1.1` unless told otherwise. */
  protocol?: string;
}

/** An HTTP response ready to write. */
export interface HttpResponse {
  statusCode: number;
  headers: Record<string, string | string[]>;
  body: Buffer;
}

/** What {@link writeResult} needs from a response: `ServerResponse` or a test double. */
export type ResponseSink = Pick<ServerResponse, 'writeHead' | 'end'>;

const textTypes = new Set([
  'application/json',
  'application/xml',
  'application/javascript',
  'application/x-www-form-urlencoded',
  'application/graphql',
]);

/** Whether API Gateway passes a body with this content type as text rather than base64. */
export function isTextual(contentType: string | undefined): boolean {
  const type = contentType?.split(';')[0]?.trim().toLowerCase();
  if (!type) return false;
  return type.startsWith('text/') || textTypes.has(type) || type.endsWith('+json') || type.endsWith('+xml');
}

const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** `requestContext.time` in API Gateway's CLF format: `12/Mar/2020:19:03:58 +0000`. */
function clfTime(date: Date): string {
  const two = (n: number) => String(n).padStart(2, '0');
  return (
    `${two(date.getUTCDate())}/${months[date.getUTCMonth()]}/${date.getUTCFullYear()}:` +
    `${two(date.getUTCHours())}:${two(date.getUTCMinutes())}:${two(date.getUTCSeconds())} +0000`
  );
}

/**
 * Builds the payload format 2.0 event API Gateway would send for this request
 * and route: lower-cased headers with repeated values comma-joined, cookies
 * moved out of the headers, decoded query and path parameters, and the body as
 * text for textual content types or base64 otherwise.
 */
export function toEvent(
  request: RawRequest,
  match: { route: RouteDef; params: Record<string, string> },
  options: { requestId?: string; now?: Date } = {},
): APIGatewayProxyEventV2 {
  const now = options.now ?? new Date();
  const requestId = options.requestId ?? randomUUID();
  const queryAt = request.url.indexOf('?');
  const rawPath = queryAt < 0 ? request.url : request.url.slice(0, queryAt);
  const rawQueryString = queryAt < 0 ? '' : request.url.slice(queryAt + 1).split('#')[0] || '';

  const headers: Record<string, string> = {};
  const cookies: string[] = [];
  for (const rawName in request.headers) {
    const value = request.headers[rawName];
    if (value === undefined) continue;
    const name = rawName.toLowerCase();
    if (name === 'cookie') {
      for (const header of Array.isArray(value) ? value : [value]) {
        for (const part of header.split(';')) {
          const cookie = part.trim();
          if (cookie) cookies.push(cookie);
        }
      }
      continue;
    }
    const joined = Array.isArray(value) ? value.join(',') : value;
    const previous = headers[name];
    headers[name] = previous === undefined ? joined : `${previous},${joined}`;
  }
  // This server stands where CloudFront and API Gateway stand: CloudFront appends the
  // viewer's address to whatever X-Forwarded-For the client sent, and API Gateway
  // appends the address it saw (CloudFront's; here, our own loopback). With one trusted
  // hop the handlers read the viewer's real address, never one the client wrote.
  const hops = [request.sourceIp, EDGE_ADDRESS].join(', ');
  headers['x-forwarded-for'] = headers['x-forwarded-for'] ? `${headers['x-forwarded-for']}, ${hops}` : hops;
  headers['x-forwarded-proto'] ??= 'http';
  const host = headers.host ?? 'localhost';
  headers['x-forwarded-port'] ??= host.includes(':') ? (host.split(':').pop() as string) : '80';

  let queryStringParameters: Record<string, string> | undefined;
  if (rawQueryString) {
    queryStringParameters = {};
    for (const [key, value] of new URLSearchParams(rawQueryString)) {
      const previous = queryStringParameters[key];
      queryStringParameters[key] = previous === undefined ? value : `${previous},${value}`;
    }
  }

  let body: string | undefined;
  let isBase64Encoded = false;
  if (request.body.length > 0) {
    if (isTextual(headers['content-type'])) {
      body = request.body.toString('utf8');
    } else {
      body = request.body.toString('base64');
      isBase64Encoded = true;
    }
  }

  const routeKey = `${match.route.method} ${match.route.path}`;
  return {
    version: '2.0',
    routeKey,
    rawPath,
    rawQueryString,
    ...(cookies.length ? { cookies } : {}),
    headers,
    ...(queryStringParameters ? { queryStringParameters } : {}),
    ...(Object.keys(match.params).length ? { pathParameters: { ...match.params } } : {}),
    requestContext: {
      accountId: ACCOUNT_ID,
      apiId: API_ID,
      domainName: host,
      domainPrefix: host.split(/[.:]/)[0] ?? host,
      http: {
        method: request.method,
        path: rawPath,
        protocol: request.protocol ?? 'HTTP/1.1',
        sourceIp: request.sourceIp,
        userAgent: headers['user-agent'] ?? '',
      },
      requestId,
      routeKey,
      stage: '$default',
      time: clfTime(now),
      timeEpoch: now.getTime(),
    },
    ...(body === undefined ? {} : { body }),
    isBase64Encoded,
  };
}

/**
 * What stays the same across the invocations of one route group's function
 * in one execution environment: its name, ARN, log group and log stream (a
 * Lambda environment writes to one stream for its whole life).
 */
export interface FunctionEnvironment {
  functionName: string;
  invokedFunctionArn: string;
  logGroupName: string;
  logStreamName: string;
}

/** The execution environment a route group's function runs in locally: made once, kept for its invocations. */
export function functionEnvironment(group: RouteGroup, now: Date = new Date()): FunctionEnvironment {
  const functionName = `tunesmith-${group}`;
  const day = now.toISOString().slice(0, 10).replaceAll('-', '/');
  return {
    functionName,
    invokedFunctionArn: `arn:aws:lambda:${REGION}:${ACCOUNT_ID}:function:${functionName}`,
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: `${day}/[$LATEST]${randomBytes(16).toString('hex')}`,
  };
}

/**
 * A Lambda context for one invocation of a route group's function, in
 * `environment` (a new one when not given).
 */
export function fakeContext(
  group: RouteGroup,
  requestId: string = randomUUID(),
  environment: FunctionEnvironment = functionEnvironment(group),
): Context {
  const deadline = Date.now() + TIMEOUT_MS;
  return {
    callbackWaitsForEmptyEventLoop: true,
    functionName: environment.functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: environment.invokedFunctionArn,
    memoryLimitInMB: '1024',
    awsRequestId: requestId,
    logGroupName: environment.logGroupName,
    logStreamName: environment.logStreamName,
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: () => {},
    fail: () => {},
    succeed: () => {},
  };
}

function isStructured(result: unknown): result is APIGatewayProxyStructuredResultV2 {
  return typeof result === 'object' && result !== null && !Array.isArray(result) && 'statusCode' in result;
}

/**
 * Turns what a handler returned into an HTTP response the way API Gateway
 * does for payload format 2.0: a structured result gives status, headers, one
 * Set-Cookie per cookie and a base64-decoded body when flagged; anything else
 * is a 200 JSON answer (a string as is, other values serialised).
 */
export function toHttpResponse(result: unknown): HttpResponse {
  if (!isStructured(result)) {
    const body = typeof result === 'string' ? result : JSON.stringify(result ?? null);
    return { statusCode: 200, headers: { 'content-type': 'application/json' }, body: Buffer.from(body) };
  }
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(result.headers ?? {}))
    headers[name.toLowerCase()] = String(value);
  if (result.cookies?.length) headers['set-cookie'] = [...result.cookies];
  const raw = result.body ?? '';
  const body = result.isBase64Encoded ? Buffer.from(raw, 'base64') : Buffer.from(raw, 'utf8');
  return { statusCode: result.statusCode ?? 200, headers, body };
}

/** Writes a handler's result (see {@link toHttpResponse}) to a response. */
export function writeResult(res: ResponseSink, result: unknown): void {
  writeResponse(res, toHttpResponse(result));
}

function writeResponse(res: ResponseSink, response: HttpResponse): void {
  res.writeHead(response.statusCode, { ...response.headers, 'content-length': String(response.body.length) });
  res.end(response.body);
}

/** The JSON error answers API Gateway itself gives. */
function gatewayError(statusCode: number, message: string, requestId: string): HttpResponse {
  return {
    statusCode,
    headers: {
      'content-type': 'application/json; charset=utf-8',
      'cache-control': 'no-store',
      'apigw-requestid': requestId,
    },
    body: Buffer.from(JSON.stringify({ message })),
  };
}

/**
 * Whether a request's headers say it has no body: neither a Content-Length
 * above 0 nor a Transfer-Encoding (HTTP/1.1's only two ways to send one).
 */
export function declaresNoBody(headers: IncomingMessage['headers']): boolean {
  const length = headers['content-length'];
  return headers['transfer-encoding'] === undefined && (length === undefined || Number(length) === 0);
}

/**
 * Reads a request body, keeping at most `limit` bytes. Past the limit the
 * rest is drained and dropped so the client still gets to read the 413.
 */
export async function readBody(
  stream: Readable,
  limit: number = MAX_BODY_BYTES,
): Promise<{ body: Buffer; tooLarge: boolean }> {
  const chunks: Buffer[] = [];
  let size = 0;
  let tooLarge = false;
  for await (const chunk of stream) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string);
    size += buffer.length;
    if (size > limit) {
      tooLarge = true;
      chunks.length = 0;
    }
    if (!tooLarge) chunks.push(buffer);
  }
  return { body: tooLarge ? Buffer.alloc(0) : Buffer.concat(chunks), tooLarge };
}

const EMPTY_BODY = Buffer.alloc(0);

/** Which local cloud the handlers imported by this module instance serve. */
let handlersOwner: string | undefined;

/**
 * Whether the function modules of this process serve the local cloud `owner`
 * (the first to claim them does): background jobs of another cloud in the same
 * process would reach the first one's emulators through the clients those
 * modules keep.
 */
export function claimHandlers(owner: string): boolean {
  handlersOwner ??= owner;
  return handlersOwner === owner;
}

type HandlerModule = { handler?: LambdaHandler };

/** Each route group's entry point, named in full so that a bundler can follow every one. */
const handlerModules: Record<RouteGroup, () => Promise<HandlerModule>> = {
  auth: () => import('@tunesmith/functions/lambdas/auth'),
  catalog: () => import('@tunesmith/functions/lambdas/catalog'),
  generation: () => import('@tunesmith/functions/lambdas/generation'),
  uploads: () => import('@tunesmith/functions/lambdas/uploads'),
  billing: () => import('@tunesmith/functions/lambdas/billing'),
  webhooks: () => import('@tunesmith/functions/lambdas/webhooks'),
  'admin-session': () => import('@tunesmith/functions/lambdas/admin-session'),
  admin: () => import('@tunesmith/functions/lambdas/admin'),
  developers: () => import('@tunesmith/functions/lambdas/developers'),
  'api-v1': () => import('@tunesmith/functions/lambdas/api-v1'),
  community: () => import('@tunesmith/functions/lambdas/community'),
};

/**
 * Imports route groups' real entry points from `functions/src/lambdas` for the
 * local cloud `owner`. Like a Lambda runtime, a handler module builds its SDK
 * clients once from the environment and keeps them; so once one cloud's
 * requests have loaded them, another cloud in the same process would reach
 * the first one's emulators. That is refused loudly instead.
 */
export function lambdaLoader(owner: string): HandlerLoader {
  return async (group) => {
    if (!claimHandlers(owner)) {
      throw new Error(
        `The handlers in this process already serve the local cloud at ${handlersOwner}; ` +
          'start further clouds with startLocalCloudProcess.',
      );
    }
    const module = await handlerModules[group]();
    if (typeof module.handler !== 'function') {
      throw new Error(`functions/src/lambdas/${group}.ts exports no handler`);
    }
    return module.handler;
  };
}

export interface ApiAdapterOptions {
  /** Where handlers come from: usually {@link lambdaLoader}; tests pass fakes. */
  loadHandler: HandlerLoader;
  maxBodyBytes?: number;
  /** Where handler crashes are reported. */
  logError?: (message: string, error: unknown) => void;
}

export interface ApiAdapter {
  /** Runs one buffered request through the matching handler. No sockets involved. */
  invoke(request: RawRequest): Promise<HttpResponse>;
  /** Serves one request from a Node HTTP server. */
  handle(req: IncomingMessage, res: ServerResponse): Promise<void>;
  /** Imports every route group ahead of the first request, one after another. */
  warm(): Promise<void>;
}

/**
 * The local stand-in for API Gateway's HTTP API: matches requests against the
 * route manifest and invokes the route group's handler with a payload 2.0
 * event, importing each group once, on first use.
 */
export function createApiAdapter(options: ApiAdapterOptions): ApiAdapter {
  const load = options.loadHandler;
  const limit = options.maxBodyBytes ?? MAX_BODY_BYTES;
  const logError = options.logError ?? ((message, error) => console.error(message, error));
  const handlers = new Map<RouteGroup, Promise<LambdaHandler>>();
  /** The groups whose import has finished: called without waiting on a settled promise. */
  const loaded = new Map<RouteGroup, LambdaHandler>();
  const environments = new Map<RouteGroup, FunctionEnvironment>();
  const environmentOf = (group: RouteGroup): FunctionEnvironment => {
    let environment = environments.get(group);
    if (!environment) {
      environment = functionEnvironment(group);
      environments.set(group, environment);
    }
    return environment;
  };

  const handlerOf = (group: RouteGroup): Promise<LambdaHandler> => {
    let handler = handlers.get(group);
    if (!handler) {
      handler = load(group);
      // A failed import (say, a syntax error being fixed) is retried on the next request.
      handler.then(
        (ready) => loaded.set(group, ready),
        () => handlers.delete(group),
      );
      handlers.set(group, handler);
    }
    return handler;
  };

  const invoke = async (request: RawRequest): Promise<HttpResponse> => {
    const requestId = randomUUID();
    const path = request.url.split('?')[0] ?? '';
    const match = matchRoute(request.method, path);
    if (!match) return gatewayError(404, messages.notFound, requestId);
    if (request.body.length > limit) return gatewayError(413, 'Request Entity Too Large', requestId);
    const event = toEvent(request, match, { requestId });
    try {
      const handler = loaded.get(match.route.group) ?? (await handlerOf(match.route.group));
      const result = await handler(
        event,
        fakeContext(match.route.group, randomUUID(), environmentOf(match.route.group)),
      );
      const response = toHttpResponse(result);
      response.headers['apigw-requestid'] ??= requestId;
      return response;
    } catch (error) {
      logError(`[api] ${event.routeKey} failed (request ${requestId})`, error);
      return gatewayError(500, 'Internal Server Error', requestId);
    }
  };

  return {
    invoke,
    async handle(req, res) {
      const declared = Number(req.headers['content-length'] ?? 0);
      // A request that declares no body has none to wait for (most GETs): no stream to read.
      const { body, tooLarge } = declaresNoBody(req.headers)
        ? { body: EMPTY_BODY, tooLarge: false }
        : declared > limit
          ? { body: Buffer.alloc(0), tooLarge: true }
          : await readBody(req, limit);
      if (tooLarge) {
        req.resume();
        res.setHeader('connection', 'close');
        writeResponse(res, gatewayError(413, 'Request Entity Too Large', randomUUID()));
        return;
      }
      const response = await invoke({
        method: req.method ?? 'GET',
        url: req.url ?? '/',
        headers: req.headersDistinct,
        body,
        sourceIp: (req.socket.remoteAddress ?? '127.0.0.1').replace(/^::ffff:/, ''),
        protocol: `HTTP/${req.httpVersion}`,
      });
      writeResponse(res, response);
    },
    async warm() {
      // One at a time, in the manifest's order (the session's and the catalog's first, what a
      // first page asks for), so that a request for either does not wait behind the others.
      for (const group of routeGroups) await handlerOf(group);
    },
  };
}

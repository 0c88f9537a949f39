import middy from '@middy/core';
import httpRouterHandler from '@middy/http-router';
import type { ApiScope } from '@tunesmith/shared/api-routes';
import { messages } from '@tunesmith/shared/messages';
import { type RouteDef, type RouteGroup, type RouteId, routesOfGroup } from '@tunesmith/shared/routes';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { metrics } from '../adapters/lazy-metrics';
import { lazySdk } from '../adapters/lazy-sdk';
import { originSecretFromEnv } from '../adapters/secrets/origin-secret';
import { startTracing } from '../adapters/tracing';
import type { AdminUser } from '../domain/accounts/admin';
import type { User } from '../domain/accounts/user';
import type { ApiCall, AuthenticatedKey } from '../domain/developers/api-keys';
import { assertSameOrigin } from './csrf';
import { errorToResponse, jsonErrors } from './errors';
import { logger } from './logger';
import { createOriginLock, type OriginLock } from './origin-lock';
import { header, pathParams } from './request';
import { type ApiResult, errorJson, HttpError, json } from './responses';
import type { Sessions } from './session';

/** What a route handler receives besides the raw event. */
export interface RouteContext {
  route: RouteDef;
  params: Record<string, string>;
  lambda: Context;
  /** The signed-in user, on routes whose auth is `user`; the key's owner on `key` routes. */
  user?: User;
  /** The API key the call was made with, on routes whose auth is `key` (decision 052). */
  apiKey?: { id: string; userId: string; scopes: ApiScope[] };
  /** The signed-in administrator, on routes whose auth is `admin`. */
  admin?: AdminUser;
  /** Set-Cookie values to add to the response (e.g. refreshed session tokens). */
  cookies: string[];
}

export interface GroupOptions {
  /** Session kinds this group's routes need (required when it has `user` or `admin` routes). */
  sessions?: { user?: Sessions<User>; admin?: Sessions<AdminUser> };
  /**
   * Checks the API key of a call of a `key` route (required when the group
   * has them): its owner, or a 401/403/429 thrown (decision 052). Given by the
   * group, so groups without keys load none of it.
   */
  authorizeKey?: (call: ApiCall) => Promise<{ key: AuthenticatedKey; user: User }>;
  /** Rewrites the group's every answer (e.g. `/api/v1`'s own error shape, decision 052). */
  answerShape?: (result: ApiResult) => ApiResult;
  /** The site's public origin for the CSRF check; read from PUBLIC_ORIGIN by default. */
  publicOrigin?: () => string | undefined;
  /**
   * Reads the values CloudFront's `x-origin-verify` header may carry (the
   * secret's current and previous value); when set, every call but the signed
   * webhooks must come through CloudFront (decisions 007 and 035). Read from
   * the secret ORIGIN_SECRET_ARN names by default; none locally.
   */
  originSecret?: () => Promise<string[]>;
}

/** The header CloudFront adds to every request it sends to the API. */
export const ORIGIN_VERIFY_HEADER = 'x-origin-verify';

/** A 403 unless the request came through CloudFront (it carries the origin secret). */
async function assertThroughEdge(event: APIGatewayProxyEventV2, lock: OriginLock): Promise<void> {
  if (!(await lock(event.headers?.[ORIGIN_VERIFY_HEADER]))) throw new HttpError(403, 'Forbidden');
}

export type RouteHandler = (event: APIGatewayProxyEventV2, ctx: RouteContext) => Promise<ApiResult>;

export type GroupHandlers = Partial<Record<RouteId, RouteHandler>>;

export type LambdaHandler = (event: APIGatewayProxyEventV2, context: Context) => Promise<ApiResult>;

/**
 * The handlers of `ids`, made by `load` on the first call of one of them: a
 * group's rarer routes bring their code (domain, adapters, schemas) in with
 * `await import()` then, not with the cold start (decision 042). Loaded once,
 * as {@link lazySdk} loads a client; a failed load is tried again on the next call.
 */
export function lazyRoutes(ids: readonly RouteId[], load: () => Promise<GroupHandlers>): GroupHandlers {
  const loaded = lazySdk(load, (handlers) => handlers);
  const handlers: GroupHandlers = {};
  for (const id of ids) {
    handlers[id] = async (event, ctx) => {
      const handler = (await loaded()).client[id];
      if (!handler) throw new Error(`Route ${id} is not among the routes loaded for it`);
      return handler(event, ctx);
    };
  }
  return handlers;
}

const notImplemented: RouteHandler = async () => {
  throw new HttpError(501, messages.notImplemented);
};

/**
 * Builds the Lambda handler of one route group: the manifest's routes for the
 * group, each bound to its handler (501 until its feature is built), behind
 * the shared middleware stack (JSON errors, access log).
 */
export function createGroupHandler(
  group: RouteGroup,
  handlers: GroupHandlers,
  options: GroupOptions = {},
): LambdaHandler {
  const groupRoutes = routesOfGroup(group);
  for (const id of Object.keys(handlers)) {
    if (!groupRoutes.some((route) => route.id === id)) {
      throw new Error(`Route ${id} is not part of group ${group}`);
    }
  }
  if (groupRoutes.some((route) => route.auth === 'key') && !(options.authorizeKey && options.answerShape)) {
    // The developer API's calls are never let through unchecked, nor answered in the app's error shape.
    throw new Error(`Group ${group} has key routes: it needs authorizeKey and answerShape`);
  }
  const publicOrigin = options.publicOrigin ?? (() => process.env.PUBLIC_ORIGIN);
  const readOriginSecret = 'originSecret' in options ? options.originSecret : originSecretFromEnv();
  const originLock = readOriginSecret ? createOriginLock(readOriginSecret) : undefined;
  const router = httpRouterHandler({
    routes: groupRoutes.map((route) => {
      const handler = handlers[route.id as RouteId] ?? notImplemented;
      return {
        method: route.method,
        path: route.path,
        handler: (event: APIGatewayProxyEventV2, lambda: Context) =>
          runRoute(route, handler, event, lambda, options, publicOrigin, originLock),
      };
    }),
    // The group's Lambda only receives its own routes on AWS; locally the adapter may still send others.
    notFoundResponse: (() => errorJson(404, messages.notFound)) as unknown as () => never,
  });

  const handler = middy<APIGatewayProxyEventV2, ApiResult>()
    .use(observed())
    .use(accessLog(group))
    .use(jsonErrors())
    .handler(router as unknown as LambdaHandler) as unknown as LambdaHandler;
  const shape = options.answerShape;
  if (!shape) return handler;
  // After every middleware, so that no answer (a 404 of no route, a 500) escapes it.
  return async (event, context) => shape(await handler(event, context));
}

/**
 * One route through the checks every route shares: CSRF on state-changing
 * calls (webhooks verify their own signatures instead; key calls carry no
 * cookies to forge), the session or API key the route's auth level asks for,
 * then the handler; cookies the checks or the handler produced are added to
 * the response.
 */
async function runRoute(
  route: RouteDef,
  handler: RouteHandler,
  event: APIGatewayProxyEventV2,
  lambda: Context,
  options: GroupOptions,
  publicOrigin: () => string | undefined,
  originLock: OriginLock | undefined,
): Promise<ApiResult> {
  if (route.auth !== 'webhook') {
    // Signed webhooks come straight to API Gateway; everything else only through CloudFront.
    if (originLock) await assertThroughEdge(event, originLock);
    if (route.auth !== 'key') assertSameOrigin(event, publicOrigin());
  }
  const ctx: RouteContext = { route, params: {}, lambda, cookies: [] };
  if (route.auth === 'key') {
    if (!options.authorizeKey) throw new Error(`Group of route ${route.id} has no API keys`);
    // Cookies are never read here: a browser session does not work on the developer API.
    const { key, user } = await options.authorizeKey({
      authorization: header(event, 'authorization'),
      scope: route.scope,
      // Every POST of the API starts work or is made only to start it (an upload to restyle).
      startsWork: route.method === 'POST',
    });
    ctx.apiKey = { id: key.keyId, userId: key.userId, scopes: key.scopes };
    ctx.user = user;
  }
  if (route.auth === 'user' || route.auth === 'admin') {
    const sessions = route.auth === 'user' ? options.sessions?.user : options.sessions?.admin;
    if (!sessions) throw new Error(`Group of route ${route.id} has no ${route.auth} sessions`);
    const session = await sessions.authenticate(event);
    if (!session) {
      // Stale cookies are cleared so the browser stops sending them.
      return json(
        401,
        { message: 'Unauthorized' },
        sessions.present(event) ? { cookies: sessions.clear() } : {},
      );
    }
    if (route.auth === 'user') ctx.user = session.principal as User;
    else ctx.admin = session.principal as AdminUser;
    ctx.cookies.push(...session.cookies);
  }
  let result: ApiResult;
  try {
    ctx.params = pathParams(event);
    result = await handler(event, ctx);
  } catch (error) {
    if (ctx.cookies.length === 0) throw error;
    result = errorToResponse(error);
  }
  if (ctx.cookies.length === 0) return result;
  return { ...result, cookies: [...(result.cookies ?? []), ...ctx.cookies] };
}

/**
 * Per invocation: the request's id as the logs' correlation id (API Gateway's,
 * which its own access log carries too) with the function's context, tracing
 * started before any SDK call, and the metrics the route counted published.
 */
function observed(): middy.MiddlewareObj<APIGatewayProxyEventV2, ApiResult> {
  return {
    before: async (request) => {
      logger.resetKeys();
      logger.addContext(request.context);
      logger.setCorrelationId(request.event.requestContext?.requestId ?? request.context?.awsRequestId);
      await startTracing();
    },
    after: async () => metrics.flush(),
    onError: async () => metrics.flush(),
  };
}

function accessLog(group: RouteGroup): middy.MiddlewareObj<APIGatewayProxyEventV2, ApiResult> {
  const started = new WeakMap<object, number>();
  const log = (request: middy.Request<APIGatewayProxyEventV2, ApiResult>) => {
    const response = request.response;
    logger.info('request', {
      group,
      method: request.event.requestContext?.http?.method,
      // The route template, not the raw path: paths can carry one-time tokens.
      route: request.event.routeKey,
      status: response && typeof response === 'object' ? response.statusCode : undefined,
      ms: Date.now() - (started.get(request) ?? Date.now()),
    });
  };
  return {
    before: async (request) => {
      started.set(request, Date.now());
    },
    after: async (request) => log(request),
    onError: async (request) => {
      // jsonErrors (registered after this) has already set the response by now.
      log(request);
    },
  };
}

import middy from '@middy/core';
import httpRouterHandler from '@middy/http-router';
import { messages } from '@tunesmith/shared/messages';
import { type RouteDef, type RouteGroup, type RouteId, routesOfGroup } from '@tunesmith/shared/routes';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { jsonErrors } from './errors';
import { logger } from './logger';
import { type ApiResult, errorJson, HttpError } from './responses';

/** What a route handler receives besides the raw event. */
export interface RouteContext {
  route: RouteDef;
  params: Record<string, string>;
  lambda: Context;
}

export type RouteHandler = (event: APIGatewayProxyEventV2, ctx: RouteContext) => Promise<ApiResult>;

export type GroupHandlers = Partial<Record<RouteId, RouteHandler>>;

export type LambdaHandler = (event: APIGatewayProxyEventV2, context: Context) => Promise<ApiResult>;

const notImplemented: RouteHandler = async () => {
  throw new HttpError(501, messages.notImplemented);
};

/**
 * Builds the Lambda handler of one route group: the manifest's routes for the
 * group, each bound to its handler (501 until its feature is built), behind
 * the shared middleware stack (JSON errors, access log).
 */
export function createGroupHandler(group: RouteGroup, handlers: GroupHandlers): LambdaHandler {
  const groupRoutes = routesOfGroup(group);
  for (const id of Object.keys(handlers)) {
    if (!groupRoutes.some((route) => route.id === id)) {
      throw new Error(`Route ${id} is not part of group ${group}`);
    }
  }
  const router = httpRouterHandler({
    routes: groupRoutes.map((route) => {
      const handler = handlers[route.id as RouteId] ?? notImplemented;
      return {
        method: route.method,
        path: route.path,
        handler: (event: APIGatewayProxyEventV2, lambda: Context) =>
          handler(event, { route, params: (event.pathParameters ?? {}) as Record<string, string>, lambda }),
      };
    }),
    // The group's Lambda only receives its own routes on AWS; locally the adapter may still send others.
    notFoundResponse: (() => errorJson(404, messages.notFound)) as unknown as () => never,
  });

  return middy<APIGatewayProxyEventV2, ApiResult>()
    .use(accessLog(group))
    .use(jsonErrors())
    .handler(router as unknown as LambdaHandler) as unknown as LambdaHandler;
}

function accessLog(group: RouteGroup): middy.MiddlewareObj<APIGatewayProxyEventV2, ApiResult> {
  const started = new WeakMap<object, number>();
  const log = (request: middy.Request<APIGatewayProxyEventV2, ApiResult>) => {
    const response = request.response;
    logger.info('request', {
      group,
      method: request.event.requestContext?.http?.method,
      path: request.event.rawPath,
      status: response && typeof response === 'object' ? response.statusCode : undefined,
      ms: Date.now() - (started.get(request) ?? Date.now()),
      requestId: request.context?.awsRequestId,
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

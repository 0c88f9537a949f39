import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import type { GroupHandlers } from '../group-handler';
import { generatedOpenApi } from '../openapi.gen';
import { json } from '../responses';

export interface OpenApiRouteOptions {
  /** The site's public origin, the document's server; by default PUBLIC_ORIGIN, else the request's own. */
  publicOrigin?: () => string | undefined;
}

/** The origin the request came to, for a deployment that names none. */
function requestOrigin(event: APIGatewayProxyEventV2): string {
  const host = event.headers?.['x-forwarded-host'] ?? event.headers?.host ?? event.requestContext?.domainName;
  const proto = event.headers?.['x-forwarded-proto'] ?? 'https';
  return `${proto}://${host}`;
}

/**
 * `GET /api/v1/openapi.json`: public and the same for everyone, so browsers
 * and the CDN may keep it for five minutes.
 *
 * It serves the document `npm run openapi` generated from the manifest and
 * the schemas (`../openapi.ts`; a unit test fails when it is stale), not one
 * generated here: zod's JSON Schema code shares modules with the validation
 * every call runs, so even loaded later it would land in the group's cold
 * start, past decision 042's budget. Bind it with `lazyRoutes`: the document
 * itself is 28 KB the other calls need not read.
 */
export function openApiRoutes(options: OpenApiRouteOptions = {}): GroupHandlers {
  const publicOrigin = options.publicOrigin ?? (() => process.env.PUBLIC_ORIGIN);
  // One answer kept: a Host header is the caller's to choose, so a cache per origin could grow without end.
  let built: { origin: string; body: string } | undefined;
  return {
    v1OpenApi: async (event) => {
      const origin = (publicOrigin() ?? requestOrigin(event)).replace(/\/+$/, '');
      if (built?.origin !== origin) {
        built = { origin, body: JSON.stringify({ ...generatedOpenApi, servers: [{ url: origin }] }) };
      }
      return {
        ...json(200, null, { headers: { 'cache-control': 'public, max-age=300' } }),
        body: built.body,
      };
    },
  };
}

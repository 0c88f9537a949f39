/**
 * What a call of the product is: its Lambda route group, method, API Gateway
 * path and who may call it. The calls themselves are plain constants in
 * `calls/{group}.ts`, a module per route group, so the SPA's first code
 * carries only the groups it calls; the manifest (`routes.ts`) lists them all
 * for CDK, the local API and the handlers.
 */

/**
 * Who may call a route: anyone, a signed-in user (session cookies), an
 * administrator, a signed webhook, or a developer's API key
 * (`Authorization: Bearer ts_…`, cookies ignored; decision 052).
 */
export type RouteAuth = 'public' | 'user' | 'admin' | 'webhook' | 'key';
/** What an API key may do (decision 052): start work, or read what it made (listed in developer-api.ts). */
export type ApiScope = 'generate' | 'read';
export type HttpMethod = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export const routeGroups = [
  'auth',
  'catalog',
  'generation',
  'uploads',
  'billing',
  'webhooks',
  'admin-session',
  'admin',
  'developers',
  'api-v1',
  'community',
] as const;
export type RouteGroup = (typeof routeGroups)[number];

export interface RouteDef {
  /** Stable identifier, also the handler key inside the group. */
  readonly id: string;
  readonly group: RouteGroup;
  readonly method: HttpMethod;
  /** API Gateway style path with `{param}` placeholders. */
  readonly path: string;
  readonly auth: RouteAuth;
  /** On `key` routes: the scope the key must carry. */
  readonly scope?: ApiScope;
}

/**
 * Builds a concrete path for a route, filling `{param}` placeholders with
 * URI-encoded values.
 */
export function routePath(route: RouteDef, params: Record<string, string> = {}): string {
  return route.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`Missing path parameter ${name} for ${route.id}`);
    return encodeURIComponent(value);
  });
}

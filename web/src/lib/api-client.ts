import { type RouteDef, routePath } from '@tunesmith/shared/api-routes';

/**
 * A non-ok API answer. The message follows the spec's format,
 * `${status}: ${body text or status text}`, so callers can match on it.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: string,
    statusText: string,
  ) {
    super(`${status}: ${body || statusText}`);
    this.name = 'ApiError';
  }
}

export interface RequestOptions {
  /** Values for the route's `{param}` placeholders. */
  params?: Record<string, string>;
  /** Search parameters; an undefined value is left out. */
  query?: Record<string, string | undefined>;
  /**
   * Sent as JSON. When omitted, reads send no body and writes send `{}`: the
   * API refuses a mutating request that does not carry JSON (CSRF check).
   */
  body?: unknown;
  signal?: AbortSignal;
}

/**
 * Calls an API route (one of `@tunesmith/shared/api-routes`, so a page's code
 * carries only the calls it makes) with the session cookies.
 * Resolves with the parsed JSON (or undefined for an empty answer) and throws
 * an {@link ApiError} for any non-ok status.
 */
export async function apiRequest<T>(route: RouteDef, options: RequestOptions = {}): Promise<T> {
  const body = options.body === undefined && route.method !== 'GET' ? {} : options.body;
  const hasBody = body !== undefined;
  const response = await fetch(withQuery(routePath(route, options.params), options.query), {
    method: route.method,
    credentials: 'include',
    headers: hasBody
      ? { Accept: 'application/json', 'Content-Type': 'application/json' }
      : { Accept: 'application/json' },
    body: hasBody ? JSON.stringify(body) : undefined,
    signal: options.signal,
  });
  const text = await response.text();
  if (!response.ok) throw new ApiError(response.status, text, response.statusText);
  return (text ? JSON.parse(text) : undefined) as T;
}

function withQuery(path: string, query: RequestOptions['query'] = {}): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined) search.set(name, value);
  }
  const text = search.toString();
  return text ? `${path}?${text}` : path;
}

/** True when an error says the session is missing or expired (a 401 followed by Unauthorized). */
export function isUnauthorizedError(error: unknown): boolean {
  return error instanceof Error && /^401: .*Unauthorized/.test(error.message);
}

/** True for a 404: what was asked for does not exist, or is not this user's to see. */
export function isNotFoundError(error: unknown): boolean {
  return error instanceof ApiError && error.status === 404;
}

/**
 * The message the server gave for a failure (`{ "message": ... }` bodies), or
 * the fallback when there is none.
 */
export function serverMessage(error: unknown, fallback: string): string {
  if (error instanceof ApiError && error.body) {
    try {
      const parsed: unknown = JSON.parse(error.body);
      if (parsed && typeof parsed === 'object' && 'message' in parsed && typeof parsed.message === 'string') {
        return parsed.message || fallback;
      }
    } catch {
      return fallback;
    }
  }
  return fallback;
}

/**
 * What a refused request says: the server's own message for a 4xx (the user can
 * act on it: a plan limit, an unfinished track, a bad value), else the fallback.
 * A 5xx body is the server's business, not the user's.
 */
export function refusalMessage(error: unknown, fallback: string): string {
  return error instanceof ApiError && error.status >= 400 && error.status < 500
    ? serverMessage(error, fallback)
    : fallback;
}

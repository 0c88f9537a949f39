import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';

export type ApiResult = APIGatewayProxyStructuredResultV2;

/** Error carrying an HTTP status and a user-facing message. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

const baseHeaders = {
  'content-type': 'application/json; charset=utf-8',
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
};

/** A JSON response. API answers are never cached unless a route says otherwise. */
export function json(
  statusCode: number,
  body: unknown,
  options: { headers?: Record<string, string>; cookies?: string[] } = {},
): ApiResult {
  return {
    statusCode,
    headers: { ...baseHeaders, ...options.headers },
    body: JSON.stringify(body),
    ...(options.cookies?.length ? { cookies: options.cookies } : {}),
  };
}

/** A `{ message }` error body, the one error shape of the API. */
export const errorJson = (statusCode: number, message: string): ApiResult => json(statusCode, { message });

/** A 302 to `location`, cached as `cacheControl` says (a redirect to a signed link must not outlive the link). */
export function redirect(location: string, cacheControl: string): ApiResult {
  return {
    statusCode: 302,
    headers: { location, 'cache-control': cacheControl, 'x-content-type-options': 'nosniff' },
    body: '',
  };
}

import { v1ErrorCodes } from '@tunesmith/shared/api-v1-schemas';
import { messages } from '@tunesmith/shared/messages';
import type { ApiResult } from './responses';

/** The code of a `/api/v1` error of `status`: its own, else the one of its class. */
function v1Code(status: number): string {
  const codes: Record<number, string> = v1ErrorCodes;
  return codes[status] ?? (status >= 500 ? v1ErrorCodes[500] : v1ErrorCodes[400]);
}

/**
 * The developer API's error shape (decision 052), `{ error: { code, message } }`,
 * made of an answer in the app's `{ message }` shape, with the app's message;
 * other answers pass as they are. Headers stay (Retry-After); cookies go,
 * since no `/api/v1` answer may set one.
 */
export function v1ErrorShape(result: ApiResult): ApiResult {
  const { cookies: _cookies, ...answer } = result;
  const status = answer.statusCode ?? 200;
  if (status < 400) return answer;
  let body: { error?: unknown; message?: unknown } | undefined;
  try {
    body = JSON.parse(typeof answer.body === 'string' ? answer.body : '');
  } catch {
    body = undefined;
  }
  if (body && typeof body.error === 'object' && body.error !== null) return answer;
  const message = typeof body?.message === 'string' ? body.message : messages.internalError;
  return {
    ...answer,
    headers: {
      ...answer.headers,
      'content-type': 'application/json; charset=utf-8',
      'cache-control': 'no-store',
    },
    body: JSON.stringify({ error: { code: v1Code(status), message } }),
  };
}

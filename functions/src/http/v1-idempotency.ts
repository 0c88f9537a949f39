import { IDEMPOTENCY_HEADER, type V1Error, v1ErrorCodes } from '@tunesmith/shared/api-v1-schemas';
import type { User } from '../domain/accounts/user';
import {
  checkIdempotencyKey,
  type IdempotencyDeps,
  requestHash,
  runIdempotent,
  type StoredAnswer,
} from '../domain/developers/idempotency';
import { errorToResponse } from './errors';
import type { RouteHandler } from './group-handler';
import { bodyText, header } from './request';
import type { ApiResult } from './responses';

/** The header a replayed answer carries. */
export const IDEMPOTENT_REPLAYED_HEADER = 'idempotent-replayed';

/** Headers a refusal carries that its replay must carry too. */
const KEPT_HEADERS = ['retry-after'];

const storedOf = (result: ApiResult): StoredAnswer => {
  const headers = Object.fromEntries(
    Object.entries(result.headers ?? {})
      .filter(([name]) => KEPT_HEADERS.includes(name.toLowerCase()))
      .map(([name, value]) => [name.toLowerCase(), String(value)]),
  );
  return {
    statusCode: result.statusCode ?? 200,
    body: result.body ?? '',
    ...(Object.keys(headers).length ? { headers } : {}),
  };
};

/**
 * A thrown error as `/api/v1` answers it (`{ error: { code, message } }`),
 * for the stored copy a repeat replays; the first answer is made from the
 * same error by the group's own error handling.
 */
export function v1RefusalOf(error: unknown): StoredAnswer {
  const response = errorToResponse(error);
  const status = response.statusCode ?? 500;
  let message = '';
  try {
    message = String((JSON.parse(response.body ?? '{}') as { message?: unknown }).message ?? '');
  } catch {
    // errorToResponse always answers JSON; an empty message is the fallback, never a crash.
  }
  const code = v1ErrorCodes[status as keyof typeof v1ErrorCodes] ?? v1ErrorCodes[500];
  const body: V1Error = { error: { code, message } };
  return storedOf({ ...response, body: JSON.stringify(body) });
}

const replay = (answer: StoredAnswer): ApiResult => ({
  statusCode: answer.statusCode,
  headers: {
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
    ...answer.headers,
    [IDEMPOTENT_REPLAYED_HEADER]: 'true',
  },
  body: answer.body,
});

/**
 * `handler` made idempotent by the request's `Idempotency-Key` (decision
 * 055), per key owner: a repeat within 24 hours gets the first answer with
 * `Idempotent-Replayed: true` and runs nothing. Without the header the
 * request simply runs.
 */
export function idempotentPost(deps: IdempotencyDeps, handler: RouteHandler): RouteHandler {
  return async (event, ctx) => {
    const value = header(event, IDEMPOTENCY_HEADER);
    if (value === undefined) return handler(event, ctx);
    const key = checkIdempotencyKey(value);
    const user = ctx.user as User;
    const hash = requestHash({
      method: event.requestContext?.http?.method ?? ctx.route.method,
      path: event.rawPath ?? ctx.route.path,
      body: bodyText(event),
    });
    let first: ApiResult | undefined;
    const { answer, replayed } = await runIdempotent(
      deps,
      { userId: user.id, key, requestHash: hash },
      async () => {
        first = await handler(event, ctx);
        return storedOf(first);
      },
      v1RefusalOf,
    );
    return !replayed && first ? first : replay(answer);
  };
}

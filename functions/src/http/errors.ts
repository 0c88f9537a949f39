import type { MiddlewareObj } from '@middy/core';
import { messages } from '@tunesmith/shared/messages';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { DomainError, type DomainErrorKind } from '../domain/errors';
import { logger } from './logger';
import { type ApiResult, errorJson, HttpError, json } from './responses';

const statusOfKind: Record<DomainErrorKind, number> = {
  validation: 400,
  unauthorized: 401,
  'payment-required': 402,
  forbidden: 403,
  'not-found': 404,
  conflict: 409,
  'idempotency-mismatch': 422,
  quota: 429,
  'rate-limited': 429,
  unavailable: 503,
};

/** Seconds a client should wait before retrying a call that met a busy or stalled service. */
export const RETRY_AFTER_SECONDS = 2;

const transientNames = new Set([
  'TimeoutError',
  'RequestTimeout',
  'RequestTimeoutException',
  'ThrottlingException',
  'Throttling',
  'ProvisionedThroughputExceededException',
  'RequestLimitExceeded',
  'TooManyRequestsException',
  'ServiceUnavailable',
  'ServiceUnavailableException',
  'InternalServerError',
  'InternalFailure',
]);
const transientCodes = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EAI_AGAIN']);

/**
 * Whether an error is a dependency that timed out, throttled us or was not
 * there (after the SDK's own retry): worth a retry later, not a bug.
 */
export function isTransientServiceError(error: unknown): boolean {
  const e = error as { name?: unknown; code?: unknown; $metadata?: { httpStatusCode?: number } } | null;
  if (!e || typeof e !== 'object') return false;
  if (typeof e.name === 'string' && transientNames.has(e.name)) return true;
  if (typeof e.code === 'string' && transientCodes.has(e.code)) return true;
  const status = e.$metadata?.httpStatusCode;
  return status === 503 || status === 429;
}

/** Maps any thrown value to the API's `{ message }` JSON shape. Never leaks a stack. */
export function errorToResponse(error: unknown): ApiResult {
  if (isTransientServiceError(error)) {
    logger.warn('dependency unavailable', { error });
    return json(
      503,
      { message: messages.serviceUnavailable },
      { headers: { 'retry-after': String(RETRY_AFTER_SECONDS) } },
    );
  }
  if (error instanceof DomainError) {
    // A refusal that knows when a retry can succeed (a rate window's end) says so.
    const retryAfter = error.details?.retryAfter;
    return json(
      statusOfKind[error.kind],
      { ...error.details, message: error.message },
      typeof retryAfter === 'number' ? { headers: { 'retry-after': String(retryAfter) } } : {},
    );
  }
  if (error instanceof HttpError) return errorJson(error.statusCode, error.message);
  const maybe = error as { statusCode?: unknown; expose?: unknown; message?: unknown };
  if (typeof maybe?.statusCode === 'number' && maybe.statusCode >= 400 && maybe.statusCode < 500) {
    const message = maybe.expose && typeof maybe.message === 'string' ? maybe.message : messages.notFound;
    return errorJson(maybe.statusCode, message);
  }
  logger.error('unhandled error', { error });
  return errorJson(500, messages.internalError);
}

/** middy middleware: turns errors into JSON responses. */
export function jsonErrors(): MiddlewareObj<APIGatewayProxyEventV2, ApiResult> {
  return {
    onError: async (request) => {
      request.response = errorToResponse(request.error);
    },
  };
}

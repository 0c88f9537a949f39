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
  quota: 429,
  'rate-limited': 429,
  unavailable: 503,
};

/** Maps any thrown value to the API's `{ message }` JSON shape. Never leaks a stack. */
export function errorToResponse(error: unknown): ApiResult {
  if (error instanceof DomainError) {
    return json(statusOfKind[error.kind], { ...error.details, message: error.message });
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

import { messages } from '@tunesmith/shared/messages';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import type * as z from 'zod';
import { validationError } from '../domain/errors';

/** The request body as text (API Gateway may hand it over base64-encoded). */
export function bodyText(event: APIGatewayProxyEventV2): string {
  if (!event.body) return '';
  return event.isBase64Encoded ? Buffer.from(event.body, 'base64').toString('utf8') : event.body;
}

/**
 * Parses and validates a JSON body. Bad JSON or a failed rule is a 400 whose
 * message is the first rule's own (user-facing) message.
 */
export function readJson<S extends z.ZodType>(event: APIGatewayProxyEventV2, schema: S): z.infer<S> {
  const text = bodyText(event);
  let value: unknown = {};
  if (text.trim() !== '') {
    try {
      value = JSON.parse(text);
    } catch {
      throw validationError(messages.invalidJson);
    }
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw validationError(issue?.message ?? 'Invalid request', { field: issue?.path.join('.') });
  }
  return parsed.data;
}

/** Validates the query string; a failed rule is a 400 with the rule's message. */
export function readQuery<S extends z.ZodType>(event: APIGatewayProxyEventV2, schema: S): z.infer<S> {
  const parsed = schema.safeParse(event.queryStringParameters ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw validationError(issue?.message ?? 'Invalid request', { field: issue?.path.join('.') });
  }
  return parsed.data;
}

/**
 * The caller's address for rate limiting. API Gateway appends the address it
 * saw to X-Forwarded-For; each trusted proxy in front of it (CloudFront on AWS,
 * the local edge server locally: `TRUSTED_PROXY_HOPS`, default 0) appended the
 * address it saw before that. Counting that many hops back from the end gives
 * the first address no client could write itself.
 */
export function clientAddress(
  event: APIGatewayProxyEventV2,
  trustedHops = Number(process.env.TRUSTED_PROXY_HOPS ?? 0),
): string {
  const entries = (event.headers?.['x-forwarded-for'] ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  const index = entries.length - 1 - (Number.isInteger(trustedHops) && trustedHops > 0 ? trustedHops : 0);
  return entries[Math.max(0, index)] ?? event.requestContext?.http?.sourceIp ?? 'unknown';
}

export function header(event: APIGatewayProxyEventV2, name: string): string | undefined {
  return event.headers?.[name.toLowerCase()];
}

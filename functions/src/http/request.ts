import { isIP } from 'node:net';
import { messages } from '@tunesmith/shared/messages';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import type * as z from 'zod/mini';
import { validationError } from '../domain/errors';
import { HttpError } from './responses';

/** The request body as text (API Gateway may hand it over base64-encoded). */
export function bodyText(event: APIGatewayProxyEventV2): string {
  if (!event.body) return '';
  return event.isBase64Encoded ? Buffer.from(event.body, 'base64').toString('utf8') : event.body;
}

/**
 * Parses and validates a JSON body. Bad JSON or a failed rule is a 400 whose
 * message is the first rule's own (user-facing) message.
 */
export function readJson<S extends z.ZodMiniType>(event: APIGatewayProxyEventV2, schema: S): z.infer<S> {
  return validate(schema, jsonBody(event));
}

/** Parses the raw JSON text of a body (`{}` when empty); bad JSON is a 400. */
export function jsonBody(event: APIGatewayProxyEventV2): unknown {
  const text = bodyText(event);
  if (text.trim() === '') return {};
  try {
    return JSON.parse(text);
  } catch {
    throw validationError(messages.invalidJson);
  }
}

/** Validates a value already read; a failed rule is a 400 whose message is the first rule's own. */
export function validate<S extends z.ZodMiniType>(schema: S, value: unknown): z.infer<S> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw validationError(issue?.message ?? 'Invalid request', { field: issue?.path.join('.') });
  }
  return parsed.data;
}

/** Validates the query string; a failed rule is a 400 with the rule's message. */
export function readQuery<S extends z.ZodMiniType>(event: APIGatewayProxyEventV2, schema: S): z.infer<S> {
  const parsed = schema.safeParse(event.queryStringParameters ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw validationError(issue?.message ?? 'Invalid request', { field: issue?.path.join('.') });
  }
  return parsed.data;
}

/** An IPv4 or IPv6 address (no zone id), lowercased; undefined for anything else. */
function ipAddress(value: string | undefined): string | undefined {
  if (!value || value.length > 45 || value.includes('%')) return undefined;
  return isIP(value) ? value.toLowerCase() : undefined;
}

/**
 * The caller's address for rate limiting. API Gateway appends the address it
 * saw to X-Forwarded-For; each trusted proxy in front of it (CloudFront on AWS,
 * the local edge server locally: `TRUSTED_PROXY_HOPS`, default 0) appended the
 * address it saw before that. Counting that many hops back from the end gives
 * the first address no client could write itself. Only a well-formed IP
 * address is used (a key of bounded size); otherwise the connection's own.
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
  return (
    ipAddress(entries[Math.max(0, index)]) ?? ipAddress(event.requestContext?.http?.sourceIp) ?? 'unknown'
  );
}

/**
 * Every id in our paths (uuids, plan ids, mail tokens) is made of these, and
 * none is longer; anything else names nothing, so it is a 404 before any
 * store sees it (a DynamoDB key has a size limit).
 */
const PATH_PARAM = /^[A-Za-z0-9_-]{1,128}$/;
/** S3's multipart upload ids are longer and may carry dots and tildes; they never reach DynamoDB. */
const PATH_PARAM_OF: Record<string, RegExp> = { uploadId: /^[A-Za-z0-9._~-]{1,1024}$/ };

/** The route's path parameters, each checked; a 404 when one cannot be an id. */
export function pathParams(event: APIGatewayProxyEventV2): Record<string, string> {
  const params = (event.pathParameters ?? {}) as Record<string, string | undefined>;
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(params)) {
    if (value === undefined || !(PATH_PARAM_OF[name] ?? PATH_PARAM).test(value)) {
      throw new HttpError(404, messages.notFound);
    }
    out[name] = value;
  }
  return out;
}

export function header(event: APIGatewayProxyEventV2, name: string): string | undefined {
  return event.headers?.[name.toLowerCase()];
}

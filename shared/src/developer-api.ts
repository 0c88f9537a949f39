/**
 * The developer API's bodies and answers (decision 052): API keys, webhook
 * endpoints and `/api/v1`. The handlers parse with these schemas and the
 * OpenAPI document is generated from them, so the two cannot drift.
 */
import * as z from 'zod/mini';
import type { ApiScope } from './api-routes';
import './schema-messages';

// ---------------------------------------------------------------- API keys

/**
 * Every {@link ApiScope}, in the order the profile offers them. Here rather
 * than beside the type, which the site's first code carries.
 */
export const apiScopes = ['generate', 'read'] as const satisfies readonly ApiScope[];

/** At most this many keys a user holds at once (revoked ones do not count). */
export const API_KEYS_MAX = 10;
export const API_KEY_NAME_MAX = 60;

export const developerMessages = {
  keyNameRequired: 'Give the key a name.',
  keyNameTooLong: `A key's name is at most ${API_KEY_NAME_MAX} characters.`,
  scopesRequired: 'Choose at least one scope: generate or read.',
  scopeInvalid: 'A scope is generate or read.',
  tooManyKeys: `You have ${API_KEYS_MAX} API keys. Revoke one to create another.`,
  keyNotFound: 'API key not found.',
  noApiAccess: 'Your plan does not include API access.',
  keyMissing: 'Send your API key as "Authorization: Bearer <key>".',
  keyInvalid: 'This API key is not valid or has been revoked.',
  scopeMissing: (scope: ApiScope) => `This API key does not have the ${scope} scope.`,
  rateLimited: 'Too many requests for this API key. Try again shortly.',
  idempotencyKeyInvalid: 'Idempotency-Key must be 1 to 255 visible characters.',
  idempotencyInProgress: 'A request with this Idempotency-Key is still being processed. Retry shortly.',
  idempotencyMismatch: 'This Idempotency-Key was used with a different request.',
  webhookUrlInvalid: 'The webhook URL must be an https:// URL.',
  webhookUrlLocalOnly: 'The webhook URL must be an http:// or https:// URL.',
  webhookEventsRequired: 'Choose at least one event.',
  webhookEventInvalid: 'An event is track.completed, track.failed or stems.ready.',
  tooManyWebhooks: 'You have 5 webhook endpoints. Delete one to add another.',
  webhookUrlCredentials: 'The webhook URL must not contain a user name or password.',
  webhookUrlPrivate: 'The webhook URL must not point to a private, local or reserved address.',
  webhookNotFound: 'Webhook endpoint not found.',
} as const;

export const apiKeyScopesSchema = z
  .array(z.enum(apiScopes, { error: developerMessages.scopeInvalid }))
  .check(z.minLength(1, developerMessages.scopesRequired), z.maxLength(apiScopes.length));

/** `POST /api/user/api-keys` */
export const createApiKeySchema = z.object({
  name: z
    .string({ error: developerMessages.keyNameRequired })
    .check(
      z.trim(),
      z.minLength(1, developerMessages.keyNameRequired),
      z.maxLength(API_KEY_NAME_MAX, developerMessages.keyNameTooLong),
    ),
  scopes: z.pipe(
    apiKeyScopesSchema,
    z.transform((scopes) => [...new Set(scopes)]),
  ),
});
export type CreateApiKeyRequest = z.infer<typeof createApiKeySchema>;

/** An API key as its owner sees it: never the key itself, only its first characters. */
export const apiKeySchema = z.object({
  id: z.string(),
  name: z.string(),
  /** The key's first characters (`ts_live_ab12`), to tell keys apart. */
  prefix: z.string(),
  scopes: z.array(z.enum(apiScopes)),
  createdAt: z.string(),
  lastUsedAt: z.nullable(z.string()),
});
export type ApiKeyView = z.infer<typeof apiKeySchema>;

/** `201` of `POST /api/user/api-keys`: the key in full, shown this once. */
export const createdApiKeySchema = z.object({
  id: z.string(),
  key: z.string(),
  prefix: z.string(),
  name: z.string(),
  scopes: z.array(z.enum(apiScopes)),
  createdAt: z.string(),
});
export type CreatedApiKey = z.infer<typeof createdApiKeySchema>;

export const apiKeyListSchema = z.object({ keys: z.array(apiKeySchema) });

// ---------------------------------------------------------------- Webhooks

export const webhookEvents = ['track.completed', 'track.failed', 'stems.ready'] as const;
export type WebhookEventType = (typeof webhookEvents)[number];
/** The event "Send test event" delivers. */
export const WEBHOOK_TEST_EVENT = 'webhook.test';
export const WEBHOOK_ENDPOINTS_MAX = 5;
export const WEBHOOK_URL_MAX = 2048;
/** The header each delivery carries: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "t.body">`. */
export const WEBHOOK_SIGNATURE_HEADER = 'Tunesmith-Signature';
/** How old a signature a receiver should accept (and our examples do). */
export const WEBHOOK_TOLERANCE_SECONDS = 300;

/** `POST /api/user/webhooks`; the URL's scheme (https only on AWS) and address are checked by the server. */
export const createWebhookSchema = z.object({
  url: z
    .string({ error: developerMessages.webhookUrlInvalid })
    .check(z.trim(), z.minLength(1, developerMessages.webhookUrlInvalid), z.maxLength(WEBHOOK_URL_MAX)),
  events: z.pipe(
    z
      .array(z.enum(webhookEvents, { error: developerMessages.webhookEventInvalid }))
      .check(z.minLength(1, developerMessages.webhookEventsRequired), z.maxLength(webhookEvents.length)),
    z.transform((events) => [...new Set(events)]),
  ),
});
export type CreateWebhookRequest = z.infer<typeof createWebhookSchema>;

export const webhookEndpointSchema = z.object({
  id: z.string(),
  url: z.string(),
  events: z.array(z.enum(webhookEvents)),
  createdAt: z.string(),
});
export type WebhookEndpointView = z.infer<typeof webhookEndpointSchema>;

/** `201` of `POST /api/user/webhooks`: the signing secret (`whsec_…`), shown this once. */
export const createdWebhookSchema = z.object({
  ...webhookEndpointSchema.shape,
  secret: z.string(),
});

export const webhookEndpointListSchema = z.object({ endpoints: z.array(webhookEndpointSchema) });

/** One delivery of one event to one endpoint, as the profile lists it. */
export const webhookDeliverySchema = z.object({
  id: z.string(),
  event: z.string(),
  /** pending: a try is due; delivered: answered 2xx; failed: every try in 24 hours failed. */
  status: z.enum(['pending', 'delivered', 'failed']),
  attempts: z.number(),
  /** The last try's HTTP status; null when it got no answer (refused, timed out, not allowed). */
  responseStatus: z.nullable(z.number()),
  /** Why the last try failed, when it did. */
  error: z.nullable(z.string()),
  nextAttemptAt: z.nullable(z.string()),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type WebhookDeliveryView = z.infer<typeof webhookDeliverySchema>;

export const webhookDeliveryListSchema = z.object({ deliveries: z.array(webhookDeliverySchema) });

/** The JSON body of every delivery. */
export const webhookPayloadSchema = z.object({
  id: z.string(),
  type: z.string(),
  createdAt: z.string(),
  data: z.record(z.string(), z.unknown()),
});
export type WebhookPayload = z.infer<typeof webhookPayloadSchema>;

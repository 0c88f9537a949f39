/**
 * Key builders of the developer API's entities (API keys, idempotency
 * records, webhook endpoints and deliveries; decisions 052, 053 and 055),
 * rows of the table in keys.ts. Apart from {@link keys} so that the app's
 * route groups, which never read them, do not carry them in their cold start.
 */
export const developerKeys = {
  /** A user's API key (decision 052), in the user's partition; a revoked one stays until its TTL. */
  apiKey: (userId: string, id: string) => ({ pk: `USER#${userId}`, sk: `APIKEY#${id}` }),
  apiKeyPrefix: 'APIKEY#',
  /** A live key by the SHA-256 of the key: what a call with it reads. Deleted when the key is revoked. */
  apiKeyByHash: (hash: string) => ({ pk: `APIKEYHASH#${hash}`, sk: 'APIKEY' }),
  /** How many live keys a user holds: the condition that keeps it at most the limit. */
  apiKeyCount: (userId: string) => ({ pk: `USER#${userId}`, sk: 'APIKEYS' }),
  /** An `/api/v1` POST's idempotency record (decision 055): one per key owner and Idempotency-Key, 24 hours. */
  idempotency: (userId: string, key: string) => ({ pk: `IDEMPOTENCY#${userId}`, sk: `KEY#${key}` }),
  /** A user's webhook endpoint (decision 053), beside their profile: listed by the sort key's prefix. */
  webhookEndpoint: (userId: string, id: string) => ({ pk: `USER#${userId}`, sk: `WEBHOOK#${id}` }),
  webhookEndpointPrefix: 'WEBHOOK#',
  /** How many endpoints a user has: the limit's conditional counter. */
  webhookCount: (userId: string) => ({ pk: `USER#${userId}`, sk: 'WEBHOOK_COUNT' }),
  /** One delivery of one event to one endpoint, kept for its log's days (TTL). */
  webhookDelivery: (id: string) => ({ pk: `WHDELIVERY#${id}`, sk: 'DELIVERY' }),
  /** An endpoint's deliveries, newest first, in gsi1. */
  webhookDeliveryOwner: (endpointId: string, createdAt: string, id: string) => ({
    gsi1pk: `WEBHOOK#${endpointId}`,
    gsi1sk: `DELIVERY#${createdAt}#${id}`,
  }),
  webhookDeliveryOwnerPartition: (endpointId: string) => `WEBHOOK#${endpointId}`,
  /** Sparse in gsi2: only pending deliveries carry it, ordered by when their next try is due. */
  webhookDeliveryDue: (nextAttemptAt: string, id: string) => ({
    gsi2pk: 'WEBHOOKS_DUE',
    gsi2sk: `${nextAttemptAt}#${id}`,
  }),
  webhooksDuePartition: 'WEBHOOKS_DUE',
};

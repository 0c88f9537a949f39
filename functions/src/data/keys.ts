/**
 * The single-table layout: attribute names, indexes and key builders for every
 * entity. The CDK table and the local cloud's table are both built from
 * {@link tableDesign}; repositories build keys only through {@link keys}.
 * Free of any SDK so infra can import it.
 *
 * | entity            | pk                 | sk                 | gsi1 (pk / sk)                  | gsi2 (pk / sk)         | gallery (pk / sk)   |
 * |-------------------|--------------------|--------------------|---------------------------------|------------------------|---------------------|
 * | plan              | PLAN#id            | PLAN               | PLANS / sortOrder#name          |                        |                     |
 * | setting           | SETTINGS           | SETTING#key        |                                 |                        |                     |
 * | model settings    | SETTINGS           | MODELS             |                                 |                        |                     |
 * | user              | USER#id            | PROFILE            |                                 | USERS / createdAt#id   |                     |
 * | generation        | TRACK#id           | TRACK              | USER#userId / TRACK#createdAt#id| TRACKS / createdAt#id  | GALLERY / createdAt#id (sparse) |
 *   (a listed generation is also in `ranking` as CREATOR#userId / createdAt in epoch ms; community entities: community-keys.ts)
 * | timed lyrics      | TRACK#id           | LYRICS             |                                 |                        |                     |
 * | user search token | USER#id            | SEARCH#field       | USERSEARCH#c / token#id         |                        |                     |
 * | plan membership   | (on the user item) |                    | PLANUSERS#planId / id           |                        |                     |
 * | totals            | COUNTERS           | TOTALS             |                                 |                        |                     |
 * | daily stats       | STATS#yyyy-mm-dd   | STATS              |                                 |                        |                     |
 * | usage analytics   | ANALYTICS#date     | ANALYTICS          |                                 | ANALYTICS / date       |                     |
 * | audit record      | AUDIT              | at#id              | (expires: TTL)                  |                        |                     |
 * | email claim       | EMAIL#email        | EMAIL              |                                 |                        |                     |
 * | admin             | ADMIN#username     | PROFILE            |                                 |                        |                     |
 * | one-time token    | TOKEN#purpose#hash | TOKEN              | (expires: TTL)                  |                        |                     |
 * | admin sign-in     | ADMINSIGNIN#hash   | PENDING            | (expires: TTL)                  |                        |                     |
 * | rate counter      | RATE#key#window    | RATE               | (expires: TTL)                  |                        |                     |
 * | revoked session   | REVOKED#tokenHash  | REVOKED            | (expires: TTL)                  |                        |                     |
 * | workflow callback | CALLBACK#requestId | CALLBACK           | (expires: TTL)                  |                        |                     |
 * | payment customer  | STRIPE_CUSTOMER#id | CUSTOMER           |                                 |                        |                     |
 * | payment event     | STRIPE_EVENT#id    | RECEIPT            | (expires: TTL)                  |                        |                     |
 * | export            | EXPORT#id          | EXPORT             | USER#userId / EXPORT#createdAt#id (expires: TTL) |       |                     |
 * | export slot       | USER#id            | EXPORT_SLOT        | (expires: TTL)                  |                        |                     |
 * | API key           | USER#id            | APIKEY#id          | (revoked: expires, TTL)         |                        |                     |
 * | API key by hash   | APIKEYHASH#hash    | APIKEY             |                                 |                        |                     |
 * | API key count     | USER#id            | APIKEYS            |                                 |                        |                     |
 * | idempotency record| IDEMPOTENCY#userId | KEY#idempotencyKey | (expires: TTL)                  |                        |                     |
 * | webhook endpoint  | USER#id            | WEBHOOK#id         |                                 |                        |                     |
 * | webhook count     | USER#id            | WEBHOOK_COUNT      |                                 |                        |                     |
 * | webhook delivery  | WHDELIVERY#id      | DELIVERY           | WEBHOOK#endpointId / DELIVERY#createdAt#id (expires: TTL) | WEBHOOKS_DUE / nextAttemptAt#id (sparse: pending only) | |
 */

export const tableDesign = {
  partitionKey: 'pk',
  sortKey: 'sk',
  /** Epoch seconds; items with it (tokens, rate-limit counters, receipts) expire. */
  ttlAttribute: 'expiresAt',
  indexes: {
    /** Items of one owner or collection in order: a user's library, plans by sort order. */
    byOwner: { indexName: 'gsi1', partitionKey: 'gsi1pk', sortKey: 'gsi1sk' },
    /** Every item of one kind for the admin area: all users, all tracks, newest first. */
    byKind: { indexName: 'gsi2', partitionKey: 'gsi2pk', sortKey: 'gsi2sk' },
    /** Sparse: only public, completed, gallery-visible tracks carry these attributes. */
    gallery: { indexName: 'gallery', partitionKey: 'galleryPk', sortKey: 'gallerySk' },
    /**
     * Sparse, with a number for its sort key, so a counter moved with `ADD` keeps its place
     * (decision 056): a creator's listed tracks by time, the gallery's rankings by score.
     */
    ranking: { indexName: 'ranking', partitionKey: 'rankPk', sortKey: 'rankScore', sortKeyType: 'N' },
  },
} as const;

export type IndexName = (typeof tableDesign.indexes)[keyof typeof tableDesign.indexes]['indexName'];

/** Zero-padded so that lexical order equals numeric order. */
export const padNumber = (n: number, width = 6): string =>
  String(Math.max(0, Math.trunc(n))).padStart(width, '0');

export const keys = {
  plan: (id: string) => ({ pk: `PLAN#${id}`, sk: 'PLAN' }),
  planOrder: (sortOrder: number, name: string) => ({
    gsi1pk: 'PLANS',
    gsi1sk: `${padNumber(sortOrder)}#${name}`,
  }),
  plansCollection: 'PLANS',

  settingsPartition: 'SETTINGS',
  setting: (key: string) => ({ pk: 'SETTINGS', sk: `SETTING#${key}` }),
  /** The models' settings document (decision 051), beside the site settings. */
  modelSettings: { pk: 'SETTINGS', sk: 'MODELS' },

  user: (id: string) => ({ pk: `USER#${id}`, sk: 'PROFILE' }),
  usersCollection: 'USERS',
  userKind: (createdAt: string, id: string) => ({ gsi2pk: 'USERS', gsi2sk: `${createdAt}#${id}` }),
  /** One item per address in use: conditional puts make emails unique. */
  emailClaim: (email: string) => ({ pk: `EMAIL#${email}`, sk: 'EMAIL' }),
  admin: (username: string) => ({ pk: `ADMIN#${username}`, sk: 'PROFILE' }),
  oneTimeToken: (purpose: string, hash: string) => ({ pk: `TOKEN#${purpose}#${hash}`, sk: 'TOKEN' }),
  /** An admin sign-in waiting for its second factor, by the hash of its challenge cookie. */
  pendingAdminSignIn: (hash: string) => ({ pk: `ADMINSIGNIN#${hash}`, sk: 'PENDING' }),
  /** An access token ended by a logout, until it expires. */
  revokedSession: (tokenHash: string) => ({ pk: `REVOKED#${tokenHash}`, sk: 'REVOKED' }),
  rateCounter: (key: string, window: number) => ({ pk: `RATE#${key}#${window}`, sk: 'RATE' }),
  /** Which user a Stripe customer belongs to (the webhook's way from an event to a user). */
  paymentCustomer: (customerId: string) => ({ pk: `STRIPE_CUSTOMER#${customerId}`, sk: 'CUSTOMER' }),
  /** A handled Stripe event, so a repeated delivery is recognised. */
  paymentEventReceipt: (eventId: string) => ({ pk: `STRIPE_EVENT#${eventId}`, sk: 'RECEIPT' }),
  /** Where a waiting workflow's task token meets the provider's webhook. */
  workflowCallback: (requestId: string) => ({ pk: `CALLBACK#${requestId}`, sk: 'CALLBACK' }),

  generation: (id: string) => ({ pk: `TRACK#${id}`, sk: 'TRACK' }),
  /** A track's timed lyrics, beside it in its partition (deleted with it). */
  trackLyrics: (id: string) => ({ pk: `TRACK#${id}`, sk: 'LYRICS' }),
  generationOwner: (userId: string, createdAt: string, id: string) => ({
    gsi1pk: `USER#${userId}`,
    gsi1sk: `TRACK#${createdAt}#${id}`,
  }),
  /** The partition and sort-key prefix of one user's library in gsi1. */
  generationOwnerPartition: (userId: string) => `USER#${userId}`,
  generationOwnerPrefix: 'TRACK#',
  generationKind: (createdAt: string, id: string) => ({ gsi2pk: 'TRACKS', gsi2sk: `${createdAt}#${id}` }),
  galleryPartition: 'GALLERY',
  gallery: (createdAt: string, id: string) => ({ galleryPk: 'GALLERY', gallerySk: `${createdAt}#${id}` }),
  /** A listed track in its creator's partition of the ranking index, newest last (decision 056). */
  creatorTrack: (userId: string, createdAt: string) => ({
    rankPk: `CREATOR#${userId}`,
    rankScore: Date.parse(createdAt),
  }),
  creatorTracksPartition: (userId: string) => `CREATOR#${userId}`,

  /** An export of a user's music (export everything), findable newest first in the owner's gsi1 partition. */
  export: (id: string) => ({ pk: `EXPORT#${id}`, sk: 'EXPORT' }),
  exportOwner: (userId: string, createdAt: string, id: string) => ({
    gsi1pk: `USER#${userId}`,
    gsi1sk: `EXPORT#${createdAt}#${id}`,
  }),
  exportOwnerPrefix: 'EXPORT#',
  /** Which export of a user is preparing: one at a time, taken by a conditional write. */
  exportSlot: (userId: string) => ({ pk: `USER#${userId}`, sk: 'EXPORT_SLOT' }),

  /** Counters of the whole site, kept by the writes that change them. */
  totals: { pk: 'COUNTERS', sk: 'TOTALS' },
  /** Counters of one UTC day (new users, generations started). */
  dailyStats: (date: string) => ({ pk: `STATS#${date}`, sk: 'STATS' }),
  /** The daily usage_analytics record (spec 2 section 3). */
  usageAnalytics: (date: string) => ({ pk: `ANALYTICS#${date}`, sk: 'ANALYTICS' }),
  usageAnalyticsKind: (date: string) => ({ gsi2pk: 'ANALYTICS', gsi2sk: date }),

  /** One searchable word of a user (email, first, last or full name), findable by prefix in gsi1. */
  userSearch: (userId: string, field: string) => ({ pk: `USER#${userId}`, sk: `SEARCH#${field}` }),
  userSearchIndex: (token: string, userId: string) => ({
    gsi1pk: keysSearchPartition(token),
    gsi1sk: `${token}#${userId}`,
  }),
  userSearchPartition: (prefix: string) => keysSearchPartition(prefix),
  /** On a user's profile while it names a plan: who is on a plan, without a scan. */
  planMember: (planId: string, userId: string) => ({ gsi1pk: `PLANUSERS#${planId}`, gsi1sk: userId }),
  planMembersPartition: (planId: string) => `PLANUSERS#${planId}`,

  auditPartition: 'AUDIT',
  audit: (at: string, id: string) => ({ pk: 'AUDIT', sk: `${at}#${id}` }),
} as const;

/** Search tokens are spread over partitions by their first character. */
function keysSearchPartition(token: string): string {
  return `USERSEARCH#${Array.from(token)[0] ?? ''}`;
}

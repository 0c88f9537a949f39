/**
 * Webhooks for developers (decision 053): a user's endpoints, the events
 * their tracks raise (`track.completed`, `track.failed`, `stems.ready`), and
 * the deliveries of those events, signed, retried with backoff for a day and
 * logged for the profile. Sending goes through {@link WebhookSender}, whose
 * adapter checks the address it connects to; this module checks the URL's
 * form (and an IP literal) when an endpoint is registered.
 */
import { randomBytes } from 'node:crypto';
import {
  type CreateWebhookRequest,
  developerMessages,
  WEBHOOK_ENDPOINTS_MAX,
  WEBHOOK_SIGNATURE_HEADER,
  WEBHOOK_TEST_EVENT,
  type WebhookDeliveryView,
  type WebhookEndpointView,
  type WebhookEventType,
  type WebhookPayload,
} from '@tunesmith/shared/developer-api';
import { DomainError, notFound, validationError } from '../errors';
import type { Generation } from '../tracks/track';
import { isAllowedAddress, literalAddress } from './addresses';
import { v1TrackFacts } from './v1-track';
import { signWebhook } from './webhook-signature';

// ---------------------------------------------------------------- records and ports

export interface WebhookEndpoint {
  id: string;
  userId: string;
  url: string;
  events: WebhookEventType[];
  /** `whsec_…`: signs every delivery; shown to its owner once, when created. */
  secret: string;
  createdAt: string;
}

export type WebhookDeliveryStatus = WebhookDeliveryView['status'];

export interface WebhookDelivery {
  id: string;
  endpointId: string;
  userId: string;
  /** The event's type (`track.completed`, …, or `webhook.test`). */
  event: string;
  /** The event's id (`evt_…`): the same in every delivery of one event. */
  eventId: string;
  /** The exact JSON body sent on every try (signed anew with each try's time). */
  body: string;
  status: WebhookDeliveryStatus;
  attempts: number;
  responseStatus: number | null;
  error: string | null;
  /** When the next try is due; null once delivered or failed. */
  nextAttemptAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface WebhookEndpointStore {
  /**
   * Stores a new endpoint unless its owner already has `max`; false when they
   * do. Two racing creates cannot both pass the limit.
   */
  create(endpoint: WebhookEndpoint, max: number): Promise<boolean>;
  /** The owner's endpoints, oldest first. */
  list(userId: string): Promise<WebhookEndpoint[]>;
  get(userId: string, id: string): Promise<WebhookEndpoint | undefined>;
  /** Removes the endpoint; false when the owner has none by that id. */
  delete(userId: string, id: string): Promise<boolean>;
  /** Removes every endpoint of a user and what counts them (deleting the account). */
  removeUser(userId: string): Promise<void>;
}

export interface WebhookDeliveryStore {
  put(delivery: WebhookDelivery): Promise<void>;
  get(id: string): Promise<WebhookDelivery | undefined>;
  /** One endpoint's deliveries, newest first. */
  listForEndpoint(endpointId: string, limit: number): Promise<WebhookDelivery[]>;
  /** Pending deliveries whose next try is due at `now`, earliest first. */
  due(now: string, limit: number): Promise<WebhookDelivery[]>;
  /**
   * Takes the next try of a pending delivery: succeeds only while it still has
   * `attempts` tries behind it, so two senders racing for it (the job started
   * with the event and the schedule) make one try. The claimed delivery has
   * its next try pushed to `leaseUntil`, so a sender that dies mid-try is
   * followed by the schedule.
   */
  claim(id: string, attempts: number, leaseUntil: string): Promise<boolean>;
  /** Every delivery of an endpoint removed (the endpoint is deleted). */
  deleteForEndpoint(endpointId: string): Promise<void>;
}

/** The outcome of one try: the HTTP status when there was an answer, else why not. */
export interface SendOutcome {
  status: number | null;
  error: string | null;
}

/** Posts a body to a receiver; never throws (a refusal or a failure is an outcome). */
export interface WebhookSender {
  send(url: string, body: string, headers: Record<string, string>): Promise<SendOutcome>;
}

/** Starts the delivery job for deliveries just recorded (on AWS an asynchronous invocation). */
export interface WebhookDispatch {
  start(deliveryIds: string[]): Promise<void>;
}

export interface WebhookDeps {
  endpoints: WebhookEndpointStore;
  deliveries: WebhookDeliveryStore;
  sender: WebhookSender;
  dispatch: WebhookDispatch;
  clock: { now(): Date };
  /** The local cloud's setting: http and loopback addresses allowed (never on AWS). */
  allowLoopback: boolean;
  /** The site's origin, for the track's provenance link in payloads. */
  siteOrigin: string;
}

// ---------------------------------------------------------------- rules

/** Pauses before each retry: the 7th try is about 18.6 hours after the first, within the day. */
export const WEBHOOK_RETRY_DELAYS_SECONDS = [60, 300, 1800, 7200, 18_000, 36_000] as const;
/** A delivery not made within this long after its event fails, whatever its tries. */
export const WEBHOOK_GIVE_UP_SECONDS = 24 * 60 * 60;
/** How long a delivery's log is kept (its row's TTL). */
export const WEBHOOK_LOG_DAYS = 7;
/** How long a claimed try may take before the schedule takes it again (the sender stops at 5 s). */
export const WEBHOOK_CLAIM_SECONDS = 60;
/** How many deliveries a profile's log shows per endpoint. */
export const WEBHOOK_LOG_LIMIT = 50;
/** How many due deliveries one scheduled run sends. */
export const WEBHOOK_DUE_BATCH = 100;

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** `length` characters of base62, unbiased (bytes past the largest multiple of 62 are skipped). */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248 && out.length < length) out += BASE62[byte % 62];
    }
  }
  return out;
}

export const newWebhookSecret = () => `whsec_${randomBase62(32)}`;
const newId = (prefix: string) => `${prefix}_${randomBase62(24)}`;

/**
 * The URL an endpoint may have: https (http too where the local cloud allows
 * it), no credentials in it, and a hostname that, when it is an IP address,
 * is a public one (a name is checked when each delivery connects).
 */
export function checkWebhookUrl(raw: string, allowLoopback: boolean): string {
  const formMessage = allowLoopback
    ? developerMessages.webhookUrlLocalOnly
    : developerMessages.webhookUrlInvalid;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw validationError(formMessage);
  }
  const schemes = allowLoopback ? ['https:', 'http:'] : ['https:'];
  if (!schemes.includes(url.protocol) || !url.hostname) throw validationError(formMessage);
  if (url.username || url.password) throw validationError(developerMessages.webhookUrlCredentials);
  const literal = literalAddress(url.hostname);
  if (literal && !isAllowedAddress(literal, allowLoopback))
    throw validationError(developerMessages.webhookUrlPrivate);
  return url.toString();
}

const endpointView = (endpoint: WebhookEndpoint): WebhookEndpointView => ({
  id: endpoint.id,
  url: endpoint.url,
  events: endpoint.events,
  createdAt: endpoint.createdAt,
});

export const deliveryView = (delivery: WebhookDelivery): WebhookDeliveryView => ({
  id: delivery.id,
  event: delivery.event,
  status: delivery.status,
  attempts: delivery.attempts,
  responseStatus: delivery.responseStatus,
  error: delivery.error,
  nextAttemptAt: delivery.nextAttemptAt,
  createdAt: delivery.createdAt,
  updatedAt: delivery.updatedAt,
});

const endpointNotFound = () => notFound(developerMessages.webhookNotFound);

// ---------------------------------------------------------------- endpoints

/** Registers an endpoint; the answer carries its secret, the only time it is shown. */
export async function createWebhookEndpoint(
  deps: Pick<WebhookDeps, 'endpoints' | 'clock' | 'allowLoopback'>,
  userId: string,
  input: CreateWebhookRequest,
): Promise<WebhookEndpointView & { secret: string }> {
  const url = checkWebhookUrl(input.url, deps.allowLoopback);
  const endpoint: WebhookEndpoint = {
    id: newId('we'),
    userId,
    url,
    events: [...input.events],
    secret: newWebhookSecret(),
    createdAt: deps.clock.now().toISOString(),
  };
  if (!(await deps.endpoints.create(endpoint, WEBHOOK_ENDPOINTS_MAX)))
    throw new DomainError('conflict', developerMessages.tooManyWebhooks);
  return { ...endpointView(endpoint), secret: endpoint.secret };
}

export async function listWebhookEndpoints(
  deps: Pick<WebhookDeps, 'endpoints'>,
  userId: string,
): Promise<WebhookEndpointView[]> {
  return (await deps.endpoints.list(userId)).map(endpointView);
}

/** Deletes an endpoint and its log; nothing more is sent to it. */
export async function deleteWebhookEndpoint(
  deps: Pick<WebhookDeps, 'endpoints' | 'deliveries'>,
  userId: string,
  id: string,
): Promise<void> {
  if (!(await deps.endpoints.delete(userId, id))) throw endpointNotFound();
  await deps.deliveries.deleteForEndpoint(id);
}

export async function listWebhookDeliveries(
  deps: Pick<WebhookDeps, 'endpoints' | 'deliveries'>,
  userId: string,
  endpointId: string,
): Promise<WebhookDeliveryView[]> {
  if (!(await deps.endpoints.get(userId, endpointId))) throw endpointNotFound();
  return (await deps.deliveries.listForEndpoint(endpointId, WEBHOOK_LOG_LIMIT)).map(deliveryView);
}

/** Removes every endpoint of a user and their deliveries (deleting the account). */
export async function deleteUserWebhooks(
  deps: Pick<WebhookDeps, 'endpoints' | 'deliveries'>,
  userId: string,
): Promise<number> {
  const endpoints = await deps.endpoints.list(userId);
  // Deliveries first: a run stopped halfway finds the endpoints again and finishes.
  for (const endpoint of endpoints) await deps.deliveries.deleteForEndpoint(endpoint.id);
  await deps.endpoints.removeUser(userId);
  return endpoints.length;
}

// ---------------------------------------------------------------- events

const payloadOf = (type: string, createdAt: string, data: Record<string, unknown>): WebhookPayload => ({
  id: newId('evt'),
  type,
  createdAt,
  data,
});

const newDelivery = (endpoint: WebhookEndpoint, payload: WebhookPayload, now: string): WebhookDelivery => ({
  id: newId('whd'),
  endpointId: endpoint.id,
  userId: endpoint.userId,
  event: payload.type,
  eventId: payload.id,
  body: JSON.stringify(payload),
  status: 'pending',
  attempts: 0,
  responseStatus: null,
  error: null,
  nextAttemptAt: now,
  createdAt: now,
  updatedAt: now,
});

/**
 * A track's event: one delivery for each of its owner's endpoints that
 * subscribed to it, recorded due now, and the delivery job started. When the
 * job cannot be started the deliveries wait for the schedule (within a
 * minute). Returns the deliveries' ids.
 */
export async function raiseTrackEvent(
  deps: Pick<WebhookDeps, 'endpoints' | 'deliveries' | 'dispatch' | 'clock' | 'siteOrigin'>,
  type: WebhookEventType,
  generation: Generation,
  log?: { warn(message: string, fields: Record<string, unknown>): void },
): Promise<string[]> {
  const endpoints = (await deps.endpoints.list(generation.userId)).filter((e) => e.events.includes(type));
  if (!endpoints.length) return [];
  const now = deps.clock.now().toISOString();
  const track = v1TrackFacts(generation, deps.siteOrigin);
  const payload = payloadOf(type, now, { track });
  const deliveries = endpoints.map((endpoint) => newDelivery(endpoint, payload, now));
  for (const delivery of deliveries) await deps.deliveries.put(delivery);
  const ids = deliveries.map((d) => d.id);
  await deps.dispatch.start(ids).catch((error: unknown) => {
    log?.warn('the webhook delivery job was not started; the schedule sends them', { error });
  });
  return ids;
}

/**
 * "Send test event": a `webhook.test` delivery tried at once, in the request,
 * and logged like any other; a test is tried once (the button tries again).
 */
export async function sendWebhookTestEvent(
  deps: Pick<WebhookDeps, 'endpoints' | 'deliveries' | 'sender' | 'clock'>,
  userId: string,
  endpointId: string,
): Promise<WebhookDeliveryView> {
  const endpoint = await deps.endpoints.get(userId, endpointId);
  if (!endpoint) throw endpointNotFound();
  const now = deps.clock.now().toISOString();
  const payload = payloadOf(WEBHOOK_TEST_EVENT, now, {
    endpoint: { id: endpoint.id, url: endpoint.url },
  });
  // Recorded as taken (its next time a lease ahead), so the schedule does not send it too.
  const lease = new Date(Date.parse(now) + WEBHOOK_CLAIM_SECONDS * 1000).toISOString();
  const delivery = { ...newDelivery(endpoint, payload, now), nextAttemptAt: lease };
  await deps.deliveries.put(delivery);
  const outcome = await tryOnce(deps, endpoint, delivery);
  const done = afterTry(delivery, outcome, deps.clock.now(), { retry: false });
  await deps.deliveries.put(done);
  return deliveryView(done);
}

// ---------------------------------------------------------------- delivering

/** One try: the body signed with this moment's time and posted. */
async function tryOnce(
  deps: Pick<WebhookDeps, 'sender' | 'clock'>,
  endpoint: WebhookEndpoint,
  delivery: WebhookDelivery,
): Promise<SendOutcome> {
  const t = Math.floor(deps.clock.now().getTime() / 1000);
  return deps.sender.send(endpoint.url, delivery.body, {
    'content-type': 'application/json',
    [WEBHOOK_SIGNATURE_HEADER]: signWebhook(endpoint.secret, delivery.body, t),
    'Tunesmith-Event': delivery.event,
    'Tunesmith-Delivery': delivery.id,
  });
}

const isSuccess = (outcome: SendOutcome) =>
  outcome.error === null && outcome.status !== null && outcome.status >= 200 && outcome.status < 300;

/** The delivery after a try: delivered, due again after its pause, or failed. */
export function afterTry(
  delivery: WebhookDelivery,
  outcome: SendOutcome,
  now: Date,
  options: { retry: boolean } = { retry: true },
): WebhookDelivery {
  const attempts = delivery.attempts + 1;
  const base = {
    ...delivery,
    attempts,
    responseStatus: outcome.status,
    updatedAt: now.toISOString(),
  };
  if (isSuccess(outcome)) return { ...base, status: 'delivered', error: null, nextAttemptAt: null };
  const error =
    outcome.error ?? (outcome.status !== null ? `The endpoint answered ${outcome.status}` : 'No answer');
  const pause = WEBHOOK_RETRY_DELAYS_SECONDS[attempts - 1];
  const next = pause === undefined ? undefined : new Date(now.getTime() + pause * 1000);
  const deadline = Date.parse(delivery.createdAt) + WEBHOOK_GIVE_UP_SECONDS * 1000;
  if (!options.retry || !next || next.getTime() > deadline)
    return { ...base, status: 'failed', error, nextAttemptAt: null };
  return { ...base, status: 'pending', error, nextAttemptAt: next.toISOString() };
}

/**
 * Makes the next try of one delivery if it is due: claimed first (so racing
 * senders try it once), sent, and its outcome recorded. A delivery whose
 * endpoint is gone fails without a try. Returns the delivery as recorded, or
 * undefined when there was nothing to do.
 */
export async function attemptDelivery(
  deps: Pick<WebhookDeps, 'endpoints' | 'deliveries' | 'sender' | 'clock'>,
  id: string,
): Promise<WebhookDelivery | undefined> {
  const delivery = await deps.deliveries.get(id);
  const now = deps.clock.now();
  if (delivery?.status !== 'pending') return undefined;
  if (delivery.nextAttemptAt && Date.parse(delivery.nextAttemptAt) > now.getTime()) return undefined;
  const lease = new Date(now.getTime() + WEBHOOK_CLAIM_SECONDS * 1000).toISOString();
  if (!(await deps.deliveries.claim(id, delivery.attempts, lease))) return undefined;
  const endpoint = await deps.endpoints.get(delivery.userId, delivery.endpointId);
  const outcome: SendOutcome = endpoint
    ? await tryOnce(deps, endpoint, delivery)
    : { status: null, error: 'The endpoint was deleted' };
  const done = afterTry(delivery, outcome, deps.clock.now(), { retry: !!endpoint });
  await deps.deliveries.put(done);
  return done;
}

/**
 * The delivery job: the deliveries named (an event just raised), or every
 * one due (the schedule), each tried once. A failed try is recorded with its
 * next time, never thrown: retries are this module's, not the job runner's.
 */
export async function deliverWebhooks(
  deps: Pick<WebhookDeps, 'endpoints' | 'deliveries' | 'sender' | 'clock'>,
  ids?: readonly string[],
): Promise<{ tried: number; delivered: number }> {
  const todo =
    ids ?? (await deps.deliveries.due(deps.clock.now().toISOString(), WEBHOOK_DUE_BATCH)).map((d) => d.id);
  let tried = 0;
  let delivered = 0;
  // A few at once: each waits at most the sender's 5 s.
  const queue = [...todo];
  const worker = async () => {
    for (let id = queue.shift(); id !== undefined; id = queue.shift()) {
      const done = await attemptDelivery(deps, id);
      if (!done) continue;
      tried++;
      if (done.status === 'delivered') delivered++;
    }
  };
  await Promise.all(Array.from({ length: Math.min(8, queue.length) }, worker));
  return { tried, delivered };
}

/** The job's event: the deliveries to try now. */
export interface WebhookDeliveryJob {
  kind: 'webhook-deliveries';
  deliveryIds: string[];
}

const DELIVERY_ID = /^whd_[0-9A-Za-z]{1,64}$/;

/** The deliveries a job event names, or undefined when it names none (a scheduled run: send what is due). */
export function deliveryIdsOf(event: unknown): string[] | undefined {
  const { kind, deliveryIds } = (event ?? {}) as Partial<WebhookDeliveryJob>;
  if (kind !== 'webhook-deliveries' || !Array.isArray(deliveryIds)) return undefined;
  return deliveryIds
    .filter((id): id is string => typeof id === 'string' && DELIVERY_ID.test(id))
    .slice(0, 100);
}

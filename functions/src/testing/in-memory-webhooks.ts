import type {
  SendOutcome,
  WebhookDelivery,
  WebhookDeliveryStore,
  WebhookDeps,
  WebhookEndpoint,
  WebhookEndpointStore,
  WebhookSender,
} from '../domain/developers/webhooks';

/** Endpoints in memory, with the store's per-user limit. */
export function memoryWebhookEndpoints(): WebhookEndpointStore & { all: Map<string, WebhookEndpoint> } {
  const all = new Map<string, WebhookEndpoint>();
  const mine = (userId: string) => [...all.values()].filter((e) => e.userId === userId);
  return {
    all,
    async create(endpoint, max) {
      if (mine(endpoint.userId).length >= max) return false;
      all.set(endpoint.id, structuredClone(endpoint));
      return true;
    },
    async list(userId) {
      return mine(userId)
        .sort((a, b) => a.createdAt.localeCompare(b.createdAt))
        .map((e) => structuredClone(e));
    },
    async get(userId, id) {
      const endpoint = all.get(id);
      return endpoint && endpoint.userId === userId ? structuredClone(endpoint) : undefined;
    },
    async delete(userId, id) {
      const endpoint = all.get(id);
      if (!endpoint || endpoint.userId !== userId) return false;
      all.delete(id);
      return true;
    },
    async removeUser(userId) {
      for (const endpoint of mine(userId)) all.delete(endpoint.id);
    },
  };
}

/** Deliveries in memory, with the store's claim. */
export function memoryWebhookDeliveries(): WebhookDeliveryStore & { all: Map<string, WebhookDelivery> } {
  const all = new Map<string, WebhookDelivery>();
  return {
    all,
    async put(delivery) {
      all.set(delivery.id, structuredClone(delivery));
    },
    async get(id) {
      const delivery = all.get(id);
      return delivery && structuredClone(delivery);
    },
    async listForEndpoint(endpointId, limit) {
      return [...all.values()]
        .filter((d) => d.endpointId === endpointId)
        .sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.id.localeCompare(a.id))
        .slice(0, limit)
        .map((d) => structuredClone(d));
    },
    async due(now, limit) {
      return [...all.values()]
        .filter((d) => d.status === 'pending' && d.nextAttemptAt !== null && d.nextAttemptAt <= now)
        .sort((a, b) => (a.nextAttemptAt ?? '').localeCompare(b.nextAttemptAt ?? ''))
        .slice(0, limit)
        .map((d) => structuredClone(d));
    },
    async claim(id, attempts, leaseUntil) {
      const delivery = all.get(id);
      if (delivery?.status !== 'pending' || delivery.attempts !== attempts) return false;
      all.set(id, { ...delivery, attempts: attempts + 1, nextAttemptAt: leaseUntil });
      return true;
    },
    async deleteForEndpoint(endpointId) {
      for (const [id, d] of all) if (d.endpointId === endpointId) all.delete(id);
    },
  };
}

export interface SentRequest {
  url: string;
  body: string;
  headers: Record<string, string>;
}

/** A sender that records each request and answers from `outcomes` in turn (the last one repeats). */
export function recordingSender(
  outcomes: SendOutcome[] = [{ status: 200, error: null }],
): WebhookSender & { sent: SentRequest[] } {
  const sent: SentRequest[] = [];
  return {
    sent,
    async send(url, body, headers) {
      sent.push({ url, body, headers });
      return outcomes[Math.min(sent.length - 1, outcomes.length - 1)] as SendOutcome;
    },
  };
}

/** Webhook deps in memory, with a clock the test moves. */
export function memoryWebhookDeps(overrides: Partial<WebhookDeps> = {}) {
  let now = new Date('2026-11-29T12:00:00.000Z');
  const endpoints = memoryWebhookEndpoints();
  const deliveries = memoryWebhookDeliveries();
  const sender = recordingSender();
  const started: string[][] = [];
  const deps = {
    endpoints,
    deliveries,
    sender,
    dispatch: {
      async start(ids: string[]) {
        started.push(ids);
      },
    },
    clock: { now: () => new Date(now) },
    allowLoopback: false,
    siteOrigin: 'https://tunesmith.example',
    ...overrides,
  };
  return {
    deps,
    endpoints,
    deliveries,
    sender,
    started,
    advance(seconds: number) {
      now = new Date(now.getTime() + seconds * 1000);
    },
  };
}

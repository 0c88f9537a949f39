/**
 * The embedded Stripe: an HTTP server on 127.0.0.1 that answers the part of
 * Stripe's REST API the product's unchanged `stripe` SDK code uses (it points
 * the SDK here through STRIPE_API_BASE), hosts the Checkout and customer
 * portal pages, sends signed webhooks with retries, and has a test clock.
 *
 *   /v1/balance                              retrieve
 *   /v1/customers[/{id}]                     create, retrieve, update
 *   /v1/products[/{id}], /v1/prices[/{id}]   create, retrieve, update, list
 *   /v1/checkout/sessions[/{id}[/expire]]    create, retrieve, list, expire
 *   /v1/billing_portal/sessions              create (a configuration; a subscription_update_confirm flow)
 *   /v1/billing_portal/configurations[/{id}] create, retrieve, update, list
 *   /v1/refunds[/{id}], /v1/charges[/{id}]   refund a payment; retrieve, list
 *   /v1/invoice_payments[/{id}]              list (by invoice, status, payment intent), retrieve
 *   /v1/subscriptions[/{id}]                 list, retrieve, update (price, cancel at period end,
 *                                            resume, card), DELETE cancels now
 *   /v1/invoices[/{id}[/pay]]                list, retrieve, pay
 *   /v1/payment_intents/{id}, /v1/payment_methods/{id}, /v1/events[/{id}]
 *   /c/pay/{session}                         hosted Checkout
 *   /p/session/{session}                     hosted customer portal
 *
 * State (objects, keys, the clock) persists in `<dataDir>/stripe.json`.
 */
import { createHmac, randomBytes } from 'node:crypto';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import qs from 'qs';
import {
  type AdvanceResult,
  createLedger,
  invalid,
  type Ledger,
  noSuch,
  StripeApiError,
} from './stripe-billing';
import {
  BUSINESS_NAME,
  type CardFieldsState,
  checkoutPage,
  closedCheckoutPage,
  expiredPortalPage,
  type PageContext,
  portalConfirmPage,
  portalPage,
} from './stripe-pages';
import { formatDay, newId, openStore, type Store, type StripeEvent } from './stripe-store';
import { checkCard } from './test-cards';

export type { AdvanceResult };

export interface EmbeddedStripeOptions {
  /** Port on 127.0.0.1; 0 (default) picks a free one. */
  port?: number;
  /** Keeps the state (keys, objects, clock) here across starts; otherwise it lives in memory. */
  dataDir?: string;
  /** Where events are posted; settable later with `setWebhookUrl`. */
  webhookUrl?: string;
  /** Delivery attempts per event (default 8). */
  webhookAttempts?: number;
  /** The first retry delay, doubled after each attempt (default 1000 ms). */
  webhookRetryMs?: number;
  /**
   * The account's public business name, as Checkout and the portal show it
   * (the local cloud gives the site's name); `Tunesmith` when unset or blank.
   */
  businessName?: () => Promise<string | undefined> | string | undefined;
  log?: (line: string) => void;
}

export interface Delivery {
  eventId: string;
  type: string;
  attempt: number;
  /** The HTTP status received; 0 when the request failed. */
  status: number;
}

export interface EmbeddedStripe {
  /** `http://127.0.0.1:PORT`: the STRIPE_API_BASE. */
  url: string;
  port: number;
  /** What the product needs to talk to this Stripe and to verify its webhooks. */
  env: { STRIPE_API_BASE: string; STRIPE_SECRET_KEY: string; STRIPE_WEBHOOK_SECRET: string };
  setWebhookUrl(url: string): void;
  /**
   * Whether every one of these prices exists here and is active: what the
   * local cloud checks on a later start before it skips syncing plan prices.
   */
  hasActivePrices(priceIds: readonly string[]): boolean;
  /** Where the hosted pages read the business name from (see the option). */
  setBusinessName(source: EmbeddedStripeOptions['businessName']): void;
  /** Unix seconds on the test clock. */
  now(): number;
  /**
   * The test clock: moves time on by `seconds`, renews what is due (charging
   * the card on file), retries failed payments, ends what was cancelled at
   * the period end; resolves after the first delivery attempt of each event.
   */
  advance(seconds: number): Promise<AdvanceResult>;
  deliveries: Delivery[];
  stop(): Promise<void>;
}

const MAX_BODY_BYTES = 1024 * 1024;
const SIGNATURE_SCHEME = 'v1';

async function readBody(req: IncomingMessage, limit = MAX_BODY_BYTES): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string);
    size += buffer.length;
    if (size > limit)
      throw new StripeApiError(413, { type: 'invalid_request_error', message: 'Request too large.' });
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Stripe's signature header over `payload` at `timestamp`: what `stripe.webhooks.constructEvent` checks. */
export function signPayload(
  payload: string,
  secret: string,
  timestamp = Math.floor(Date.now() / 1000),
): string {
  const signature = createHmac('sha256', secret).update(`${timestamp}.${payload}`, 'utf8').digest('hex');
  return `t=${timestamp},${SIGNATURE_SCHEME}=${signature}`;
}

type Params = Record<string, unknown>;

/** The parameters each writing call accepts (besides `expand`); others are refused like Stripe refuses them. */
const accepted: Record<string, readonly string[]> = {
  'POST /v1/customers': ['email', 'name', 'metadata', 'description'],
  'POST /v1/customers/{id}': ['email', 'name', 'metadata', 'description', 'invoice_settings'],
  'POST /v1/products': ['id', 'name', 'description', 'metadata', 'active'],
  'POST /v1/products/{id}': ['name', 'description', 'metadata', 'active'],
  'POST /v1/prices': [
    'product',
    'unit_amount',
    'currency',
    'recurring',
    'lookup_key',
    'transfer_lookup_key',
    'metadata',
    'nickname',
    'active',
  ],
  'POST /v1/prices/{id}': ['active', 'metadata', 'lookup_key', 'nickname'],
  'POST /v1/checkout/sessions': [
    'mode',
    'customer',
    'client_reference_id',
    'line_items',
    'success_url',
    'cancel_url',
    'metadata',
    'subscription_data',
  ],
  'POST /v1/checkout/sessions/{id}/expire': [],
  'POST /v1/refunds': ['payment_intent', 'charge', 'amount', 'reason', 'metadata'],
  'POST /v1/billing_portal/configurations': [
    'features',
    'business_profile',
    'default_return_url',
    'metadata',
    'name',
  ],
  'POST /v1/billing_portal/configurations/{id}': [
    'features',
    'business_profile',
    'default_return_url',
    'metadata',
    'name',
    'active',
  ],
  'POST /v1/billing_portal/sessions': ['customer', 'return_url', 'configuration', 'flow_data'],
  'POST /v1/subscriptions/{id}': [
    'items',
    'cancel_at_period_end',
    'proration_behavior',
    'default_payment_method',
    'metadata',
  ],
  'POST /v1/invoices/{id}/pay': [],
  'DELETE /v1/subscriptions/{id}': [],
};

function checkParams(route: string, params: Params): void {
  const allowed = accepted[route];
  if (!allowed) return;
  for (const name of Object.keys(params)) {
    if (name !== 'expand' && !allowed.includes(name)) {
      throw invalid(`Received unknown parameter: ${name}`, name, 'parameter_unknown');
    }
  }
}

interface Listable {
  id: string;
  created: number;
}

/** A page of `items` (newest first), as Stripe lists. */
function listOf<T extends Listable>(items: T[], params: Params, url: string) {
  const limit = params.limit === undefined ? 10 : Number(params.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) {
    throw invalid('Invalid integer: limit must be between 1 and 100', 'limit');
  }
  const newest = items
    .map((item, index) => ({ item, index }))
    .sort((a, b) => b.item.created - a.item.created || b.index - a.index)
    .map(({ item }) => item);
  let from = 0;
  if (typeof params.starting_after === 'string') {
    const at = newest.findIndex((item) => item.id === params.starting_after);
    if (at < 0) throw noSuch('object', params.starting_after, 'starting_after');
    from = at + 1;
  }
  const data = newest.slice(from, from + limit);
  return { object: 'list', data, has_more: from + limit < newest.length, url };
}

function createdFilter(created: unknown): (at: number) => boolean {
  if (created === undefined) return () => true;
  if (typeof created === 'string') return (at) => at === Number(created);
  const range = created as Record<string, string>;
  return (at) =>
    (range.gte === undefined || at >= Number(range.gte)) &&
    (range.gt === undefined || at > Number(range.gt)) &&
    (range.lte === undefined || at <= Number(range.lte)) &&
    (range.lt === undefined || at < Number(range.lt));
}

/** The REST subset. Returns the object to answer with. */
function route(ledger: Ledger, store: Store, method: string, path: string, params: Params): unknown {
  const { state } = store;
  const parts = path.split('/').filter(Boolean).slice(1);
  const [resource, second, third, fourth] = parts;
  /** A writing call: its parameters checked against what `template` accepts, then `run`. */
  const write = <T>(template: string, run: () => T): T => {
    checkParams(`${method} ${template}`, params);
    return run();
  };

  if (resource === 'balance' && !second && method === 'GET') {
    // The account's balance: the cheapest read there is, which the admin's key check makes.
    return {
      object: 'balance',
      available: [{ amount: 0, currency: 'usd', source_types: { card: 0 } }],
      livemode: false,
      pending: [{ amount: 0, currency: 'usd', source_types: { card: 0 } }],
    };
  }
  if (resource === 'customers') {
    if (!second && method === 'POST') return write('/v1/customers', () => ledger.createCustomer(params));
    if (second && !third && method === 'GET') return ledger.customer(second);
    if (second && !third && method === 'POST') {
      return write('/v1/customers/{id}', () => ledger.updateCustomer(second, params));
    }
  }
  if (resource === 'products') {
    if (!second && method === 'POST') return write('/v1/products', () => ledger.createProduct(params));
    if (!second && method === 'GET') {
      const active = params.active === undefined ? undefined : params.active === 'true';
      const ids = Array.isArray(params.ids) ? (params.ids as string[]) : undefined;
      const found = Object.values(state.products).filter(
        (p) => (active === undefined || p.active === active) && (!ids || ids.includes(p.id)),
      );
      return listOf(found, params, '/v1/products');
    }
    if (second && method === 'GET') return ledger.product(second);
    if (second && method === 'POST')
      return write('/v1/products/{id}', () => ledger.updateProduct(second, params));
  }
  if (resource === 'prices') {
    if (!second && method === 'POST') return write('/v1/prices', () => ledger.createPrice(params));
    if (!second && method === 'GET') {
      const active = params.active === undefined ? undefined : params.active === 'true';
      const lookupKeys = Array.isArray(params.lookup_keys) ? (params.lookup_keys as string[]) : undefined;
      const found = Object.values(state.prices).filter(
        (p) =>
          (active === undefined || p.active === active) &&
          (params.product === undefined || p.product === params.product) &&
          (params.type === undefined || p.type === params.type) &&
          (!lookupKeys || (p.lookup_key !== null && lookupKeys.includes(p.lookup_key))),
      );
      return listOf(found, params, '/v1/prices');
    }
    if (second && method === 'GET') return ledger.price(second);
    if (second && method === 'POST')
      return write('/v1/prices/{id}', () => ledger.updatePrice(second, params));
  }
  if (resource === 'checkout' && second === 'sessions') {
    if (!third && method === 'POST') {
      return write('/v1/checkout/sessions', () => ledger.createCheckoutSession(params));
    }
    if (!third && method === 'GET') {
      const found = Object.values(state.checkoutSessions).filter(
        (s) =>
          (params.customer === undefined || s.customer === params.customer) &&
          (params.subscription === undefined || s.subscription === params.subscription) &&
          (params.status === undefined || s.status === params.status),
      );
      return listOf(found, params, '/v1/checkout/sessions');
    }
    if (third && !fourth && method === 'GET') return ledger.checkoutSession(third);
    if (third && fourth === 'expire' && method === 'POST') {
      return write('/v1/checkout/sessions/{id}/expire', () => ledger.expireCheckoutSession(third));
    }
  }
  if (resource === 'billing_portal' && second === 'sessions' && !third && method === 'POST') {
    return write('/v1/billing_portal/sessions', () => ledger.createPortalSession(params));
  }
  if (resource === 'billing_portal' && second === 'configurations') {
    if (!third && method === 'POST') {
      return write('/v1/billing_portal/configurations', () => ledger.createPortalConfiguration(params));
    }
    if (!third && method === 'GET') {
      const active = params.active === undefined ? undefined : params.active === 'true';
      const isDefault = params.is_default === undefined ? undefined : params.is_default === 'true';
      const found = Object.values(state.portalConfigurations).filter(
        (c) =>
          (active === undefined || c.active === active) &&
          (isDefault === undefined || c.is_default === isDefault),
      );
      return listOf(found, params, '/v1/billing_portal/configurations');
    }
    if (third && !fourth && method === 'GET') return ledger.portalConfiguration(third);
    if (third && !fourth && method === 'POST') {
      return write('/v1/billing_portal/configurations/{id}', () =>
        ledger.updatePortalConfiguration(third, params),
      );
    }
  }
  if (resource === 'refunds') {
    if (!second && method === 'POST') return write('/v1/refunds', () => ledger.createRefund(params));
    if (!second && method === 'GET') {
      const found = Object.values(state.refunds).filter(
        (r) =>
          (params.payment_intent === undefined || r.payment_intent === params.payment_intent) &&
          (params.charge === undefined || r.charge === params.charge),
      );
      return listOf(found, params, '/v1/refunds');
    }
    if (second && !third && method === 'GET') {
      const found = state.refunds[second];
      if (!found) throw noSuch('refund', second);
      return found;
    }
  }
  if (resource === 'charges') {
    if (!second && method === 'GET') {
      const found = Object.values(state.charges).filter(
        (c) =>
          (params.customer === undefined || c.customer === params.customer) &&
          (params.payment_intent === undefined || c.payment_intent === params.payment_intent),
      );
      return listOf(found, params, '/v1/charges');
    }
    if (second && !third && method === 'GET') {
      const found = state.charges[second];
      if (!found) throw noSuch('charge', second);
      return found;
    }
  }
  if (resource === 'invoice_payments') {
    if (!second && method === 'GET') {
      const payment = params.payment as Record<string, unknown> | undefined;
      const found = Object.values(state.invoicePayments).filter(
        (p) =>
          (params.invoice === undefined || p.invoice === params.invoice) &&
          (params.status === undefined || p.status === params.status) &&
          (payment?.payment_intent === undefined || p.payment.payment_intent === payment.payment_intent),
      );
      return listOf(found, params, '/v1/invoice_payments');
    }
    if (second && !third && method === 'GET') {
      const found = state.invoicePayments[second];
      if (!found) throw noSuch('invoice_payment', second);
      return found;
    }
  }
  if (resource === 'subscriptions') {
    if (!second && method === 'GET') {
      const status = params.status as string | undefined;
      const found = Object.values(state.subscriptions).filter(
        (s) =>
          (params.customer === undefined || s.customer === params.customer) &&
          (params.price === undefined || s.items.data[0]?.price.id === params.price) &&
          // Like Stripe, the default leaves out canceled subscriptions; `all` lists every one.
          (status === 'all' ? true : status === undefined ? s.status !== 'canceled' : s.status === status),
      );
      return listOf(found, params, '/v1/subscriptions');
    }
    if (second && !third && method === 'GET') return ledger.subscription(second);
    if (second && !third && method === 'POST') {
      return write('/v1/subscriptions/{id}', () => ledger.updateSubscription(second, params));
    }
    if (second && !third && method === 'DELETE') return ledger.cancelSubscription(second);
  }
  if (resource === 'invoices') {
    if (!second && method === 'GET') {
      const found = Object.values(state.invoices).filter(
        (i) =>
          (params.customer === undefined || i.customer === params.customer) &&
          (params.subscription === undefined ||
            i.parent.subscription_details.subscription === params.subscription) &&
          (params.status === undefined || i.status === params.status),
      );
      return listOf(found, params, '/v1/invoices');
    }
    if (second && !third && method === 'GET') return ledger.invoice(second);
    if (second && third === 'pay' && method === 'POST') return ledger.payInvoice(second);
  }
  if (resource === 'payment_intents' && second && !third && method === 'GET') {
    const found = state.paymentIntents[second];
    if (!found) throw noSuch('payment_intent', second);
    return found;
  }
  if (resource === 'payment_methods' && second && !third && method === 'GET') {
    const found = state.paymentMethods[second];
    if (!found) throw noSuch('PaymentMethod', second);
    return found;
  }
  if (resource === 'events') {
    if (!second && method === 'GET') {
      const inRange = createdFilter(params.created);
      const found = state.events.filter(
        (e) => (params.type === undefined || e.type === params.type) && inRange(e.created),
      );
      return listOf(found, params, '/v1/events');
    }
    if (second && !third && method === 'GET') {
      const found = state.events.find((e) => e.id === second);
      if (!found) throw noSuch('event', second);
      return found;
    }
  }
  throw new StripeApiError(404, {
    type: 'invalid_request_error',
    message: `Unrecognized request URL (${method}: ${path}). Please see https://stripe.com/docs or we can help at https://support.stripe.com/.`,
  });
}

const portalNotices = {
  updated: () => 'Subscription updated.',
  renewed: () => 'Your subscription has been renewed.',
  card: () => 'Card saved.',
  cancelled: (periodEnd: number | undefined) =>
    periodEnd
      ? `Your subscription will be cancelled on ${formatDay(periodEnd)}.`
      : 'Your subscription will be cancelled.',
} as const;
type PortalNotice = keyof typeof portalNotices;

/** Starts the embedded Stripe. */
export async function startEmbeddedStripe(options: EmbeddedStripeOptions = {}): Promise<EmbeddedStripe> {
  const store = openStore(options.dataDir);
  const attempts = options.webhookAttempts ?? 8;
  const retryMs = options.webhookRetryMs ?? 1000;
  const log = options.log ?? (() => {});
  let webhookUrl = options.webhookUrl;
  let businessName = options.businessName;
  let baseUrl = '';
  let stopped = false;
  const deliveries: Delivery[] = [];
  const timers = new Set<NodeJS.Timeout>();
  const inFlight = new AbortController();
  /** While the clock advances: the first attempts of the events it causes. */
  let collecting: Promise<void>[] | undefined;

  const wait = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        timers.delete(timer);
        resolve();
      }, ms);
      timers.add(timer);
    });

  async function post(event: StripeEvent, payload: string, attempt: number): Promise<number> {
    const url = webhookUrl;
    if (!url) return 0;
    try {
      const answer = await fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json; charset=utf-8',
          'user-agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)',
          // Signed anew at each attempt, as Stripe does: the signature's time is the sending time.
          'stripe-signature': signPayload(payload, store.state.webhookSecret),
        },
        body: payload,
        signal: AbortSignal.any([inFlight.signal, AbortSignal.timeout(20_000)]),
      });
      await answer.arrayBuffer().catch(() => undefined);
      return answer.status;
    } catch {
      return 0;
    } finally {
      if (!stopped) log(`${event.type} ${event.id} attempt ${attempt}`);
    }
  }

  /** Delivers one event until it is answered 2xx or the attempts run out; resolves after the first attempt. */
  function deliver(event: StripeEvent): Promise<void> {
    const payload = JSON.stringify(event, null, 2);
    let first: () => void = () => {};
    const firstAttempt = new Promise<void>((resolve) => {
      first = resolve;
    });
    void (async () => {
      try {
        for (let attempt = 1; attempt <= attempts && !stopped && webhookUrl; attempt++) {
          const status = await post(event, payload, attempt);
          if (stopped) return;
          deliveries.push({ eventId: event.id, type: event.type, attempt, status });
          if (attempt === 1) first();
          if (status >= 200 && status < 300) return;
          await wait(retryMs * 2 ** (attempt - 1));
        }
      } finally {
        first();
      }
    })();
    return firstAttempt;
  }

  const ledger = createLedger(store, {
    baseUrl: () => baseUrl,
    onEvent: (event) => {
      const first = deliver(event);
      collecting?.push(first);
    },
  });

  const sendJson = (
    res: ServerResponse,
    status: number,
    body: unknown,
    headers: Record<string, string> = {},
  ) => {
    const text = typeof body === 'string' ? body : JSON.stringify(body);
    res.writeHead(status, {
      'content-type': 'application/json',
      'cache-control': 'no-cache, no-store',
      'x-content-type-options': 'nosniff',
      'stripe-version': '2026-10-28.endive',
      ...headers,
    });
    res.end(text);
  };

  /** A fresh script nonce and the business name, for one hosted page. */
  const pageContext = async (): Promise<PageContext> => {
    let name: string | undefined;
    try {
      name = (await businessName?.())?.trim();
    } catch (error) {
      log(`business name unavailable: ${error instanceof Error ? error.message : String(error)}`);
    }
    return { businessName: name || BUSINESS_NAME, nonce: randomBytes(16).toString('base64') };
  };

  const sendHtml = (res: ServerResponse, status: number, html: string, context?: PageContext) => {
    res.writeHead(status, {
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
      // Its own inline styles and the one script of this answer; form-action stays open: a paid form redirects to the app.
      'content-security-policy': `default-src 'none'; style-src 'unsafe-inline'; script-src ${
        context ? `'nonce-${context.nonce}'` : "'none'"
      }; base-uri 'none'; frame-ancestors 'none'`,
      'x-frame-options': 'DENY',
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'same-origin',
    });
    res.end(html);
  };

  const redirect = (res: ServerResponse, location: string) => {
    res.writeHead(303, { location, 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' });
    res.end();
  };

  async function handleApi(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const requestId = newId('req', 14);
    const method = req.method ?? 'GET';
    const auth = req.headers.authorization ?? '';
    const key = auth.startsWith('Bearer ')
      ? auth.slice(7)
      : auth.startsWith('Basic ')
        ? Buffer.from(auth.slice(6), 'base64').toString('utf8').split(':')[0]
        : '';
    if (key !== store.state.secretKey) {
      const shown = key
        ? `${key.slice(0, 8)}${'*'.repeat(Math.max(0, key.length - 12))}${key.slice(-4)}`
        : '';
      sendJson(
        res,
        401,
        {
          error: {
            type: 'invalid_request_error',
            message: key
              ? `Invalid API Key provided: ${shown}`
              : "You did not provide an API key. You need to provide your API key in the Authorization header, using Bearer auth (e.g. 'Authorization: Bearer YOUR_SECRET_KEY').",
          },
        },
        { 'request-id': requestId },
      );
      return;
    }
    const body = method === 'GET' || method === 'DELETE' ? '' : await readBody(req);
    const params = qs.parse(method === 'GET' || method === 'DELETE' ? url.search.slice(1) : body, {
      depth: 8,
      arrayLimit: 100,
    }) as Params;
    const idempotencyKey =
      method === 'POST' ? (req.headers['idempotency-key'] as string | undefined) : undefined;
    if (idempotencyKey) {
      const stored = store.state.idempotency[idempotencyKey];
      if (stored) {
        if (stored.method !== method || stored.path !== url.pathname || stored.params !== body) {
          sendJson(
            res,
            400,
            {
              error: {
                type: 'idempotency_error',
                message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${idempotencyKey}' if you meant to execute a different request.`,
              },
            },
            { 'request-id': requestId },
          );
          return;
        }
        sendJson(res, stored.status, stored.body, {
          'request-id': requestId,
          'idempotent-replayed': 'true',
          'original-request': requestId,
        });
        return;
      }
    }
    let status = 200;
    let answer: string;
    try {
      const result = ledger.withRequest({ id: requestId, idempotencyKey: idempotencyKey ?? null }, () =>
        route(ledger, store, method, url.pathname, params),
      );
      answer = JSON.stringify(result);
    } catch (error) {
      if (!(error instanceof StripeApiError)) throw error;
      status = error.status;
      answer = JSON.stringify({ error: { ...error.error, request_log_url: null } });
    }
    if (method !== 'GET') {
      // Stripe keeps the answer of a keyed request, success or refusal alike (server errors aside).
      if (idempotencyKey && status < 500) {
        store.state.idempotency[idempotencyKey] = {
          method,
          path: url.pathname,
          params: body,
          status,
          body: answer,
          at: Math.floor(Date.now() / 1000),
        };
      }
      store.save();
    }
    sendJson(res, status, answer, {
      'request-id': requestId,
      ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}),
    });
  }

  const cardInput = (form: URLSearchParams) => ({
    number: form.get('card_number') ?? '',
    expiry: form.get('card_expiry') ?? '',
    cvc: form.get('card_cvc') ?? '',
  });

  async function handleCheckout(req: IncomingMessage, res: ServerResponse, id: string): Promise<void> {
    const context = await pageContext();
    const session = store.state.checkoutSessions[id] ? ledger.checkoutSession(id) : undefined;
    if (!session) {
      sendHtml(res, 404, closedCheckoutPage(context, null), context);
      return;
    }
    const line = store.state.hidden.sessionLines[id];
    const price = line ? store.state.prices[line.price] : undefined;
    if (session.status !== 'open' || !line || !price) {
      store.save();
      sendHtml(
        res,
        req.method === 'POST' ? 409 : 200,
        closedCheckoutPage(context, { status: session.status, cancelUrl: session.cancel_url }),
        context,
      );
      return;
    }
    const render = (status: number, card: CardFieldsState) =>
      sendHtml(
        res,
        status,
        checkoutPage(context, {
          actionUrl: `/c/pay/${id}`,
          cancelUrl: session.cancel_url,
          productName: store.state.products[price.product]?.name ?? 'Subscription',
          price,
          quantity: line.quantity,
          email: session.customer_email,
          card,
        }),
        context,
      );
    if (req.method !== 'POST') {
      render(200, {});
      return;
    }
    const form = new URLSearchParams(await readBody(req));
    const input = cardInput(form);
    const kept = { expiry: input.expiry, cvc: input.cvc };
    const checked = checkCard(input, store.now());
    if (!checked.ok) {
      render(402, { ...kept, error: { field: checked.field, message: checked.message } });
      return;
    }
    try {
      const paid = ledger.withRequest({ id: newId('req', 14), idempotencyKey: null }, () =>
        ledger.payCheckout(id, checked.card),
      );
      store.save();
      redirect(res, paid.success_url.replaceAll('{CHECKOUT_SESSION_ID}', paid.id));
    } catch (error) {
      if (!(error instanceof StripeApiError) || error.status !== 402) throw error;
      store.save();
      render(402, { ...kept, error: { field: 'number', message: error.message } });
    }
  }

  async function handlePortal(
    req: IncomingMessage,
    res: ServerResponse,
    id: string,
    url: URL,
  ): Promise<void> {
    const context = await pageContext();
    const session = ledger.portalSession(id);
    if (!session) {
      sendHtml(res, store.state.portalSessions[id] ? 410 : 404, expiredPortalPage(context), context);
      return;
    }
    const pageUrl = `/p/session/${id}`;
    const productName = (price: { product: string }) =>
      store.state.products[price.product]?.name ?? price.product;
    const flow = session.flow;
    const pendingChange =
      flow && !store.state.hidden.completedFlows?.[id] ? flow.subscription_update_confirm : undefined;
    const renderConfirm = (status: number, error?: string) => {
      const sub = pendingChange ? store.state.subscriptions[pendingChange.subscription] : undefined;
      const next = pendingChange ? store.state.prices[pendingChange.items[0]?.price ?? ''] : undefined;
      const item = sub?.items.data[0];
      if (!sub || !item || !next || sub.status === 'canceled') return false;
      const terms = ledger.changeTerms(sub, next);
      sendHtml(
        res,
        status,
        portalConfirmPage(context, {
          actionUrl: pageUrl,
          backUrl: flow?.after_completion.redirect?.return_url ?? session.return_url,
          current: { productName: productName(item.price), price: item.price },
          next: { productName: productName(next), price: next },
          dueNow: terms.amount,
          renewsOn: terms.period.end,
          ...(error ? { error } : {}),
        }),
        context,
      );
      return true;
    };
    const render = (
      status: number,
      extra: { notice?: string; confirmCancel?: boolean; cardState?: CardFieldsState } = {},
    ) => {
      const sub = ledger.portalSubscription(session.customer);
      const item = sub?.items.data[0];
      const owner = store.state.customers[session.customer];
      const methodId = sub?.default_payment_method ?? owner?.invoice_settings.default_payment_method;
      const options = ledger
        .portalPrices(session.configuration)
        .map((p) => ({ price: p, productName: productName(p) }))
        .sort(
          (a, b) =>
            a.productName.localeCompare(b.productName) ||
            ['day', 'week', 'month', 'year'].indexOf(a.price.recurring?.interval ?? '') -
              ['day', 'week', 'month', 'year'].indexOf(b.price.recurring?.interval ?? ''),
        );
      sendHtml(
        res,
        status,
        portalPage(context, {
          actionUrl: pageUrl,
          returnUrl: session.return_url,
          subscription: sub,
          productName: item ? productName(item.price) : undefined,
          card: methodId ? store.state.paymentMethods[methodId] : undefined,
          options,
          invoices: ledger.portalInvoices(session.customer, session.configuration),
          ...(extra.notice ? { notice: extra.notice } : {}),
          ...(extra.confirmCancel ? { confirmCancel: true } : {}),
          cardState: extra.cardState ?? {},
        }),
        context,
      );
    };
    if (req.method !== 'POST') {
      if (pendingChange && renderConfirm(200)) return;
      const notice = url.searchParams.get('notice') as PortalNotice | null;
      const sub = ledger.portalSubscription(session.customer);
      render(
        200,
        notice && notice in portalNotices
          ? { notice: portalNotices[notice](sub?.items.data[0]?.current_period_end) }
          : {},
      );
      return;
    }
    const form = new URLSearchParams(await readBody(req));
    const action = form.get('action');
    const sub = ledger.portalSubscription(session.customer);
    const done = (notice: PortalNotice) => {
      store.save();
      redirect(res, `${pageUrl}?notice=${notice}`);
    };
    const requestContext = { id: newId('req', 14), idempotencyKey: null };
    try {
      if (action === 'confirm_update') {
        if (!pendingChange) {
          render(409, { notice: 'This change was already made.' });
          return;
        }
        const item = pendingChange.items[0];
        ledger.withRequest(requestContext, () =>
          ledger.updateSubscription(pendingChange.subscription, {
            items: [{ id: item?.id, price: item?.price }],
            proration_behavior: 'always_invoice',
          }),
        );
        store.state.hidden.completedFlows = { ...store.state.hidden.completedFlows, [id]: true };
        const after = flow?.after_completion;
        if (after?.type === 'redirect' && after.redirect?.return_url) {
          store.save();
          redirect(res, after.redirect.return_url);
          return;
        }
        done('updated');
        return;
      }
      if (action === 'update_card') {
        const input = cardInput(form);
        const checked = checkCard(input, store.now());
        if (!checked.ok) {
          render(402, {
            cardState: {
              expiry: input.expiry,
              cvc: input.cvc,
              error: { field: checked.field, message: checked.message },
            },
          });
          return;
        }
        ledger.withRequest(requestContext, () => ledger.replaceCard(session.customer, checked.card));
        done('card');
        return;
      }
      if (!sub) {
        render(409, { notice: 'There is no subscription to change.' });
        return;
      }
      const itemId = sub.items.data[0]?.id;
      if (action === 'switch') {
        const price = form.get('price') ?? '';
        if (!ledger.portalPrices(session.configuration).some((p) => p.id === price)) {
          render(400, { notice: 'That plan is not offered.' });
          return;
        }
        ledger.withRequest(requestContext, () =>
          ledger.updateSubscription(sub.id, { items: [{ id: itemId, price }] }),
        );
        done('updated');
      } else if (action === 'cancel') {
        render(200, { confirmCancel: true });
      } else if (action === 'cancel_confirm') {
        ledger.withRequest(requestContext, () =>
          ledger.updateSubscription(sub.id, { cancel_at_period_end: 'true' }),
        );
        done('cancelled');
      } else if (action === 'resume') {
        ledger.withRequest(requestContext, () =>
          ledger.updateSubscription(sub.id, { cancel_at_period_end: 'false' }),
        );
        done('renewed');
      } else {
        render(400, { notice: 'That action is not available.' });
      }
    } catch (error) {
      if (!(error instanceof StripeApiError)) throw error;
      store.save();
      if (action === 'confirm_update' && renderConfirm(error.status, error.message)) return;
      render(error.status, { notice: error.message });
    }
  }

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const checkout = /^\/c\/pay\/([\w-]+)$/.exec(url.pathname);
    const portal = /^\/p\/session\/([\w-]+)$/.exec(url.pathname);
    const work = url.pathname.startsWith('/v1/')
      ? handleApi(req, res, url)
      : checkout?.[1]
        ? handleCheckout(req, res, checkout[1])
        : portal?.[1]
          ? handlePortal(req, res, portal[1], url)
          : pageContext().then((context) => sendHtml(res, 404, closedCheckoutPage(context, null), context));
    work.catch((error: unknown) => {
      if (error instanceof StripeApiError) {
        if (!res.headersSent) sendJson(res, error.status, { error: error.error });
        return;
      }
      log(`request failed: ${error instanceof Error ? error.message : String(error)}`);
      if (!res.headersSent) {
        sendJson(res, 500, { error: { type: 'api_error', message: 'An unknown error occurred' } });
      } else res.destroy();
    });
  });

  const port = await new Promise<number>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'EADDRINUSE'
          ? new Error(
              `Port ${options.port} is in use (is another local cloud running?). Stop it or set STRIPE_PORT.`,
            )
          : error,
      ),
    );
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
  });
  baseUrl = `http://127.0.0.1:${port}`;

  return {
    url: baseUrl,
    port,
    env: {
      STRIPE_API_BASE: baseUrl,
      STRIPE_SECRET_KEY: store.state.secretKey,
      STRIPE_WEBHOOK_SECRET: store.state.webhookSecret,
    },
    setWebhookUrl(next) {
      webhookUrl = next;
    },
    hasActivePrices: (priceIds) => priceIds.every((id) => store.state.prices[id]?.active === true),
    setBusinessName(source) {
      businessName = source;
    },
    now: store.now,
    async advance(seconds) {
      if (!Number.isFinite(seconds) || seconds < 0) throw new Error('The clock only moves forward');
      const firstAttempts: Promise<void>[] = [];
      collecting = firstAttempts;
      let result: AdvanceResult;
      try {
        result = ledger.withRequest({ id: null, idempotencyKey: null }, () =>
          ledger.advance(Math.round(seconds)),
        );
      } finally {
        collecting = undefined;
        store.save();
      }
      await Promise.all(firstAttempts);
      return result;
    },
    deliveries,
    async stop() {
      stopped = true;
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      inFlight.abort();
      const closing = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closing;
    },
  };
}

const DEV_PREFIX = '/_dev/stripe';

/** Whether an app-origin request is for the test clock (the local cloud only). */
export function isDevStripePath(url: string): boolean {
  const path = url.split('?')[0] ?? '';
  return path === DEV_PREFIX || path.startsWith(`${DEV_PREFIX}/`);
}

/**
 * The app origin's `POST /_dev/stripe/advance` with `{"days": N}` (N > 0, at
 * most 3660, fractions allowed): moves the test clock on and answers what it
 * settled once the events it caused were first delivered.
 */
export function createTestClockHandler(stripe: Pick<EmbeddedStripe, 'advance'>) {
  const json = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
    res.end(JSON.stringify(body));
  };
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const path = (req.url ?? '').split('?')[0];
    if (path !== `${DEV_PREFIX}/advance`) {
      json(res, 404, { message: 'Not found' });
      return;
    }
    if (req.method !== 'POST') {
      res.setHeader('allow', 'POST');
      json(res, 405, { message: 'Method not allowed' });
      return;
    }
    let days: unknown;
    try {
      days = (JSON.parse(await readBody(req, 10_000)) as { days?: unknown }).days;
    } catch {
      days = undefined;
    }
    if (typeof days !== 'number' || !Number.isFinite(days) || days <= 0 || days > 3660) {
      json(res, 400, {
        message: 'Send {"days": N} with N a number of days greater than 0 and at most 3660.',
      });
      return;
    }
    json(res, 200, await stripe.advance(Math.round(days * 86_400)));
  };
}

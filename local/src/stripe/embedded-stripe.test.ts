import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Stripe from 'stripe';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestClockHandler,
  type EmbeddedStripe,
  signPayload,
  startEmbeddedStripe,
} from './embedded-stripe';

// The embedded Stripe driven by the official SDK, the way the product drives
// it, with a webhook receiver that verifies each event's signature.

const DAY = 86_400;

interface Receiver {
  url: string;
  events: Stripe.Event[];
  /** Status to answer with; a function of the attempt number per event id. */
  answer: (eventId: string, attempt: number) => number;
  attempts: Map<string, number>;
  stop(): Promise<void>;
}

async function startReceiver(secret: () => string): Promise<Receiver> {
  const receiver = {
    events: [] as Stripe.Event[],
    attempts: new Map<string, number>(),
    answer: (_id: string, _attempt: number) => 200,
  };
  const verifier = new Stripe('sk_test_unused');
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    let event: Stripe.Event;
    try {
      event = verifier.webhooks.constructEvent(body, String(req.headers['stripe-signature']), secret());
    } catch {
      res.writeHead(400).end();
      return;
    }
    const attempt = (receiver.attempts.get(event.id) ?? 0) + 1;
    receiver.attempts.set(event.id, attempt);
    const status = receiver.answer(event.id, attempt);
    if (status === 200) receiver.events.push(event);
    res.writeHead(status).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(receiver, {
    url: `http://127.0.0.1:${port}/hook`,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
}

let embedded: EmbeddedStripe;
let receiver: Receiver;
let stripe: Stripe;

function sdk(key: string, base: string): Stripe {
  const url = new URL(base);
  return new Stripe(key, { host: url.hostname, port: url.port, protocol: 'http', maxNetworkRetries: 0 });
}

beforeAll(async () => {
  embedded = await startEmbeddedStripe({ webhookRetryMs: 20, webhookAttempts: 4 });
  receiver = await startReceiver(() => embedded.env.STRIPE_WEBHOOK_SECRET);
  embedded.setWebhookUrl(receiver.url);
  stripe = sdk(embedded.env.STRIPE_SECRET_KEY, embedded.url);
});
afterAll(async () => {
  await embedded.stop();
  await receiver.stop();
});
afterEach(() => {
  receiver.answer = () => 200;
});

async function basicPlan(tag = Math.random().toString(36).slice(2, 8)) {
  const product = await stripe.products.create({ id: `tunesmith_basic_${tag}`, name: 'Basic' });
  const monthly = await stripe.prices.create({
    product: product.id,
    unit_amount: 999,
    currency: 'usd',
    recurring: { interval: 'month' },
    lookup_key: `tunesmith_basic_${tag}_monthly`,
    metadata: { planId: `basic-${tag}`, cycle: 'monthly' },
  });
  const premium = await stripe.products.create({ id: `tunesmith_premium_${tag}`, name: 'Premium' });
  const yearly = await stripe.prices.create({
    product: premium.id,
    unit_amount: 19_000,
    currency: 'usd',
    recurring: { interval: 'year' },
    metadata: { planId: `premium-${tag}`, cycle: 'yearly' },
  });
  return { product, monthly, yearly };
}

/** Posts the hosted Checkout form as a browser would. */
async function payOnCheckout(url: string, card: string): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ card_number: card, card_expiry: '12 / 34', card_cvc: '123' }),
  });
}

async function subscribed(card = '4242 4242 4242 4242') {
  const { monthly, yearly } = await basicPlan();
  const customer = await stripe.customers.create({ email: 'ada@example.com', metadata: { userId: 'u1' } });
  const session = await stripe.checkout.sessions.create({
    mode: 'subscription',
    customer: customer.id,
    client_reference_id: 'u1',
    line_items: [{ price: monthly.id, quantity: 1 }],
    success_url: 'http://app.test/profile?checkout=success',
    cancel_url: 'http://app.test/profile?checkout=cancelled',
  });
  const paid = await payOnCheckout(session.url as string, card);
  expect(paid.status).toBe(303);
  const done = await stripe.checkout.sessions.retrieve(session.id);
  const subscription = await stripe.subscriptions.retrieve(done.subscription as string);
  return { customer, session: done, subscription, monthly, yearly };
}

async function aSession(customer: string) {
  const { monthly } = await basicPlan();
  return stripe.checkout.sessions.create({
    mode: 'subscription',
    customer,
    line_items: [{ price: monthly.id, quantity: 1 }],
    success_url: 'http://app.test/s',
    cancel_url: 'http://app.test/c',
  });
}

/** Saves a card on the hosted portal page. */
function saveCard(portalUrl: string, card: string): Promise<Response> {
  return fetch(portalUrl, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      action: 'update_card',
      card_number: card,
      card_expiry: '12/34',
      card_cvc: '123',
    }),
  });
}

const eventsOf = (subscriptionId: string) =>
  receiver.events.filter((e) => {
    const object = e.data.object as { id?: string; subscription?: string; parent?: unknown };
    return (
      object.id === subscriptionId ||
      object.subscription === subscriptionId ||
      JSON.stringify(object.parent ?? null).includes(subscriptionId)
    );
  });

async function until<T>(read: () => T | undefined, ms = 5000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = read();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('every answer', () => {
  it('says nosniff: the API, its errors, the hosted pages and their redirects', async () => {
    const answers = [
      await fetch(`${embedded.url}/v1/balance`, {
        headers: { authorization: `Bearer ${embedded.env.STRIPE_SECRET_KEY}` },
      }),
      await fetch(`${embedded.url}/v1/balance`),
      await fetch(`${embedded.url}/v1/nothing`, {
        headers: { authorization: `Bearer ${embedded.env.STRIPE_SECRET_KEY}` },
      }),
      await fetch(`${embedded.url}/c/pay/cs_unknown`),
      await fetch(`${embedded.url}/elsewhere`),
      await payOnCheckout(
        (await aSession((await stripe.customers.create({})).id)).url as string,
        '4242 4242 4242 4242',
      ),
    ];
    expect(answers.map((a) => a.status)).toEqual([200, 401, 404, 404, 404, 303]);
    for (const answer of answers) expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
  });
});

describe('the REST API through the official SDK', () => {
  it('refuses a wrong key the way Stripe does', async () => {
    const wrong = sdk('sk_test_wrong_key_1234', embedded.url);
    await expect(wrong.customers.create({ email: 'a@example.com' })).rejects.toMatchObject({
      type: 'StripeAuthenticationError',
      statusCode: 401,
    });
  });

  it('creates and retrieves customers, replaying an idempotent create', async () => {
    const key = `customer-${Date.now()}`;
    const first = await stripe.customers.create({ email: 'ada@example.com' }, { idempotencyKey: key });
    const again = await stripe.customers.create({ email: 'ada@example.com' }, { idempotencyKey: key });
    expect(again.id).toBe(first.id);
    expect(first).toMatchObject({ object: 'customer', email: 'ada@example.com' });
    expect((await stripe.customers.retrieve(first.id)).id).toBe(first.id);
    await expect(
      stripe.customers.create({ email: 'other@example.com' }, { idempotencyKey: key }),
    ).rejects.toMatchObject({ type: 'StripeIdempotencyError' });
  });

  it('answers a missing object with resource_missing and an unknown parameter with parameter_unknown', async () => {
    await expect(stripe.prices.retrieve('price_nope')).rejects.toMatchObject({
      type: 'StripeInvalidRequestError',
      statusCode: 404,
      code: 'resource_missing',
      param: 'id',
    });
    await expect(
      stripe.customers.create({ email: 'a@example.com', nonsense: 1 } as Stripe.CustomerCreateParams),
    ).rejects.toMatchObject({ statusCode: 400, code: 'parameter_unknown', param: 'nonsense' });
  });

  it('lists prices by lookup key and product, and lists pages with has_more', async () => {
    const { product, monthly } = await basicPlan();
    const byKey = await stripe.prices.list({ lookup_keys: [monthly.lookup_key as string] });
    expect(byKey.data.map((p) => p.id)).toEqual([monthly.id]);
    expect(byKey.data[0]).toMatchObject({
      object: 'price',
      unit_amount: 999,
      recurring: { interval: 'month', interval_count: 1 },
      metadata: { cycle: 'monthly' },
    });
    const byProduct = await stripe.prices.list({ product: product.id, limit: 1 });
    expect(byProduct.data).toHaveLength(1);
    expect(byProduct.has_more).toBe(false);
    const all = await stripe.prices.list({ limit: 1 });
    expect(all.has_more).toBe(true);
    const page2 = await stripe.prices.list({ limit: 1, starting_after: all.data[0]?.id });
    expect(page2.data[0]?.id).not.toBe(all.data[0]?.id);
  });
});

describe('hosted Checkout', () => {
  it('shows the plan, price and card field, and links back to the cancel URL', async () => {
    const customer = await stripe.customers.create({ email: 'ada@example.com' });
    const session = await aSession(customer.id);
    expect(session).toMatchObject({ object: 'checkout.session', status: 'open', mode: 'subscription' });
    expect(session.url).toMatch(new RegExp(`^${embedded.url}/c/pay/`));
    const page = await (await fetch(session.url as string)).text();
    expect(page).toContain('Subscribe to Basic');
    expect(page).toContain('$9.99');
    expect(page).toContain('Card number');
    expect(page).toContain('href="http://app.test/c"');
  });

  it('pays with 4242, redirects to the success URL and sends signed events', async () => {
    const { session, subscription, customer } = await subscribed();
    expect(session).toMatchObject({ status: 'complete', payment_status: 'paid', client_reference_id: 'u1' });
    expect(subscription).toMatchObject({
      status: 'active',
      customer: customer.id,
      cancel_at_period_end: false,
    });
    const item = subscription.items.data[0] as Stripe.SubscriptionItem;
    expect(item.current_period_end - item.current_period_start).toBeGreaterThanOrEqual(28 * DAY);
    const types = await until(() => {
      const seen = eventsOf(subscription.id).map((e) => e.type);
      return seen.includes('invoice.payment_succeeded') ? seen : undefined;
    });
    expect(types).toEqual(
      expect.arrayContaining(['customer.subscription.created', 'invoice.paid', 'invoice.payment_succeeded']),
    );
    const completed = await until(() =>
      receiver.events.find(
        (e) =>
          e.type === 'checkout.session.completed' &&
          (e.data.object as Stripe.Checkout.Session).id === session.id,
      ),
    );
    expect(completed.data.object).toMatchObject({ subscription: subscription.id, client_reference_id: 'u1' });
  });

  it('refuses 4000 0000 0000 0002 with the card-declined message and creates nothing', async () => {
    const customer = await stripe.customers.create({ email: 'ada@example.com' });
    const session = await aSession(customer.id);
    const answer = await payOnCheckout(session.url as string, '4000 0000 0000 0002');
    expect(answer.status).toBe(402);
    expect(await answer.text()).toContain('Your card was declined.');
    expect((await stripe.checkout.sessions.retrieve(session.id)).status).toBe('open');
    expect((await stripe.subscriptions.list({ customer: customer.id })).data).toEqual([]);
  });
});

describe('subscriptions', () => {
  it('cancels at period end, resumes, changes price, and deletes', async () => {
    const { subscription, yearly } = await subscribed();
    const cancelled = await stripe.subscriptions.update(subscription.id, { cancel_at_period_end: true });
    expect(cancelled).toMatchObject({ status: 'active', cancel_at_period_end: true });
    expect(cancelled.cancel_at).toBe(cancelled.items.data[0]?.current_period_end);

    const resumed = await stripe.subscriptions.update(subscription.id, { cancel_at_period_end: false });
    expect(resumed).toMatchObject({ cancel_at_period_end: false, cancel_at: null });

    const switched = await stripe.subscriptions.update(subscription.id, {
      items: [{ id: subscription.items.data[0]?.id as string, price: yearly.id }],
    });
    const item = switched.items.data[0] as Stripe.SubscriptionItem;
    expect(item.price.id).toBe(yearly.id);
    expect(item.current_period_end - item.current_period_start).toBeGreaterThanOrEqual(365 * DAY);

    const deleted = await stripe.subscriptions.cancel(subscription.id);
    expect(deleted.status).toBe('canceled');
    await until(() =>
      eventsOf(subscription.id).find((e) => e.type === 'customer.subscription.deleted') ? true : undefined,
    );
  });

  it('opens a portal session that lists the plans and cancels on confirmation', async () => {
    const { customer, subscription } = await subscribed();
    const portal = await stripe.billingPortal.sessions.create({
      customer: customer.id,
      return_url: 'http://app.test/profile?billing=portal',
    });
    expect(portal.url).toMatch(new RegExp(`^${embedded.url}/p/session/`));
    const page = await (await fetch(portal.url)).text();
    expect(page).toContain('Basic');
    expect(page).toContain('href="http://app.test/profile?billing=portal"');

    const form = (action: string) =>
      fetch(portal.url, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ action }),
      });
    const confirm = await form('cancel');
    expect(confirm.status).toBe(200);
    expect((await stripe.subscriptions.retrieve(subscription.id)).cancel_at_period_end).toBe(false);
    expect((await form('cancel_confirm')).status).toBe(303);
    expect((await stripe.subscriptions.retrieve(subscription.id)).cancel_at_period_end).toBe(true);
  });

  it("lists the customer's invoices in the portal, also once the subscription has ended", async () => {
    const { customer, subscription } = await subscribed();
    await stripe.subscriptions.cancel(subscription.id);
    const [invoice] = (await stripe.invoices.list({ customer: customer.id })).data;
    const portal = await stripe.billingPortal.sessions.create({ customer: customer.id });
    const page = await (await fetch(portal.url)).text();
    expect(page).toContain('No active subscription.');
    expect(page).toContain('Invoice history');
    expect(page).toContain(`<td>$${((invoice?.total ?? 0) / 100).toFixed(2)}</td><td>Paid</td>`);

    const stranger = await stripe.customers.create({ email: 'never-paid@example.com' });
    const empty = await stripe.billingPortal.sessions.create({ customer: stranger.id });
    expect(await (await fetch(empty.url)).text()).toContain('No invoices yet.');
  });
});

const post = (url: string, fields: Record<string, string>) =>
  fetch(url, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields),
  });

describe('one checkout at a time', () => {
  it('expires an open session: its page says so, paying it charges nothing, and expiring again is refused', async () => {
    const customer = await stripe.customers.create({ email: 'ada@example.com' });
    const session = await aSession(customer.id);
    const expired = await stripe.checkout.sessions.expire(session.id);
    expect(expired).toMatchObject({ id: session.id, status: 'expired', url: null });
    const page = await fetch(session.url as string);
    expect(page.status).toBe(200);
    const text = await page.text();
    expect(text).toContain('This checkout has expired.');
    expect(text).toContain('Nothing was charged.');
    const paying = await payOnCheckout(session.url as string, '4242 4242 4242 4242');
    expect(paying.status).toBe(409);
    expect((await stripe.subscriptions.list({ customer: customer.id, status: 'all' })).data).toEqual([]);
    expect((await stripe.charges.list({ customer: customer.id })).data).toEqual([]);
    await expect(stripe.checkout.sessions.expire(session.id)).rejects.toMatchObject({
      type: 'StripeInvalidRequestError',
      message: expect.stringContaining('Only Checkout Sessions with a status in ["open"] can be expired'),
    });
    await until(() =>
      receiver.events.find(
        (e) => e.type === 'checkout.session.expired' && (e.data.object as { id: string }).id === session.id,
      ),
    );
  });

  it('refuses to expire a paid session and says on its page that it is paid', async () => {
    const { session } = await subscribed();
    await expect(stripe.checkout.sessions.expire(session.id)).rejects.toMatchObject({
      message: expect.stringContaining('has a status of `complete`'),
    });
    expect(await (await fetch(session.url ?? `${embedded.url}/c/pay/${session.id}`)).text()).toContain(
      'This checkout is already paid.',
    );
  });
});

describe('charges, invoice payments and refunds', () => {
  it("lists a customer's charges and an invoice's payment, and refunds it once", async () => {
    const { customer, subscription } = await subscribed();
    const charges = await stripe.charges.list({ customer: customer.id });
    expect(charges.data).toHaveLength(1);
    const [charge] = charges.data as [Stripe.Charge];
    expect(charge).toMatchObject({
      object: 'charge',
      amount: 999,
      amount_refunded: 0,
      status: 'succeeded',
      paid: true,
    });
    const invoices = await stripe.invoices.list({ subscription: subscription.id, status: 'paid' });
    const payments = await stripe.invoicePayments.list({
      invoice: invoices.data[0]?.id as string,
      status: 'paid',
    });
    expect(payments.data).toHaveLength(1);
    expect(payments.data[0]).toMatchObject({
      object: 'invoice_payment',
      amount_paid: 999,
      payment: { type: 'payment_intent', payment_intent: charge.payment_intent },
    });

    const refund = await stripe.refunds.create(
      { payment_intent: charge.payment_intent as string, reason: 'duplicate' },
      { idempotencyKey: `refund-${charge.id}` },
    );
    expect(refund).toMatchObject({
      object: 'refund',
      amount: 999,
      charge: charge.id,
      status: 'succeeded',
      reason: 'duplicate',
    });
    // The same key replays the same refund; a new one is refused, as the charge has nothing left.
    const replayed = await stripe.refunds.create(
      { payment_intent: charge.payment_intent as string, reason: 'duplicate' },
      { idempotencyKey: `refund-${charge.id}` },
    );
    expect(replayed.id).toBe(refund.id);
    await expect(
      stripe.refunds.create({ payment_intent: charge.payment_intent as string }),
    ).rejects.toMatchObject({
      code: 'charge_already_refunded',
    });
    expect(await stripe.charges.retrieve(charge.id)).toMatchObject({ amount_refunded: 999, refunded: true });
    expect(
      (await stripe.refunds.list({ payment_intent: charge.payment_intent as string })).data,
    ).toHaveLength(1);
  });
});

describe('the portal configuration and its confirm step', () => {
  it('offers exactly the configured prices, and confirms one change to a price, then returns', async () => {
    const { customer, subscription, monthly, yearly } = await subscribed();
    const premiumProduct = yearly.product as string;
    const configuration = await stripe.billingPortal.configurations.create({
      features: {
        subscription_update: {
          enabled: true,
          default_allowed_updates: ['price'],
          proration_behavior: 'always_invoice',
          products: [{ product: premiumProduct, prices: [yearly.id] }],
        },
        subscription_cancel: { enabled: true, mode: 'at_period_end' },
        payment_method_update: { enabled: true },
      },
      metadata: { app: 'tunesmith' },
    });
    expect(configuration).toMatchObject({
      object: 'billing_portal.configuration',
      active: true,
      is_default: false,
    });
    await expect(
      stripe.billingPortal.configurations.update(configuration.id, {
        features: { subscription_update: { products: [{ product: premiumProduct, prices: [monthly.id] }] } },
      }),
    ).rejects.toMatchObject({ type: 'StripeInvalidRequestError' });
    expect(
      (await stripe.billingPortal.configurations.list({ active: true })).data.map((c) => c.id),
    ).toContain(configuration.id);

    const plain = await stripe.billingPortal.sessions.create({
      customer: customer.id,
      configuration: configuration.id,
      return_url: 'http://app.test/profile?billing=portal',
    });
    const options = (await (await fetch(plain.url)).text()).match(/<option value="([^"]+)"/g) ?? [];
    expect(options).toEqual([`<option value="${yearly.id}"`]);
    expect((await post(plain.url, { action: 'switch', price: monthly.id })).status).toBe(400);

    // The plain portal cannot confirm a change that was never asked for.
    await expect(
      stripe.billingPortal.sessions.create({
        customer: customer.id,
        configuration: configuration.id,
        flow_data: {
          type: 'subscription_update_confirm',
          subscription_update_confirm: {
            subscription: subscription.id,
            items: [{ id: subscription.items.data[0]?.id as string, price: monthly.id }],
          },
        },
      }),
    ).rejects.toMatchObject({ param: 'flow_data[subscription_update_confirm][items][0][price]' });

    const flow = await stripe.billingPortal.sessions.create({
      customer: customer.id,
      configuration: configuration.id,
      return_url: 'http://app.test/profile?billing=portal',
      flow_data: {
        type: 'subscription_update_confirm',
        subscription_update_confirm: {
          subscription: subscription.id,
          items: [{ id: subscription.items.data[0]?.id as string, price: yearly.id, quantity: 1 }],
        },
        after_completion: {
          type: 'redirect',
          redirect: { return_url: 'http://app.test/profile?billing=updated' },
        },
      },
    });
    expect(flow.flow).toMatchObject({ type: 'subscription_update_confirm' });
    const confirm = await (await fetch(flow.url)).text();
    expect(confirm).toContain('Confirm your new plan');
    expect(confirm).toContain('Premium · $190.00 per year');
    expect((await stripe.subscriptions.retrieve(subscription.id)).items.data[0]?.price.id).toBe(monthly.id);

    const confirmed = await post(flow.url, { action: 'confirm_update' });
    expect(confirmed.status).toBe(303);
    expect(confirmed.headers.get('location')).toBe('http://app.test/profile?billing=updated');
    expect((await stripe.subscriptions.retrieve(subscription.id)).items.data[0]?.price.id).toBe(yearly.id);
    // A flow runs once: the page is the portal now, and confirming again changes nothing.
    expect(await (await fetch(flow.url)).text()).not.toContain('Confirm your new plan');
    expect((await post(flow.url, { action: 'confirm_update' })).status).toBe(409);
  });
});

describe('the hosted pages', () => {
  it("show the account's business name, contrast that reads, and format the expiry as it is typed", async () => {
    embedded.setBusinessName(async () => 'Song Forge');
    try {
      const customer = await stripe.customers.create({ email: 'ada@example.com' });
      const session = await aSession(customer.id);
      const answer = await fetch(session.url as string);
      const page = await answer.text();
      expect(page).toContain('<span class="brand">Song Forge</span>');
      const nonce = /script-src 'nonce-([^']+)'/.exec(
        answer.headers.get('content-security-policy') ?? '',
      )?.[1];
      expect(nonce).toBeTruthy();
      expect(page).toContain(`<script nonce="${nonce}">`);
      expect(page).toContain('a{color:#4f46e5}');
    } finally {
      embedded.setBusinessName(undefined);
    }
    const customer = await stripe.customers.create({ email: 'ada@example.com' });
    const page = await (await fetch((await aSession(customer.id)).url as string)).text();
    expect(page).toContain('<span class="brand">Tunesmith</span>');
  });
});

describe('the test clock', () => {
  it('renews what is due with the card on file and ends a cancelled subscription at its period end', async () => {
    const renewing = await subscribed();
    const ending = await subscribed();
    await stripe.subscriptions.update(ending.subscription.id, { cancel_at_period_end: true });
    const periodEnd = renewing.subscription.items.data[0]?.current_period_end as number;

    await embedded.advance(periodEnd - embedded.now() + 60);

    const renewed = await stripe.subscriptions.retrieve(renewing.subscription.id);
    expect(renewed.status).toBe('active');
    expect(renewed.items.data[0]?.current_period_start).toBe(periodEnd);
    const invoices = await stripe.invoices.list({ subscription: renewing.subscription.id });
    expect(invoices.data.map((i) => [i.billing_reason, i.status])).toEqual([
      ['subscription_cycle', 'paid'],
      ['subscription_create', 'paid'],
    ]);
    expect((await stripe.subscriptions.retrieve(ending.subscription.id)).status).toBe('canceled');
    const types = eventsOf(ending.subscription.id).map((e) => e.type);
    expect(types).toContain('customer.subscription.deleted');
  });

  it('fails a renewal with a card that declines later, then recovers when a working card is saved', async () => {
    const { subscription, customer } = await subscribed();
    await expect(
      (await payOnCheckout((await aSession(customer.id)).url as string, '4000 0000 0000 0341')).status,
    ).toBe(402);
    const portal = await stripe.billingPortal.sessions.create({
      customer: customer.id,
      return_url: 'http://app.test/p',
    });
    expect((await saveCard(portal.url, '4000000000000341')).status).toBe(303);
    const periodEnd = subscription.items.data[0]?.current_period_end as number;

    await embedded.advance(periodEnd - embedded.now() + 60);
    expect((await stripe.subscriptions.retrieve(subscription.id)).status).toBe('past_due');
    expect(eventsOf(subscription.id).map((e) => e.type)).toContain('invoice.payment_failed');

    expect((await saveCard(portal.url, '4242424242424242')).status).toBe(303);
    expect((await stripe.subscriptions.retrieve(subscription.id)).status).toBe('active');
  });

  it('ends a subscription whose payments keep failing after the retries', async () => {
    const { subscription, customer } = await subscribed();
    const portal = await stripe.billingPortal.sessions.create({
      customer: customer.id,
      return_url: 'http://app.test/p',
    });
    await saveCard(portal.url, '4000000000000341');
    const periodEnd = subscription.items.data[0]?.current_period_end as number;

    await embedded.advance(periodEnd - embedded.now() + 60);
    await embedded.advance(20 * DAY);

    expect((await stripe.subscriptions.retrieve(subscription.id)).status).toBe('canceled');
  });

  it('answers the app-origin advance call and refuses a bad body', async () => {
    const handler = createTestClockHandler(embedded);
    const server = http.createServer((req, res) => void handler(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const bad = await fetch(`${base}/_dev/stripe/advance`, { method: 'POST', body: '{"days":0}' });
      expect(bad.status).toBe(400);
      const before = embedded.now();
      const good = await fetch(`${base}/_dev/stripe/advance`, { method: 'POST', body: '{"days":1}' });
      expect(good.status).toBe(200);
      expect(embedded.now() - before).toBeGreaterThanOrEqual(DAY);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});

describe('webhook delivery', () => {
  it('signs as Stripe does: t and v1 over the raw body with the whsec_ secret', () => {
    const secret = embedded.env.STRIPE_WEBHOOK_SECRET;
    expect(secret).toMatch(/^whsec_/);
    const payload = JSON.stringify({ id: 'evt_1', object: 'event' });
    const header = signPayload(payload, secret, 1_700_000_000);
    expect(header).toMatch(/^t=1700000000,v1=[0-9a-f]{64}$/);
    const event = Stripe.webhooks.constructEvent(payload, header, secret, 10 ** 10);
    expect(event.id).toBe('evt_1');
  });

  it('retries with backoff until the endpoint answers 2xx', async () => {
    receiver.answer = (_id, attempt) => (attempt < 3 ? 500 : 200);
    const { subscription } = await subscribed();
    const created = await until(() =>
      eventsOf(subscription.id).find((e) => e.type === 'customer.subscription.created'),
    );
    expect(receiver.attempts.get(created.id)).toBe(3);
    const statuses = await until(() => {
      const seen = embedded.deliveries.filter((d) => d.eventId === created.id).map((d) => d.status);
      return seen.length === 3 ? seen : undefined;
    });
    expect(statuses).toEqual([500, 500, 200]);
  });
});

describe('state', () => {
  it('keeps keys and objects in the data directory across starts', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'stripe-state-'));
    try {
      const first = await startEmbeddedStripe({ dataDir: dir });
      const customer = await sdk(first.env.STRIPE_SECRET_KEY, first.url).customers.create({
        email: 'a@b.co',
      });
      await first.stop();
      const second = await startEmbeddedStripe({ dataDir: dir });
      try {
        expect(second.env).toMatchObject({
          STRIPE_SECRET_KEY: first.env.STRIPE_SECRET_KEY,
          STRIPE_WEBHOOK_SECRET: first.env.STRIPE_WEBHOOK_SECRET,
        });
        const again = await sdk(second.env.STRIPE_SECRET_KEY, second.url).customers.retrieve(customer.id);
        expect(again.id).toBe(customer.id);
      } finally {
        await second.stop();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

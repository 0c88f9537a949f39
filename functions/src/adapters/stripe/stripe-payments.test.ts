import Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import { PaymentsError } from '../../domain/billing/ports';
import {
  sdkConnection,
  stripePayments,
  toPaymentEvent,
  toPaymentsError,
  toSnapshot,
} from './stripe-payments';

const SECRET = 'whsec_test_secret';
const payments = stripePayments({ keys: async () => ({ secretKey: 'sk_test_1', webhookSecret: SECRET }) });

const event = (object: Record<string, unknown>, type = 'checkout.session.completed') => ({
  id: 'evt_1',
  object: 'event',
  type,
  created: 1_790_000_000,
  data: { object },
});

const signed = (body: string, secret = SECRET) =>
  Stripe.webhooks.generateTestHeaderString({ payload: body, secret });

describe('verifyEvent', () => {
  const body = JSON.stringify(
    event({ object: 'checkout.session', id: 'cs_1', customer: 'cus_1', client_reference_id: 'user-1' }),
  );

  it('accepts a delivery signed with the webhook secret, over the raw bytes', async () => {
    expect(await payments.verifyEvent(Buffer.from(body), signed(body))).toEqual({
      id: 'evt_1',
      type: 'checkout.session.completed',
      customerId: 'cus_1',
      userId: 'user-1',
    });
  });

  it('refuses a changed body, another secret, a stale signature and a missing one', async () => {
    const stale = Stripe.webhooks.generateTestHeaderString({
      payload: body,
      secret: SECRET,
      timestamp: Math.floor(Date.now() / 1000) - 3600,
    });
    const attempts: [string, string | undefined][] = [
      [body.replace('cus_1', 'cus_2'), signed(body)],
      [body, signed(body, 'whsec_other')],
      [body, stale],
      [body, undefined],
      ['not json', signed('not json')],
    ];
    for (const [raw, signature] of attempts) {
      await expect(payments.verifyEvent(Buffer.from(raw), signature)).rejects.toMatchObject({
        failure: 'signature',
      });
    }
  });

  it('cannot verify anything without a webhook secret', async () => {
    const unconfigured = stripePayments({ keys: async () => ({ secretKey: 'sk_test_1' }) });
    await expect(unconfigured.verifyEvent(Buffer.from(body), signed(body))).rejects.toMatchObject({
      failure: 'not-configured',
    });
  });
});

describe('toPaymentEvent', () => {
  it('reads the customer of invoices and subscriptions, expanded or not, and no user outside Checkout', () => {
    const invoice = toPaymentEvent(
      event(
        { object: 'invoice', customer: { id: 'cus_9' } },
        'invoice.payment_failed',
      ) as unknown as Stripe.Event,
    );
    expect(invoice).toEqual({
      id: 'evt_1',
      type: 'invoice.payment_failed',
      customerId: 'cus_9',
      userId: null,
    });
    const product = toPaymentEvent(
      event({ object: 'product' }, 'product.created') as unknown as Stripe.Event,
    );
    expect(product.customerId).toBeNull();
  });
});

describe('toSnapshot', () => {
  const subscription = (overrides: Record<string, unknown> = {}) =>
    ({
      id: 'sub_1',
      object: 'subscription',
      customer: 'cus_1',
      status: 'active',
      cancel_at_period_end: false,
      cancel_at: null,
      ended_at: null,
      created: 1_789_999_990,
      start_date: 1_790_000_000,
      items: {
        data: [
          {
            id: 'si_1',
            current_period_start: 1_790_000_000,
            current_period_end: 1_792_592_000,
            price: { id: 'price_1', recurring: { interval: 'month' }, metadata: { planId: 'basic' } },
          },
        ],
      },
      ...overrides,
    }) as unknown as Stripe.Subscription;

  it('takes price and period from the item', () => {
    expect(toSnapshot(subscription())).toEqual({
      id: 'sub_1',
      customerId: 'cus_1',
      createdAt: new Date(1_789_999_990_000).toISOString(),
      status: 'active',
      itemId: 'si_1',
      priceId: 'price_1',
      priceTags: { planId: 'basic', cycle: 'monthly' },
      cancelScheduled: false,
      periodStart: new Date(1_790_000_000_000).toISOString(),
      periodEnd: new Date(1_792_592_000_000).toISOString(),
      endedAt: null,
    });
  });

  it('counts a cancel date as scheduled cancellation, and keeps when it ended', () => {
    expect(toSnapshot(subscription({ cancel_at: 1_792_592_000 })).cancelScheduled).toBe(true);
    expect(toSnapshot(subscription({ cancel_at_period_end: true })).cancelScheduled).toBe(true);
    expect(toSnapshot(subscription({ status: 'canceled', ended_at: 1_791_000_000 })).endedAt).toBe(
      new Date(1_791_000_000_000).toISOString(),
    );
  });
});

describe('sdkConnection', () => {
  it('points the SDK at STRIPE_API_BASE, and nowhere special without it', () => {
    expect(sdkConnection('http://127.0.0.1:8606')).toEqual({
      host: '127.0.0.1',
      port: '8606',
      protocol: 'http',
    });
    expect(sdkConnection('https://stripe.internal')).toEqual({
      host: 'stripe.internal',
      port: 443,
      protocol: 'https',
    });
    expect(sdkConnection(undefined)).toEqual({});
  });
});

describe('toPaymentsError', () => {
  it("maps Stripe's error classes to the port's failures", () => {
    const { errors } = Stripe;
    const missing = new errors.StripeInvalidRequestError({
      message: "No such price: 'price_x'",
      code: 'resource_missing',
      param: 'line_items[0][price]',
    });
    expect(toPaymentsError(missing)).toMatchObject({ failure: 'missing', param: 'line_items[0][price]' });
    expect(toPaymentsError(new errors.StripeInvalidRequestError({ message: 'bad' }))).toMatchObject({
      failure: 'invalid-request',
    });
    expect(
      toPaymentsError(new errors.StripeAuthenticationError({ message: 'Invalid API Key' })),
    ).toMatchObject({
      failure: 'not-configured',
    });
    expect(toPaymentsError(new errors.StripeConnectionError({ message: 'ECONNREFUSED' }))).toMatchObject({
      failure: 'unavailable',
    });
    const other = new Error('bug');
    expect(toPaymentsError(other)).toBe(other);
    expect(toPaymentsError(new PaymentsError('signature', 'x'))).toMatchObject({ failure: 'signature' });
  });

  it('refuses every call while no secret key is configured', async () => {
    const unconfigured = stripePayments({ keys: async () => ({}) });
    await expect(
      unconfigured.createPortalSession({ customerId: 'cus_1', returnUrl: 'x' }),
    ).rejects.toMatchObject({
      failure: 'not-configured',
    });
  });
});

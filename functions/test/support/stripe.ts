import Stripe from 'stripe';
import { expect } from 'vitest';
import { sdkConnection } from '../../src/adapters/stripe/stripe-payments';
import { apiUrl, type Browser, cloudEnv } from './http';

/** The SDK on the cloud's Stripe (the embedded one locally), with the key the API uses. */
export function stripeClient(): Stripe {
  const key = cloudEnv.STRIPE_SECRET_KEY;
  if (!key) throw new Error('These tests need the cloud Stripe key (STRIPE_SECRET_KEY)');
  return new Stripe(key, { ...sdkConnection(cloudEnv.STRIPE_API_BASE), maxNetworkRetries: 0 });
}

export const cards = {
  pays: '4242 4242 4242 4242',
  declined: '4000 0000 0000 0002',
  /** Can be saved, but every later charge is declined. */
  failsLater: '4000 0000 0000 0341',
} as const;

/** Submits a hosted page's form as a browser would, without following the redirect. */
export async function submitForm(url: string, fields: Record<string, string>): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
  });
}

const cardFields = (number: string) => ({ card_number: number, card_expiry: '12 / 34', card_cvc: '123' });

/** Pays on the hosted Checkout page; returns the page's answer. */
export const payAtCheckout = (checkoutUrl: string, card: string = cards.pays) =>
  submitForm(checkoutUrl, cardFields(card));

/** One action on the hosted portal page (`switch`, `cancel`, `resume`, `update_card`). */
export const portalAction = (portalUrl: string, action: string, fields: Record<string, string> = {}) =>
  submitForm(portalUrl, { action, ...fields });

export const saveCard = (portalUrl: string, card: string) =>
  portalAction(portalUrl, 'update_card', cardFields(card));

/** Moves the local cloud's Stripe test clock on; resolves once the events it caused were first delivered. */
export async function advanceClock(days: number): Promise<Record<string, unknown>> {
  const response = await fetch(`${apiUrl}/_dev/stripe/advance`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ days }),
  });
  expect(response.status).toBe(200);
  return (await response.json()) as Record<string, unknown>;
}

/** The signed-in user as the API answers, once `ready` holds (webhooks land a moment after Stripe acts). */
export async function userOnceTrue(
  browser: Browser,
  ready: (user: Record<string, unknown>) => boolean,
  timeoutMs = 15_000,
): Promise<Record<string, unknown>> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const { status, body } = await browser.get('/api/auth/user');
    expect(status).toBe(200);
    if (ready(body)) return body;
    if (Date.now() > until) {
      throw new Error(`The user never reached the expected state; last seen: ${JSON.stringify(body)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Starts Checkout through the API and pays it; returns the user once the webhook made the plan active. */
export async function subscribeThroughCheckout(
  browser: Browser,
  planId: string,
  billingCycle: 'weekly' | 'monthly' | 'yearly',
): Promise<Record<string, unknown>> {
  const started = await browser.post('/api/stripe/create-checkout-session', { planId, billingCycle });
  expect(started.status).toBe(200);
  expect(started.body.destination).toBe('checkout');
  const paid = await payAtCheckout(String(started.body.url));
  expect(paid.status).toBe(303);
  return userOnceTrue(browser, (user) => user.planStatus === 'active' && user.subscriptionPlanId === planId);
}

/** A portal page of the signed-in user, through the API. */
export async function openPortal(browser: Browser): Promise<string> {
  const { status, body } = await browser.post('/api/stripe/create-portal-session');
  expect(status).toBe(200);
  return String(body.url);
}

/** POSTs a raw webhook body to the API, signed with `secret` (the cloud's webhook secret by default). */
export async function deliverEvent(
  body: string,
  options: { secret?: string; signature?: string | null } = {},
): Promise<{ status: number; body: Record<string, unknown> }> {
  const secret = options.secret ?? cloudEnv.STRIPE_WEBHOOK_SECRET ?? '';
  const signature =
    options.signature === undefined
      ? Stripe.webhooks.generateTestHeaderString({ payload: body, secret })
      : options.signature;
  const response = await fetch(`${apiUrl}/api/webhooks/stripe`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json; charset=utf-8',
      ...(signature === null ? {} : { 'stripe-signature': signature }),
    },
    body,
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

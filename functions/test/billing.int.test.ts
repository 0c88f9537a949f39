/**
 * Billing through the real API and middleware against the local cloud's
 * embedded Stripe: Checkout, the portal, cancelling, the test clock, and the
 * webhook (signatures, idempotency, any order).
 */
import { randomUUID } from 'node:crypto';
import { DeleteCommand, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { billingMessages } from '@tunesmith/shared/billing';
import type Stripe from 'stripe';
import { afterAll, describe, expect, it } from 'vitest';
import { dynamoPlanRepository } from '../src/adapters/dynamo/plan-repository';
import { keys } from '../src/data/keys';
import { signedInUser } from './support/accounts';
import { direct } from './support/direct';
import { apiUrl, Browser } from './support/http';
import { cloudEnv, localOnly, onStage, skippedWhen } from './support/run';
import {
  advanceClock,
  cards,
  deliverEvent,
  openPortal,
  payAtCheckout,
  portalAction,
  saveCard,
  stripeClient,
  subscribeThroughCheckout,
  userOnceTrue,
} from './support/stripe';

const store = direct();
const plans = dynamoPlanRepository(store.documents, store.tableName);

afterAll(() => store.close());

const checkout = (browser: Browser, body: unknown) =>
  browser.post('/api/stripe/create-checkout-session', body);

describe('POST /api/stripe/create-checkout-session: refusals', () => {
  it('needs a session and a same-site origin', async () => {
    const visitor = await new Browser().post('/api/stripe/create-checkout-session', {
      planId: 'basic',
      billingCycle: 'monthly',
    });
    expect(visitor.status).toBe(401);
    const { browser } = await signedInUser();
    const foreign = await browser.post(
      '/api/stripe/create-checkout-session',
      { planId: 'basic', billingCycle: 'monthly' },
      { origin: 'https://evil.example' },
    );
    expect(foreign.status).toBe(403);
  });

  it('answers bad input, unknown, free and inactive plans with a message, and starts nothing', async () => {
    const { browser, id } = await signedInUser();
    const retired = `retired-${randomUUID()}`;
    const now = new Date().toISOString();
    await plans.put({
      ...((await plans.get('basic')) as NonNullable<Awaited<ReturnType<typeof plans.get>>>),
      id: retired,
      name: 'Retired',
      isActive: false,
      createdAt: now,
      updatedAt: now,
    });
    try {
      const cases: [unknown, number, string][] = [
        [{}, 400, 'Choose a plan.'],
        [{ planId: 'basic', billingCycle: 'daily' }, 400, 'Choose weekly, monthly or yearly billing.'],
        [{ planId: 'gold', billingCycle: 'monthly' }, 404, 'Plan not found'],
        [
          { planId: 'free', billingCycle: 'monthly' },
          400,
          'The Free plan needs no payment: every account starts on it.',
        ],
        [
          { planId: retired, billingCycle: 'monthly' },
          400,
          'This plan is no longer offered. Please choose another plan.',
        ],
      ];
      for (const [body, status, message] of cases) {
        const answer = await checkout(browser, body);
        expect(answer, JSON.stringify(body)).toMatchObject({ status, body: { message } });
      }
      const profile = await store.users.get(id);
      expect(profile?.stripeCustomerId).toBeNull();
    } finally {
      await store.documents.send(new DeleteCommand({ TableName: store.tableName, Key: keys.plan(retired) }));
    }
  });

  it("answers a cycle without a price with the spec's configuration message", async () => {
    const { browser } = await signedInUser();
    const premium = await plans.get('premium');
    if (!premium) throw new Error('the seed has a Premium plan');
    await plans.put({ ...premium, weeklyPriceId: null });
    try {
      expect(await checkout(browser, { planId: 'premium', billingCycle: 'weekly' })).toMatchObject({
        status: 400,
        body: { message: 'This plan is not configured for weekly billing. Please contact support.' },
      });
    } finally {
      await plans.put(premium);
    }
  });

  it('refuses the portal and cancelling to a user who never paid', async () => {
    const { browser } = await signedInUser();
    expect(await browser.post('/api/stripe/create-portal-session')).toMatchObject({
      status: 409,
      body: { message: 'You have no billing account yet. Choose a plan on the Pricing page first.' },
    });
    expect(await browser.post('/api/stripe/cancel-subscription')).toMatchObject({
      status: 409,
      body: { message: 'You have no subscription to cancel.' },
    });
  });
});

describe('POST /api/webhooks/stripe: authenticity', () => {
  it('answers 400 to a bad or missing signature, and nothing changes', async () => {
    const { id } = await signedInUser();
    const before = await store.users.get(id);
    const body = JSON.stringify({
      id: `evt_${randomUUID()}`,
      object: 'event',
      type: 'checkout.session.completed',
      created: Math.floor(Date.now() / 1000),
      data: { object: { object: 'checkout.session', customer: 'cus_forged', client_reference_id: id } },
    });
    const attempts = [
      await deliverEvent(body, { secret: 'whsec_not_ours' }),
      await deliverEvent(body, { signature: null }),
      await deliverEvent(body, { signature: `t=${Math.floor(Date.now() / 1000)},v1=${'0'.repeat(64)}` }),
    ];
    for (const answer of attempts)
      expect(answer).toEqual({ status: 400, body: { message: 'Invalid signature' } });
    expect(await store.users.get(id)).toEqual(before);
  });

  skippedWhen(
    onStage && !cloudEnv.STRIPE_WEBHOOK_SECRET,
    "needs the stage's Stripe webhook signing secret: export STRIPE_WEBHOOK_SECRET=whsec_... to run it",
  ).it('acknowledges a genuine event it does not act on', async () => {
    const body = JSON.stringify({
      id: `evt_${randomUUID()}`,
      object: 'event',
      type: 'customer.created',
      created: Math.floor(Date.now() / 1000),
      data: { object: { object: 'customer', id: 'cus_x' } },
    });
    expect(await deliverEvent(body)).toEqual({ status: 200, body: { received: true, outcome: 'ignored' } });
  });
});

// The rest pays on the embedded Stripe's hosted pages and moves its test clock, which only the local cloud has.
localOnly("pays on the embedded Stripe's hosted pages and moves its test clock").describe(
  'subscriptions on the embedded Stripe',
  () => {
    it('subscribes through Checkout: the webhook makes the plan active with its quota, private tracks and downloads', async () => {
      const { browser, id } = await signedInUser();
      const started = await checkout(browser, { planId: 'basic', billingCycle: 'monthly' });
      expect(started).toMatchObject({ status: 200, body: { destination: 'checkout' } });

      const paid = await payAtCheckout(String(started.body.url));
      expect(paid.status).toBe(303);
      expect(paid.headers.get('location')).toBe(`${apiUrl}/profile?checkout=success&plan=basic`);

      const user = await userOnceTrue(browser, (u) => u.planStatus === 'active');
      expect(user).toMatchObject({
        subscriptionPlanId: 'basic',
        planName: 'Basic',
        billingCycle: 'monthly',
        entitlements: { paid: true, weeklyLimit: 30, canPrivate: true, canDownload: true },
      });
      const start = new Date(String(user.planStartDate));
      const end = new Date(String(user.planEndDate));
      expect(end.getTime() - start.getTime()).toBeGreaterThanOrEqual(28 * 86_400_000);
      expect(end.getTime() - start.getTime()).toBeLessThanOrEqual(31 * 86_400_000);
      const profile = await store.users.get(id);
      expect(profile?.stripeCustomerId).toMatch(/^cus_/);
      expect(profile?.stripeSubscriptionId).toBe(user.stripeSubscriptionId);

      // Choosing a plan again is refused with where to manage it: no second subscription.
      const again = await checkout(browser, { planId: 'premium', billingCycle: 'yearly' });
      expect(again).toMatchObject({
        status: 409,
        body: { message: billingMessages.alreadySubscribed, manageUrl: '/profile' },
      });
      const subscriptions = await stripeClient().subscriptions.list({
        customer: profile?.stripeCustomerId as string,
        status: 'all',
      });
      expect(subscriptions.data).toHaveLength(1);
    });

    it("keeps a declined card's user on the free plan, with Stripe's message on the page", async () => {
      const { browser } = await signedInUser();
      const started = await checkout(browser, { planId: 'basic', billingCycle: 'weekly' });
      const declined = await payAtCheckout(String(started.body.url), cards.declined);
      expect(declined.status).toBe(402);
      expect(await declined.text()).toContain('Your card was declined.');
      const { body } = await browser.get('/api/auth/user');
      expect(body).toMatchObject({ planStatus: 'free', planName: null, entitlements: { paid: false } });
    });

    it('changes plan in the portal at once, cancels at the period end and ends then, through the test clock', async () => {
      const { browser } = await signedInUser();
      await subscribeThroughCheckout(browser, 'basic', 'monthly');
      const portal = await openPortal(browser);
      const premiumYearly = (await plans.get('premium'))?.yearlyPriceId as string;
      expect((await portalAction(portal, 'switch', { price: premiumYearly })).status).toBe(303);
      const premium = await userOnceTrue(browser, (u) => u.subscriptionPlanId === 'premium');
      expect(premium).toMatchObject({
        planStatus: 'active',
        billingCycle: 'yearly',
        entitlements: { weeklyLimit: 100 },
      });

      const cancelled = await browser.post('/api/stripe/cancel-subscription');
      expect(cancelled.status).toBe(200);
      expect(cancelled.body.planEndDate).toBe(premium.planEndDate);
      expect(String(cancelled.body.message)).toMatch(
        /^Your subscription is cancelled\. You keep your plan until /,
      );
      const ending = await userOnceTrue(browser, (u) => u.planStatus === 'cancelled');
      expect(ending).toMatchObject({
        subscriptionPlanId: 'premium',
        entitlements: { paid: true, canDownload: true },
      });

      await advanceClock(400);
      const expired = await userOnceTrue(browser, (u) => u.planStatus === 'expired');
      expect(expired).toMatchObject({
        subscriptionPlanId: null,
        stripeSubscriptionId: null,
        planName: null,
        planEndDate: premium.planEndDate,
        entitlements: { paid: false, weeklyLimit: 5, canPrivate: false, canDownload: false },
      });
    });

    it('loses paid entitlements when a renewal is declined, and gets them back once paid', async () => {
      const { browser } = await signedInUser();
      await subscribeThroughCheckout(browser, 'basic', 'weekly');
      const portal = await openPortal(browser);
      expect((await saveCard(portal, cards.failsLater)).status).toBe(303);

      await advanceClock(8);
      const inactive = await userOnceTrue(browser, (u) => u.planStatus === 'inactive');
      expect(inactive).toMatchObject({
        subscriptionPlanId: 'basic',
        planName: 'Basic',
        entitlements: { paid: false, weeklyLimit: 5, canPrivate: false, canDownload: false },
      });

      expect((await saveCard(await openPortal(browser), cards.pays)).status).toBe(303);
      const recovered = await userOnceTrue(browser, (u) => u.planStatus === 'active');
      expect(recovered).toMatchObject({
        subscriptionPlanId: 'basic',
        entitlements: { paid: true, weeklyLimit: 30 },
      });
    });

    it('ends an unpaid subscription at once when an inactive user cancels', async () => {
      const { browser } = await signedInUser();
      const { stripeSubscriptionId } = await subscribeThroughCheckout(browser, 'basic', 'weekly');
      expect((await saveCard(await openPortal(browser), cards.failsLater)).status).toBe(303);
      await advanceClock(8);
      await userOnceTrue(browser, (u) => u.planStatus === 'inactive');

      const cancelled = await browser.post('/api/stripe/cancel-subscription');
      expect(cancelled).toMatchObject({ status: 200, body: { message: billingMessages.cancelledNow } });
      expect((await stripeClient().subscriptions.retrieve(stripeSubscriptionId as string)).status).toBe(
        'canceled',
      );
      const ended = await userOnceTrue(browser, (u) => u.planStatus === 'expired');
      expect(ended).toMatchObject({ subscriptionPlanId: null, entitlements: { paid: false } });
    });

    it('ends in the same user record whatever order the events arrive in, and however often', async () => {
      const stripe = stripeClient();
      const { browser, id } = await signedInUser();
      const since = (await stripe.events.list({ limit: 1 })).data[0]?.created ?? 0;

      // A realistic life: subscribe, renew, change plan, cancel, expire.
      await subscribeThroughCheckout(browser, 'basic', 'monthly');
      await advanceClock(32);
      await userOnceTrue(browser, (u) => u.planStatus === 'active' && u.planStartDate !== null);
      const premiumYearly = (await plans.get('premium'))?.yearlyPriceId as string;
      await portalAction(await openPortal(browser), 'switch', { price: premiumYearly });
      await userOnceTrue(browser, (u) => u.subscriptionPlanId === 'premium');
      expect((await browser.post('/api/stripe/cancel-subscription')).status).toBe(200);
      await userOnceTrue(browser, (u) => u.planStatus === 'cancelled');
      await advanceClock(400);
      await userOnceTrue(browser, (u) => u.planStatus === 'expired');

      const customer = (await store.users.get(id))?.stripeCustomerId as string;
      const events = await eventsOf(stripe, customer, since);
      const types = new Set(events.map((e) => e.type));
      for (const type of [
        'checkout.session.completed',
        'customer.subscription.created',
        'customer.subscription.updated',
        'customer.subscription.deleted',
        'invoice.payment_succeeded',
        'payment_intent.succeeded',
      ]) {
        expect(types, type).toContain(type);
      }
      const live = await billingRecord(id);
      expect(live).toMatchObject({
        planStatus: 'expired',
        subscriptionPlanId: null,
        stripeSubscriptionId: null,
      });

      const bodies = events.map((event) => JSON.stringify(event, null, 2));
      const orders: Record<string, string[]> = {
        'in order': bodies,
        reversed: [...bodies].reverse(),
        shuffled: shuffle(bodies),
        'each three times': bodies.flatMap((body) => [body, body, body]),
      };
      for (const [name, order] of Object.entries(orders)) {
        await resetBilling(id, events);
        for (const body of order) expect((await deliverEvent(body)).status, name).toBe(200);
        expect(await billingRecord(id), name).toEqual(live);
      }
    });
  },
);

/** Every event about `customer` since `since` (epoch seconds), oldest first. */
async function eventsOf(stripe: Stripe, customer: string, since: number): Promise<Stripe.Event[]> {
  const all: Stripe.Event[] = [];
  for await (const event of stripe.events.list({ created: { gte: since }, limit: 100 })) {
    const object = event.data.object as { customer?: string | { id: string } };
    const owner = typeof object.customer === 'string' ? object.customer : object.customer?.id;
    if (owner === customer) all.push(event);
  }
  return all.reverse();
}

/** The user's billing as stored, without the bookkeeping that differs between runs. */
async function billingRecord(userId: string): Promise<Record<string, unknown>> {
  const { Item } = await store.documents.send(
    new GetCommand({ TableName: store.tableName, Key: keys.user(userId), ConsistentRead: true }),
  );
  const { updatedAt: _updated, billingObservedAt: _observed, ...rest } = Item ?? {};
  return rest;
}

/** Back to a free user who never heard from Stripe, with no receipts of `events`. */
async function resetBilling(userId: string, events: Stripe.Event[]): Promise<void> {
  await store.documents.send(
    new UpdateCommand({
      TableName: store.tableName,
      Key: keys.user(userId),
      UpdateExpression:
        'SET planStatus = :free, subscriptionPlanId = :null, stripeSubscriptionId = :null, billingCycle = :null, ' +
        'planStartDate = :null, planEndDate = :null REMOVE billingObservedAt',
      ExpressionAttributeValues: { ':free': 'free', ':null': null },
    }),
  );
  for (const event of events) {
    await store.documents.send(
      new DeleteCommand({ TableName: store.tableName, Key: keys.paymentEventReceipt(event.id) }),
    );
  }
}

function shuffle<T>(items: T[]): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

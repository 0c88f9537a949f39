/**
 * Money handling a customer can trust, through the real API against the local
 * cloud's embedded Stripe: one subscription per user whatever two tabs do
 * (Checkout refused, pages expired, a duplicate cancelled and refunded by the
 * webhook in any event order), the price shown is the price charged after an
 * admin edits it, and the portal's confirm step for a plan change.
 */
import { randomUUID } from 'node:crypto';
import { DeleteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { billingMessages } from '@tunesmith/shared/billing';
import type Stripe from 'stripe';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { dynamoAuditLog } from '../src/adapters/dynamo/audit-log';
import { keys } from '../src/data/keys';
import { signedInTestAdmin, signedInUser } from './support/accounts';
import { direct } from './support/direct';
import { apiUrl, Browser } from './support/http';
import { localOnly } from './support/run';
import {
  advanceClock,
  cards,
  deliverEvent,
  payAtCheckout,
  stripeClient,
  submitForm,
  subscribeThroughCheckout,
  userOnceTrue,
} from './support/stripe';

const store = direct();
const audit = dynamoAuditLog(store.documents, store.tableName);
let admin: Browser;

let removeAdmin: (() => Promise<void>) | undefined;

beforeAll(async () => {
  ({ browser: admin, remove: removeAdmin } = await signedInTestAdmin(store, 'billing'));
});
afterAll(async () => {
  await removeAdmin?.();
  store.close();
});

const startCheckout = (browser: Browser, planId: string, billingCycle: string) =>
  browser.post('/api/stripe/create-checkout-session', { planId, billingCycle });

async function customerOf(userId: string): Promise<string> {
  const customer = (await store.users.get(userId))?.stripeCustomerId;
  if (!customer) throw new Error(`user ${userId} has no Stripe customer`);
  return customer;
}

async function liveSubscriptions(customer: string): Promise<Stripe.Subscription[]> {
  const all = await stripeClient().subscriptions.list({ customer, status: 'all', limit: 100 });
  return all.data.filter((s) =>
    ['active', 'trialing', 'past_due', 'incomplete', 'unpaid'].includes(s.status),
  );
}

/** What the customer paid in all, less what was refunded, in cents. */
async function netCharged(customer: string): Promise<number> {
  const charges = await stripeClient().charges.list({ customer, limit: 100 });
  return charges.data.reduce((sum, c) => sum + c.amount_captured - c.amount_refunded, 0);
}

async function eventually<T>(read: () => Promise<T | undefined>, timeoutMs = 15_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error('the expected state never came');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const sessionIdOf = (url: string) => url.split('/').pop() as string;

localOnly("pays on the embedded Stripe's hosted pages").describe('one subscription per user', () => {
  it('two tabs, the first page paid after the second opened: it is expired and charges nothing', async () => {
    const { browser, id } = await signedInUser();
    const first = await startCheckout(browser, 'basic', 'monthly');
    const second = await startCheckout(browser, 'premium', 'yearly');
    expect([first.status, second.status]).toEqual([200, 200]);

    const late = await payAtCheckout(String(first.body.url));
    expect(late.status).toBe(409);
    const page = await late.text();
    expect(page).toContain('This checkout has expired.');
    expect(page).toContain('Nothing was charged.');

    expect((await payAtCheckout(String(second.body.url))).status).toBe(303);
    await userOnceTrue(browser, (u) => u.planStatus === 'active' && u.subscriptionPlanId === 'premium');
    const customer = await customerOf(id);
    expect(await liveSubscriptions(customer)).toHaveLength(1);
    expect(await netCharged(customer)).toBe(19_000);
  });

  it('two tabs, the second page paid first: the first one is expired too, and a third try is refused', async () => {
    const { browser, id } = await signedInUser();
    const first = await startCheckout(browser, 'basic', 'monthly');
    const second = await startCheckout(browser, 'basic', 'monthly');
    expect((await payAtCheckout(String(second.body.url))).status).toBe(303);
    expect((await payAtCheckout(String(first.body.url))).status).toBe(409);
    await userOnceTrue(browser, (u) => u.planStatus === 'active');

    const third = await startCheckout(browser, 'premium', 'monthly');
    expect(third).toMatchObject({
      status: 409,
      body: { message: billingMessages.alreadySubscribed, manageUrl: '/profile' },
    });
    const customer = await customerOf(id);
    expect(await liveSubscriptions(customer)).toHaveLength(1);
    expect(await netCharged(customer)).toBe(900);
  });

  it('two tabs at the same instant make one customer and leave exactly one open page', async () => {
    const { browser, id } = await signedInUser();
    const [a, b] = await Promise.all([
      startCheckout(browser, 'basic', 'monthly'),
      startCheckout(browser, 'premium', 'monthly'),
    ]);
    expect([a.status, b.status]).toEqual([200, 200]);
    const customer = await customerOf(id);
    const pages = await Promise.all(
      [a, b].map((answer) => stripeClient().checkout.sessions.retrieve(sessionIdOf(String(answer.body.url)))),
    );
    // The customer is made once (an idempotency key per user), and both pages are for it.
    expect(pages.map((page) => page.customer)).toEqual([customer, customer]);
    const sessions = await stripeClient().checkout.sessions.list({ customer, limit: 10 });
    expect(sessions.data.filter((s) => s.status === 'open')).toHaveLength(1);
    expect(sessions.data.filter((s) => s.status === 'expired')).toHaveLength(1);
    const open = sessions.data.find((s) => s.status === 'open') as Stripe.Checkout.Session;
    expect([sessionIdOf(String(a.body.url)), sessionIdOf(String(b.body.url))]).toContain(open.id);
  });

  it('opens Checkout when the recorded open page is not in this Stripe account (keys since replaced)', async () => {
    const { browser, id } = await signedInUser();
    await store.documents.send(
      new UpdateCommand({
        TableName: store.tableName,
        Key: keys.user(id),
        UpdateExpression: 'SET checkoutSessionId = :gone',
        ExpressionAttributeValues: { ':gone': `cs_test_${randomUUID().replaceAll('-', '')}` },
      }),
    );
    expect(await startCheckout(browser, 'basic', 'monthly')).toMatchObject({
      status: 200,
      body: { destination: 'checkout' },
    });
  });

  it("refuses Checkout when Stripe holds a subscription the user's record does not show yet", async () => {
    const { browser, id } = await signedInUser();
    await subscribeThroughCheckout(browser, 'basic', 'monthly');
    // The webhook has not landed, as far as the record tells.
    await store.documents.send(
      new UpdateCommand({
        TableName: store.tableName,
        Key: keys.user(id),
        UpdateExpression: 'SET planStatus = :free, stripeSubscriptionId = :null, subscriptionPlanId = :null',
        ExpressionAttributeValues: { ':free': 'free', ':null': null },
      }),
    );
    const customer = await customerOf(id);
    const before = (await stripeClient().checkout.sessions.list({ customer, limit: 100 })).data.length;
    expect((await startCheckout(browser, 'premium', 'yearly')).status).toBe(409);
    expect((await stripeClient().checkout.sessions.list({ customer, limit: 100 })).data).toHaveLength(before);
  });

  it('cancels and refunds a duplicate made around the app, records it, and ends the same in any event order', async () => {
    const stripe = stripeClient();
    const { browser, id } = await signedInUser();
    await startCheckout(browser, 'basic', 'monthly');
    const customer = await customerOf(id);
    const since = (await stripe.events.list({ limit: 1 })).data[0]?.created ?? 0;
    const basic = (await new Browser().get('/api/plans')).body as unknown as Array<Record<string, string>>;
    const price = (planId: string, field: string) => basic.find((p) => p.id === planId)?.[field] as string;

    // Two pages made straight at Stripe (no app guard), both paid.
    const atStripe = async (priceId: string) =>
      stripe.checkout.sessions.create({
        mode: 'subscription',
        customer,
        client_reference_id: id,
        line_items: [{ price: priceId, quantity: 1 }],
        success_url: `${apiUrl}/profile?checkout=success`,
        cancel_url: `${apiUrl}/profile?checkout=cancelled`,
      });
    const one = await atStripe(price('basic', 'monthlyPriceId'));
    const two = await atStripe(price('premium', 'monthlyPriceId'));
    expect((await payAtCheckout(String(one.url))).status).toBe(303);
    expect((await payAtCheckout(String(two.url))).status).toBe(303);

    const kept = await eventually(async () => {
      const live = await liveSubscriptions(customer);
      return live.length === 1 ? live[0] : undefined;
    });
    const first = (await stripe.checkout.sessions.retrieve(one.id)).subscription;
    expect(kept.id).toBe(first);
    await eventually(async () => ((await netCharged(customer)) === 900 ? true : undefined));
    const user = await userOnceTrue(browser, (u) => u.stripeSubscriptionId === first);
    expect(user).toMatchObject({ planStatus: 'active', subscriptionPlanId: 'basic' });
    const duplicate = (await stripe.checkout.sessions.retrieve(two.id)).subscription as string;
    expect((await stripe.subscriptions.retrieve(duplicate)).status).toBe('canceled');
    const recorded = (await audit.recent(200)).filter(
      (e) => e.target === id && e.action === 'billing.duplicate',
    );
    expect(recorded.map((e) => e.summary)).toEqual([
      `Cancelled the duplicate subscription ${duplicate} and refunded $19.00`,
    ]);

    // Every event again, shuffled and twice over, from a user who never heard of any: the same end.
    const events: Stripe.Event[] = [];
    for await (const event of stripe.events.list({ created: { gte: since }, limit: 100 })) {
      const object = event.data.object as { customer?: string };
      if (object.customer === customer) events.push(event);
    }
    const record = async () => {
      const profile = await store.users.get(id);
      return {
        planStatus: profile?.planStatus,
        subscriptionPlanId: profile?.subscriptionPlanId,
        stripeSubscriptionId: profile?.stripeSubscriptionId,
      };
    };
    const live = await record();
    await store.documents.send(
      new UpdateCommand({
        TableName: store.tableName,
        Key: keys.user(id),
        UpdateExpression:
          'SET planStatus = :free, subscriptionPlanId = :null, stripeSubscriptionId = :null REMOVE billingObservedAt',
        ExpressionAttributeValues: { ':free': 'free', ':null': null },
      }),
    );
    for (const event of events) {
      await store.documents.send(
        new DeleteCommand({ TableName: store.tableName, Key: keys.paymentEventReceipt(event.id) }),
      );
    }
    const bodies = events.map((event) => JSON.stringify(event));
    const shuffled = [...bodies, ...bodies].sort(() => Math.random() - 0.5);
    for (const body of shuffled) expect((await deliverEvent(body)).status).toBe(200);
    expect(await record()).toEqual(live);
    expect(await liveSubscriptions(customer)).toHaveLength(1);
    expect(await netCharged(customer)).toBe(900);
    const refunds = await stripe.refunds.list({ limit: 100 });
    expect(refunds.data.filter((r) => r.metadata?.subscriptionId === duplicate)).toHaveLength(1);
  });
});

localOnly("pays on the embedded Stripe's hosted pages").describe(
  'the price shown is the price charged',
  () => {
    let planId = '';
    let plan: Record<string, unknown> = {};

    beforeAll(async () => {
      const created = await admin.post('/api/admin/plans', {
        name: `Studio ${randomUUID().slice(0, 6)}`,
        description: 'For bands',
        features: ['Stems'],
        weeklyPrice: 0,
        monthlyPrice: 9,
        yearlyPrice: 90,
        maxGenerations: 40,
        generationsNumber: 40,
        sortOrder: 50,
        isActive: true,
      });
      expect(created.status).toBe(201);
      plan = created.body;
      planId = String(plan.id);
    });
    afterAll(async () => {
      await admin.put(`/api/admin/plans/${planId}`, { ...plan, isActive: false });
    });

    it('gives a new paid plan a Stripe price for every cycle it offers, and none for the others', () => {
      expect(plan.monthlyPriceId).toMatch(/^price_/);
      expect(plan.yearlyPriceId).toMatch(/^price_/);
      expect(plan.weeklyPriceId).toBeNull();
    });

    it('after a price edit, pricing, Checkout and the paid invoice agree; subscribers keep their price', async () => {
      const stripe = stripeClient();
      const earlier = await signedInUser();
      await subscribeThroughCheckout(earlier.browser, planId, 'monthly');

      const edited = await admin.put(`/api/admin/plans/${planId}`, { ...plan, monthlyPrice: 12 });
      expect(edited.status).toBe(200);
      expect(edited.body.monthlyPriceId).not.toBe(plan.monthlyPriceId);
      expect(edited.body.yearlyPriceId).toBe(plan.yearlyPriceId);
      expect(await stripe.prices.retrieve(String(plan.monthlyPriceId))).toMatchObject({ active: false });
      expect(await stripe.prices.retrieve(String(edited.body.monthlyPriceId))).toMatchObject({
        active: true,
        unit_amount: 1200,
        lookup_key: `tunesmith_${planId}_monthly`,
      });

      const shown = (
        (await new Browser().get('/api/plans')).body as unknown as Array<Record<string, unknown>>
      ).find((p) => p.id === planId);
      expect(shown).toMatchObject({ monthlyPrice: 12, monthlyPriceId: edited.body.monthlyPriceId });

      const { browser, id } = await signedInUser();
      const started = await startCheckout(browser, planId, 'monthly');
      const page = await (await fetch(String(started.body.url))).text();
      expect(page).toContain('$12.00');
      expect((await payAtCheckout(String(started.body.url))).status).toBe(303);
      await userOnceTrue(browser, (u) => u.planStatus === 'active' && u.subscriptionPlanId === planId);
      const invoices = await stripe.invoices.list({ customer: await customerOf(id), limit: 10 });
      expect(invoices.data.map((i) => i.amount_paid)).toEqual([1200]);

      // The earlier subscriber renews at the price they signed up for, and keeps the plan.
      await advanceClock(32);
      const renewals = await stripe.invoices.list({ customer: await customerOf(earlier.id), limit: 10 });
      expect(renewals.data.map((i) => i.amount_paid)).toEqual([900, 900]);
      const after = await userOnceTrue(earlier.browser, (u) => u.planStatus === 'active');
      expect(after.subscriptionPlanId).toBe(planId);
    });

    it('offers in the portal exactly the active paid plans and their current prices', async () => {
      const { browser } = await signedInUser();
      await subscribeThroughCheckout(browser, 'basic', 'monthly');
      const portal = await browser.post('/api/stripe/create-portal-session');
      const page = await (await fetch(String(portal.body.url))).text();
      const offered = [...page.matchAll(/<option value="([^"]+)"/g)].map((m) => m[1]).sort();
      const plans = (await new Browser().get('/api/plans')).body as unknown as Array<Record<string, unknown>>;
      const current = plans
        .flatMap((p) => [p.weeklyPriceId, p.monthlyPriceId, p.yearlyPriceId])
        .filter((priceId): priceId is string => typeof priceId === 'string')
        .sort();
      expect(offered).toEqual(current);
      expect(offered).not.toContain(plan.monthlyPriceId);
    });
  },
);

localOnly("confirms on the embedded Stripe's portal").describe(
  "the portal's confirm step for a plan change",
  () => {
    it('opens on the new price, changes the plan once confirmed, and refuses the plan already paid for', async () => {
      const { browser } = await signedInUser();
      await subscribeThroughCheckout(browser, 'basic', 'monthly');
      expect(
        await browser.post('/api/stripe/create-portal-session', { planId: 'basic', billingCycle: 'monthly' }),
      ).toMatchObject({ status: 400, body: { message: billingMessages.alreadyOnPlan } });
      expect(await browser.post('/api/stripe/create-portal-session', { planId: 'premium' })).toMatchObject({
        status: 400,
      });

      const opened = await browser.post('/api/stripe/create-portal-session', {
        planId: 'premium',
        billingCycle: 'yearly',
      });
      expect(opened).toMatchObject({ status: 200, body: { destination: 'portal' } });
      const page = await (await fetch(String(opened.body.url))).text();
      expect(page).toContain('Confirm your new plan');
      expect(page).toContain('Premium · $190.00 per year');

      const confirmed = await submitForm(String(opened.body.url), { action: 'confirm_update' });
      expect(confirmed.status).toBe(303);
      expect(confirmed.headers.get('location')).toBe(`${apiUrl}/profile?billing=portal`);
      const user = await userOnceTrue(browser, (u) => u.subscriptionPlanId === 'premium');
      expect(user).toMatchObject({ planStatus: 'active', billingCycle: 'yearly' });
    });

    it('answers malformed plan changes with a 400 and a message, and opens nothing', async () => {
      const { browser } = await signedInUser();
      await subscribeThroughCheckout(browser, 'basic', 'monthly');
      const cases: [unknown, string][] = [
        [{ planId: 'premium' }, billingMessages.planRequired],
        [{ billingCycle: 'yearly' }, billingMessages.planRequired],
        [{ planId: 'premium', billingCycle: 'daily' }, billingMessages.cycleInvalid],
        [{ planId: 'x'.repeat(5000), billingCycle: 'yearly' }, billingMessages.planNotFound],
        [{ planId: 42, billingCycle: 'yearly' }, billingMessages.planRequired],
      ];
      for (const [body, message] of cases) {
        const answer = await browser.post('/api/stripe/create-portal-session', body);
        expect(
          { status: answer.status, message: answer.body.message },
          JSON.stringify(body).slice(0, 80),
        ).toEqual({
          status: 400,
          message,
        });
      }
      const unknown = await browser.post('/api/stripe/create-portal-session', {
        planId: 'gold',
        billingCycle: 'yearly',
      });
      expect(unknown).toMatchObject({ status: 404, body: { message: billingMessages.planNotFound } });
    });

    it('refuses a plan change to a user who has no subscription', async () => {
      const { browser } = await signedInUser();
      expect(
        await browser.post('/api/stripe/create-portal-session', {
          planId: 'premium',
          billingCycle: 'yearly',
        }),
      ).toMatchObject({ status: 409, body: { message: billingMessages.noSubscriptionToChange } });
    });

    it('keeps a declined card from starting anything, with the page still open for another card', async () => {
      const { browser, id } = await signedInUser();
      const started = await startCheckout(browser, 'basic', 'monthly');
      expect((await payAtCheckout(String(started.body.url), cards.declined)).status).toBe(402);
      expect(await liveSubscriptions(await customerOf(id))).toHaveLength(0);
      expect((await payAtCheckout(String(started.body.url))).status).toBe(303);
    });
  },
);

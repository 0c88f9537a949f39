/**
 * Plans the site granted, where they meet billing (decision 037), through the
 * real API against the local cloud's embedded Stripe: Checkout asks before a
 * grant ends (and asks again when the grant changed), a grant closes a
 * Checkout page opened before it, the subscription paid for replaces the
 * grant in any event order, and the end of an older subscription leaves a
 * grant alone.
 */
import { DeleteCommand, type DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type Stripe from 'stripe';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { dynamoAuditLog } from '../src/adapters/dynamo/audit-log';
import { dynamoBillingAccounts } from '../src/adapters/dynamo/billing-accounts';
import { keys } from '../src/data/keys';
import { planGrantedBySite } from '../src/domain/accounts/user';
import { signedInTestAdmin, signedInUser } from './support/accounts';
import { direct } from './support/direct';
import { apiUrl, type Browser } from './support/http';
import { localOnly } from './support/run';
import {
  advanceClock,
  deliverEvent,
  openPortal,
  payAtCheckout,
  stripeClient,
  subscribeThroughCheckout,
  userOnceTrue,
} from './support/stripe';

const store = direct();
const audit = dynamoAuditLog(store.documents, store.tableName);
let admin: Browser;

let removeAdmin: (() => Promise<void>) | undefined;

beforeAll(async () => {
  ({ browser: admin, remove: removeAdmin } = await signedInTestAdmin(store, 'grants'));
});
afterAll(async () => {
  await removeAdmin?.();
  store.close();
});

const grant = async (userId: string, planId: string | null, status = 'active') => {
  const answer = await admin.put(`/api/admin/regular-users/${userId}/plan`, { planId, status });
  expect(answer.status).toBe(200);
};

const checkout = (browser: Browser, body: Record<string, string>) =>
  browser.post('/api/stripe/create-checkout-session', body);

const premiumEnds =
  'Your Premium plan was granted by Tunesmith at no charge. Paying for Basic ends it now: ' +
  'your weekly limit goes from 100 to 30, and new tracks no longer come with a commercial license.';

async function customerOf(userId: string): Promise<string> {
  const customer = (await store.users.get(userId))?.stripeCustomerId;
  if (!customer) throw new Error(`user ${userId} has no Stripe customer`);
  return customer;
}

localOnly("pays on the embedded Stripe's hosted pages").describe(
  'paying ends a granted plan only when asked',
  () => {
    it('refuses Checkout while a grant is in force, saying what ends; with the agreement, the plan paid for replaces it', async () => {
      const { browser, id } = await signedInUser();
      await grant(id, 'premium');

      const refused = await checkout(browser, { planId: 'basic', billingCycle: 'monthly' });
      expect(refused).toMatchObject({
        status: 409,
        body: { message: premiumEnds, grantedPlanId: 'premium', grantedPlanName: 'Premium' },
      });
      // Nothing was started at Stripe.
      expect((await store.users.get(id))?.stripeCustomerId).toBeNull();

      const agreed = await checkout(browser, {
        planId: 'basic',
        billingCycle: 'monthly',
        endsGrantedPlan: 'premium',
      });
      expect(agreed).toMatchObject({ status: 200, body: { destination: 'checkout' } });
      const paid = await payAtCheckout(String(agreed.body.url));
      expect(paid.headers.get('location')).toBe(`${apiUrl}/profile?checkout=success&plan=basic`);

      const user = await userOnceTrue(browser, (u) => u.subscriptionPlanId === 'basic');
      expect(user).toMatchObject({
        planStatus: 'active',
        planName: 'Basic',
        planGrantedBySite: false,
        stripeSubscriptionId: expect.stringMatching(/^sub_/),
        entitlements: { paid: true, weeklyLimit: 30 },
      });
      const recorded = (await audit.recent(200)).filter(
        (e) => e.target === id && e.action === 'billing.grant-ended',
      );
      expect(recorded.map((e) => e.summary)).toEqual([
        `The subscription ${user.stripeSubscriptionId} to Basic ended the Premium plan granted by the site`,
      ]);
    });

    it('closes a Checkout page opened before the admin granted a plan: paying it charges nothing and keeps the grant', async () => {
      const { browser, id } = await signedInUser();
      const page = await checkout(browser, { planId: 'basic', billingCycle: 'monthly' });
      expect(page.status).toBe(200);

      await grant(id, 'premium');

      const late = await payAtCheckout(String(page.body.url));
      expect(late.status).toBe(409);
      expect(await late.text()).toContain('This checkout has expired.');
      const customer = await customerOf(id);
      expect((await stripeClient().subscriptions.list({ customer, status: 'all' })).data).toEqual([]);
      const { body } = await browser.get('/api/auth/user');
      expect(body).toMatchObject({ subscriptionPlanId: 'premium', planGrantedBySite: true });
      // Asked now, as Pricing will.
      expect((await checkout(browser, { planId: 'basic', billingCycle: 'monthly' })).status).toBe(409);
    });

    it('asks again when the grant changed after the person agreed, and the page they had is closed', async () => {
      const { browser, id } = await signedInUser();
      await grant(id, 'premium');
      const agreed = await checkout(browser, {
        planId: 'basic',
        billingCycle: 'yearly',
        endsGrantedPlan: 'premium',
      });
      expect(agreed.status).toBe(200);

      // Another plan granted between the dialog and the payment.
      await grant(id, 'basic');

      expect((await payAtCheckout(String(agreed.body.url))).status).toBe(409);
      const again = await checkout(browser, {
        planId: 'premium',
        billingCycle: 'monthly',
        endsGrantedPlan: 'premium',
      });
      expect(again).toMatchObject({
        status: 409,
        body: {
          message:
            'Your Basic plan was granted by Tunesmith at no charge. Paying for Premium ends it now: your weekly limit goes from 30 to 100.',
          grantedPlanId: 'basic',
        },
      });
    });

    it('asks nothing once the grant is no longer in force (set to Free, or expired)', async () => {
      const { browser, id } = await signedInUser();
      await grant(id, 'premium', 'expired');
      expect((await checkout(browser, { planId: 'basic', billingCycle: 'monthly' })).status).toBe(200);
      await grant(id, null, 'free');
      expect((await checkout(browser, { planId: 'basic', billingCycle: 'monthly' })).status).toBe(200);
    });

    it('ends in the plan paid for whatever order the events of the payment arrive in', async () => {
      const stripe = stripeClient();
      const { browser, id } = await signedInUser();
      await grant(id, 'premium');
      const since = (await stripe.events.list({ limit: 1 })).data[0]?.created ?? 0;
      const agreed = await checkout(browser, {
        planId: 'basic',
        billingCycle: 'monthly',
        endsGrantedPlan: 'premium',
      });
      await payAtCheckout(String(agreed.body.url));
      const paid = await userOnceTrue(browser, (u) => u.subscriptionPlanId === 'basic');
      const customer = await customerOf(id);
      const events = await eventsOf(stripe, customer, since);

      for (const order of [[...events].reverse(), shuffle(events), [...events, ...events]]) {
        await backToGrant(id, events);
        for (const event of order) expect((await deliverEvent(JSON.stringify(event))).status).toBe(200);
        expect((await browser.get('/api/auth/user')).body).toMatchObject({
          planStatus: 'active',
          subscriptionPlanId: 'basic',
          stripeSubscriptionId: paid.stripeSubscriptionId,
          planGrantedBySite: false,
        });
      }
    });

    it("leaves a grant alone when an ended subscription's events come again, and has its invoices for Billing History", async () => {
      const stripe = stripeClient();
      const { browser, id } = await signedInUser();
      expect((await browser.get('/api/auth/user')).body).toMatchObject({ hasBillingHistory: false });
      const since = (await stripe.events.list({ limit: 1 })).data[0]?.created ?? 0;
      await subscribeThroughCheckout(browser, 'basic', 'weekly');
      expect((await browser.post('/api/stripe/cancel-subscription')).status).toBe(200);
      await advanceClock(8);
      await userOnceTrue(browser, (u) => u.planStatus === 'expired');

      await grant(id, 'premium');
      const customer = await customerOf(id);
      const events = await eventsOf(stripe, customer, since);
      for (const event of events) {
        await store.documents.send(
          new DeleteCommand({ TableName: store.tableName, Key: keys.paymentEventReceipt(event.id) }),
        );
      }
      for (const event of shuffle(events)) {
        expect((await deliverEvent(JSON.stringify(event))).status).toBe(200);
      }

      const { body } = await browser.get('/api/auth/user');
      expect(body).toMatchObject({
        planStatus: 'active',
        subscriptionPlanId: 'premium',
        stripeSubscriptionId: null,
        planGrantedBySite: true,
        hasBillingHistory: true,
      });
      // The portal it opens shows what was paid, with nothing running.
      const page = await (await fetch(await openPortal(browser))).text();
      expect(page).toContain('No active subscription.');
      expect(page).toMatch(/<td>\$2\.08<\/td><td>Paid<\/td>/);
    });

    it("refuses a grant while Stripe holds a live subscription the user's record does not show yet", async () => {
      const { browser, id } = await signedInUser();
      await subscribeThroughCheckout(browser, 'basic', 'monthly');
      await store.documents.send(
        new UpdateCommand({
          TableName: store.tableName,
          Key: keys.user(id),
          UpdateExpression:
            'SET planStatus = :free, stripeSubscriptionId = :null, subscriptionPlanId = :null',
          ExpressionAttributeValues: { ':free': 'free', ':null': null },
        }),
      );
      const refused = await admin.put(`/api/admin/regular-users/${id}/plan`, {
        planId: 'premium',
        status: 'active',
      });
      expect(refused.status).toBe(409);
      expect((await store.users.get(id))?.subscriptionPlanId).toBeNull();
    });
  },
);

it('a billing write decides on what is stored: a grant written meanwhile is seen, not overwritten', async () => {
  const { id } = await signedInUser();
  let raced = false;
  // A client that lets an administrator's grant land between the billing write's read and its write.
  const racing = {
    send: async (command: Parameters<DynamoDBDocumentClient['send']>[0]) => {
      if (command instanceof UpdateCommand && !raced) {
        raced = true;
        await store.documents.send(
          new UpdateCommand({
            TableName: store.tableName,
            Key: keys.user(id),
            UpdateExpression: 'SET planStatus = :active, subscriptionPlanId = :premium',
            ExpressionAttributeValues: { ':active': 'active', ':premium': 'premium' },
          }),
        );
      }
      return store.documents.send(command as never);
    },
  } as unknown as DynamoDBDocumentClient;
  const seen: string[] = [];

  // An ended subscription's reading: it ends a subscription, never a grant.
  const stored = await dynamoBillingAccounts(racing, store.tableName).updateBilling(id, (current) => {
    seen.push(`${current.planStatus} ${current.subscriptionPlanId}`);
    if (planGrantedBySite(current)) return undefined;
    return { ...current, planStatus: 'expired', planEndDate: new Date().toISOString() };
  });

  expect(seen).toEqual(['free null', 'active premium']);
  expect(stored).toMatchObject({ planStatus: 'active', subscriptionPlanId: 'premium' });
  expect(await store.users.get(id)).toMatchObject({ planStatus: 'active', subscriptionPlanId: 'premium' });
});

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

/** The user back on the Premium plan granted by the site, with no receipts of `events`. */
async function backToGrant(userId: string, events: Stripe.Event[]): Promise<void> {
  await store.documents.send(
    new UpdateCommand({
      TableName: store.tableName,
      Key: keys.user(userId),
      UpdateExpression:
        'SET planStatus = :active, subscriptionPlanId = :premium, stripeSubscriptionId = :null, ' +
        'billingCycle = :null, planEndDate = :null REMOVE billingObservedAt',
      ExpressionAttributeValues: { ':active': 'active', ':premium': 'premium', ':null': null },
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

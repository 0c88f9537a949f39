import type { AuditEntry } from '@tunesmith/shared/admin';
import { billingMessages, MANAGE_BILLING_PATH } from '@tunesmith/shared/billing';
import { describe, expect, it } from 'vitest';
import { aBasicPlan, aPlan, aUser } from '../../testing/fixtures';
import { inMemoryPlans } from '../../testing/in-memory';
import { fakeClock, inMemoryUsers } from '../../testing/in-memory-accounts';
import {
  aSubscription,
  fakePayments,
  inMemoryBillingAccounts,
  inMemoryReceipts,
} from '../../testing/in-memory-billing';
import type { User } from '../accounts/user';
import { DomainError } from '../errors';
import {
  cancelSubscription,
  formatBillingDate,
  handlePaymentEvent,
  openPortal,
  RECEIPT_LEASE_SECONDS,
  RECEIPT_TTL_SECONDS,
  startCheckout,
  syncCustomer,
} from './billing-service';
import { type PaymentEvent, PaymentsError } from './ports';

const ORIGIN = 'https://tunesmith.test';

function setup() {
  const clock = fakeClock('2026-11-24T10:00:00.000Z');
  const users = inMemoryUsers();
  const accounts = inMemoryBillingAccounts(users);
  const payments = fakePayments();
  const receipts = inMemoryReceipts();
  const plans = inMemoryPlans([
    aPlan({ id: 'free' }),
    aBasicPlan({ id: 'basic', monthlyPriceId: 'price_basic_monthly', weeklyPriceId: null }),
    aPlan({
      id: 'premium',
      name: 'Premium',
      monthlyPrice: 19,
      yearlyPrice: 190,
      monthlyPriceId: 'price_premium_monthly',
      yearlyPriceId: 'price_premium_yearly',
      maxGenerations: 100,
      commercialUse: true,
    }),
    aBasicPlan({ id: 'legacy', name: 'Legacy', isActive: false, monthlyPriceId: 'price_legacy' }),
  ]);
  const warnings: string[] = [];
  const audit: AuditEntry[] = [];
  let ids = 0;
  const deps = {
    accounts,
    receipts,
    plans,
    payments,
    clock,
    audit: { record: async (entry: AuditEntry) => void audit.push(entry) },
    newId: () => `id-${++ids}`,
    siteName: async () => 'Harbour Radio',
    log: { warn: (message: string) => warnings.push(message) },
  };
  const addUser = (overrides: Partial<User> = {}) => {
    const user = aUser({ id: 'u1', email: 'ada@example.test', ...overrides });
    users.all.set(user.id, user);
    if (user.stripeCustomerId) accounts.directory.set(user.stripeCustomerId, user.id);
    return user;
  };
  return { clock, users, accounts, payments, receipts, plans, deps, addUser, warnings, audit };
}

const subscriber = {
  planStatus: 'active',
  subscriptionPlanId: 'basic',
  stripeCustomerId: 'cus_1',
  stripeSubscriptionId: 'sub_1',
  billingCycle: 'monthly',
} as const;

const expectDomainError = async (promise: Promise<unknown>, kind: string, message: string) => {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DomainError);
  expect(error).toMatchObject({ kind, message });
};

describe('startCheckout', () => {
  it('creates the customer once, links it, and opens Checkout for the plan price with the return URLs', async () => {
    const { deps, addUser, payments, users } = setup();
    const user = addUser();
    const answer = await startCheckout(deps, user, { planId: 'basic', billingCycle: 'monthly' }, ORIGIN);

    expect(answer).toEqual({ url: 'https://checkout.test/c/pay/cs_1', destination: 'checkout' });
    const customerId = users.all.get('u1')?.stripeCustomerId;
    expect(customerId).toBeTruthy();
    expect(payments.customers.get(customerId as string)).toEqual({
      userId: 'u1',
      email: 'ada@example.test',
      name: 'Ada Lovelace',
    });
    expect(payments.checkouts).toEqual([
      {
        id: 'cs_1',
        status: 'open',
        customerId,
        userId: 'u1',
        priceId: 'price_basic_monthly',
        planId: 'basic',
        cycle: 'monthly',
        successUrl: `${ORIGIN}/profile?checkout=success&plan=basic`,
        cancelUrl: `${ORIGIN}/profile?checkout=cancelled`,
      },
    ]);

    // A second attempt (the first was abandoned) reuses the customer, and the first page expires.
    const again = users.all.get('u1') as User;
    await startCheckout(deps, again, { planId: 'premium', billingCycle: 'yearly' }, ORIGIN);
    expect(payments.customers.size).toBe(1);
    expect(payments.checkouts[1]).toMatchObject({
      customerId,
      priceId: 'price_premium_yearly',
      status: 'open',
    });
    expect(payments.checkouts[0]?.status).toBe('expired');
  });

  it('refuses a user with a running subscription with a 409 that says where to manage it', async () => {
    for (const planStatus of ['active', 'cancelled', 'inactive'] as const) {
      const { deps, addUser, payments } = setup();
      const user = addUser({ ...subscriber, planStatus });
      const error = await startCheckout(
        deps,
        user,
        { planId: 'premium', billingCycle: 'monthly' },
        ORIGIN,
      ).catch((e: unknown) => e);
      expect(error).toMatchObject({
        kind: 'conflict',
        message: billingMessages.alreadySubscribed,
        details: { manageUrl: MANAGE_BILLING_PATH },
      });
      expect(payments.checkouts).toEqual([]);
      expect(payments.portals).toEqual([]);
    }
  });

  it("refuses when Stripe holds a live subscription the user's record does not know yet", async () => {
    for (const status of ['active', 'trialing', 'past_due', 'incomplete', 'unpaid'] as const) {
      const { deps, addUser, payments } = setup();
      payments.setSubscription(aSubscription({ status }));
      const user = addUser({ stripeCustomerId: 'cus_1' });
      await expectDomainError(
        startCheckout(deps, user, { planId: 'basic', billingCycle: 'monthly' }, ORIGIN),
        'conflict',
        billingMessages.alreadySubscribed,
      );
      expect(payments.checkouts).toEqual([]);
    }
    // An ended one is no obstacle.
    const { deps, addUser, payments } = setup();
    payments.setSubscription(aSubscription({ status: 'canceled' }));
    const answer = await startCheckout(
      deps,
      addUser({ stripeCustomerId: 'cus_1', planStatus: 'expired' }),
      { planId: 'basic', billingCycle: 'monthly' },
      ORIGIN,
    );
    expect(answer.destination).toBe('checkout');
  });

  it('keeps one open page: a new one expires the previous, in either order of two tabs', async () => {
    const { deps, addUser, payments } = setup();
    const user = addUser({ stripeCustomerId: 'cus_1' });
    const [first, second] = await Promise.all([
      startCheckout(deps, user, { planId: 'basic', billingCycle: 'monthly' }, ORIGIN),
      startCheckout(deps, user, { planId: 'premium', billingCycle: 'yearly' }, ORIGIN),
    ]);
    expect([first.url, second.url].sort()).toEqual([
      'https://checkout.test/c/pay/cs_1',
      'https://checkout.test/c/pay/cs_2',
    ]);
    expect(payments.checkouts.filter((c) => c.status === 'open')).toHaveLength(1);
    expect(payments.checkouts.filter((c) => c.status === 'expired')).toHaveLength(1);
  });

  it('expires its own page and answers 409 when the other tab paid before its page could be expired', async () => {
    const { deps, addUser, payments } = setup();
    const user = addUser({ stripeCustomerId: 'cus_1' });
    await startCheckout(deps, user, { planId: 'basic', billingCycle: 'monthly' }, ORIGIN);
    // The first tab pays: Stripe completes its page and starts the subscription before the webhook lands.
    const realExpire = payments.expireCheckoutSession;
    payments.expireCheckoutSession = async (id) => {
      if (id === 'cs_1') {
        payments.complete('cs_1');
        payments.setSubscription(aSubscription());
      }
      return realExpire(id);
    };
    await expectDomainError(
      startCheckout(deps, user, { planId: 'premium', billingCycle: 'yearly' }, ORIGIN),
      'conflict',
      billingMessages.alreadySubscribed,
    );
    expect(payments.checkouts.map((c) => c.status)).toEqual(['complete', 'expired']);
  });

  it('lets an expired subscriber pay again through Checkout, with their customer', async () => {
    const { deps, addUser, payments } = setup();
    const user = addUser({ planStatus: 'expired', stripeCustomerId: 'cus_1' });
    await startCheckout(deps, user, { planId: 'basic', billingCycle: 'monthly' }, ORIGIN);
    expect(payments.checkouts[0]?.customerId).toBe('cus_1');
    expect(payments.customers.size).toBe(0);
  });

  it('refuses unknown, free and inactive plans, and cycles without a price', async () => {
    const { deps, addUser, payments } = setup();
    const user = addUser();
    await expectDomainError(
      startCheckout(deps, user, { planId: 'gold', billingCycle: 'monthly' }, ORIGIN),
      'not-found',
      billingMessages.planNotFound,
    );
    await expectDomainError(
      startCheckout(deps, user, { planId: 'free', billingCycle: 'monthly' }, ORIGIN),
      'validation',
      billingMessages.freePlanNeedsNoCheckout,
    );
    await expectDomainError(
      startCheckout(deps, user, { planId: 'legacy', billingCycle: 'monthly' }, ORIGIN),
      'validation',
      billingMessages.planInactive,
    );
    await expectDomainError(
      startCheckout(deps, user, { planId: 'basic', billingCycle: 'weekly' }, ORIGIN),
      'validation',
      'This plan is not configured for weekly billing. Please contact support.',
    );
    expect(payments.checkouts).toEqual([]);
    expect(payments.customers.size).toBe(0);
  });

  it("answers a price id the account does not have with the plan's configuration message", async () => {
    const { deps, addUser, payments, warnings } = setup();
    payments.failNext(
      new PaymentsError('missing', "No such price: 'price_basic_monthly'", 'line_items[0][price]'),
    );
    await expectDomainError(
      startCheckout(
        deps,
        addUser({ stripeCustomerId: 'cus_1' }),
        { planId: 'basic', billingCycle: 'monthly' },
        ORIGIN,
      ),
      'validation',
      'This plan is not configured for monthly billing. Please contact support.',
    );
    expect(warnings).toEqual(['checkout price missing']);
  });

  it('answers an unreachable or unconfigured provider with a 503 message and logs the cause', async () => {
    for (const failure of ['unavailable', 'not-configured'] as const) {
      const { deps, addUser, payments, warnings } = setup();
      payments.failNext(new PaymentsError(failure, 'connect ECONNREFUSED'));
      await expectDomainError(
        startCheckout(deps, addUser(), { planId: 'basic', billingCycle: 'monthly' }, ORIGIN),
        'unavailable',
        billingMessages.paymentsUnavailable,
      );
      expect(warnings).toEqual(['checkout failed']);
    }
  });
});

/** A plan given by an administrator: in force, with no subscription behind it. */
const granted = { planStatus: 'active', subscriptionPlanId: 'premium', stripeSubscriptionId: null } as const;

const premiumEnds =
  'Your Premium plan was granted by Harbour Radio at no charge. Paying for Basic ends it now: ' +
  'your weekly limit goes from 100 to 30, and new tracks no longer come with a commercial license.';

describe('startCheckout for a plan the site granted', () => {
  it('refuses to pay while the grant is in force, saying what ends, and starts nothing', async () => {
    const { deps, addUser, payments } = setup();
    const user = addUser({ ...granted, stripeCustomerId: 'cus_old' });
    const error = await startCheckout(deps, user, { planId: 'basic', billingCycle: 'monthly' }, ORIGIN).catch(
      (e: unknown) => e,
    );
    expect(error).toMatchObject({
      kind: 'conflict',
      message: premiumEnds,
      details: { grantedPlanId: 'premium', grantedPlanName: 'Premium' },
    });
    expect(payments.checkouts).toEqual([]);
    expect(payments.customers.size).toBe(0);
  });

  it('opens Checkout once the request agrees to end that grant, returning to a notice of the plan paid for', async () => {
    const { deps, addUser, payments } = setup();
    const user = addUser(granted);
    const answer = await startCheckout(
      deps,
      user,
      { planId: 'basic', billingCycle: 'monthly', endsGrantedPlan: 'premium' },
      ORIGIN,
    );
    expect(answer.destination).toBe('checkout');
    expect(payments.checkouts).toMatchObject([
      { planId: 'basic', status: 'open', successUrl: `${ORIGIN}/profile?checkout=success&plan=basic` },
    ]);
  });

  it('asks again when the grant changed since the person agreed (another plan granted meanwhile)', async () => {
    const { deps, addUser, payments } = setup();
    const user = addUser({ ...granted, subscriptionPlanId: 'basic' });
    await expect(
      startCheckout(
        deps,
        user,
        { planId: 'premium', billingCycle: 'yearly', endsGrantedPlan: 'premium' },
        ORIGIN,
      ),
    ).rejects.toMatchObject({
      message:
        'Your Basic plan was granted by Harbour Radio at no charge. Paying for Premium ends it now: your weekly limit goes from 30 to 100.',
      details: { grantedPlanId: 'basic' },
    });
    expect(payments.checkouts).toEqual([]);
  });

  it('names the end of a grant cancelled to a date, and asks nothing once that date has passed', async () => {
    const { deps, addUser, clock } = setup();
    const until = addUser({ ...granted, planStatus: 'cancelled', planEndDate: '2026-12-24T00:00:00.000Z' });
    await expectDomainError(
      startCheckout(deps, until, { planId: 'premium', billingCycle: 'monthly' }, ORIGIN),
      'conflict',
      'Your Premium plan was granted by Harbour Radio at no charge until December 24, 2026. Paying for Premium ends it now: your weekly limit stays at 100.',
    );
    clock.advance(31 * 86_400_000);
    const over = await startCheckout(deps, until, { planId: 'premium', billingCycle: 'monthly' }, ORIGIN);
    expect(over.destination).toBe('checkout');
  });

  it('closes its own page and asks when an administrator granted a plan while the page was made', async () => {
    const { deps, addUser, payments, users } = setup();
    const user = addUser({ stripeCustomerId: 'cus_1' });
    const realCreate = payments.createCheckoutSession;
    payments.createCheckoutSession = async (input) => {
      const page = await realCreate(input);
      users.all.set('u1', { ...(users.all.get('u1') as User), ...granted });
      return page;
    };
    await expectDomainError(
      startCheckout(deps, user, { planId: 'basic', billingCycle: 'monthly' }, ORIGIN),
      'conflict',
      premiumEnds,
    );
    expect(payments.checkouts.map((page) => page.status)).toEqual(['expired']);
  });

  it('lets a free user pay with no question, whatever the request says of a grant', async () => {
    const { deps, addUser } = setup();
    const answer = await startCheckout(
      deps,
      addUser(),
      { planId: 'basic', billingCycle: 'monthly', endsGrantedPlan: 'premium' },
      ORIGIN,
    );
    expect(answer.destination).toBe('checkout');
  });
});

describe('openPortal', () => {
  it('opens the portal for a user with a payment customer', async () => {
    const { deps, addUser } = setup();
    expect(await openPortal(deps, addUser({ stripeCustomerId: 'cus_1' }), ORIGIN)).toEqual({
      url: 'https://portal.test/p/session/cus_1',
      destination: 'portal',
    });
  });

  it("opens the portal's confirm step for another plan's price", async () => {
    const { deps, addUser, payments } = setup();
    payments.setSubscription(aSubscription());
    const answer = await openPortal(deps, addUser(subscriber), ORIGIN, {
      planId: 'premium',
      billingCycle: 'yearly',
    });
    expect(answer.destination).toBe('portal');
    expect(payments.portals).toEqual([
      {
        customerId: 'cus_1',
        returnUrl: `${ORIGIN}/profile?billing=portal`,
        change: { subscriptionId: 'sub_1', itemId: 'si_1', priceId: 'price_premium_yearly' },
      },
    ]);
  });

  it('refuses a change for a user with nothing to change, or to the plan and cycle they pay for', async () => {
    const { deps, addUser, payments } = setup();
    await expectDomainError(
      openPortal(deps, addUser(), ORIGIN, { planId: 'premium', billingCycle: 'yearly' }),
      'conflict',
      billingMessages.noSubscriptionToChange,
    );
    payments.setSubscription(aSubscription({ status: 'canceled' }));
    await expectDomainError(
      openPortal(deps, addUser({ stripeCustomerId: 'cus_1', planStatus: 'expired' }), ORIGIN, {
        planId: 'premium',
        billingCycle: 'yearly',
      }),
      'conflict',
      billingMessages.noSubscriptionToChange,
    );
    payments.setSubscription(aSubscription({ id: 'sub_2', createdAt: '2026-11-02T00:00:00.000Z' }));
    await expectDomainError(
      openPortal(deps, addUser(subscriber), ORIGIN, { planId: 'basic', billingCycle: 'monthly' }),
      'validation',
      billingMessages.alreadyOnPlan,
    );
    await expectDomainError(
      openPortal(deps, addUser(subscriber), ORIGIN, { planId: 'premium', billingCycle: 'weekly' }),
      'validation',
      'This plan is not configured for weekly billing. Please contact support.',
    );
    expect(payments.portals).toEqual([]);
  });

  it('sends a user whose payment failed to the plain portal for their own plan, to put it right', async () => {
    const { deps, addUser, payments } = setup();
    payments.setSubscription(aSubscription({ status: 'past_due' }));
    await openPortal(deps, addUser({ ...subscriber, planStatus: 'inactive' }), ORIGIN, {
      planId: 'basic',
      billingCycle: 'monthly',
    });
    expect(payments.portals).toEqual([
      { customerId: 'cus_1', returnUrl: `${ORIGIN}/profile?billing=portal` },
    ]);
  });

  it('refuses a user who never started a payment', async () => {
    const { deps, addUser } = setup();
    await expectDomainError(
      openPortal(deps, addUser(), ORIGIN),
      'conflict',
      billingMessages.noBillingAccount,
    );
  });
});

describe('cancelSubscription', () => {
  it('schedules the end at the period end and says when; the plan itself waits for the webhook', async () => {
    const { deps, addUser, payments, users } = setup();
    payments.setSubscription(aSubscription({ periodEnd: '2026-12-24T09:00:00.000Z' }));
    const user = addUser(subscriber);
    const answer = await cancelSubscription(deps, user);
    expect(answer).toEqual({
      message:
        'Your subscription is cancelled. You keep your plan until December 24, 2026, then your account returns to the Free plan.',
      planEndDate: '2026-12-24T09:00:00.000Z',
    });
    expect(payments.subscriptions[0]?.cancelScheduled).toBe(true);
    expect(users.all.get('u1')?.planStatus).toBe('active');
  });

  it('ends an unpaid (inactive) subscription at once, charging nothing more', async () => {
    const { deps, addUser, payments, users } = setup();
    payments.setSubscription(aSubscription({ status: 'past_due' }));
    const answer = await cancelSubscription(deps, addUser({ ...subscriber, planStatus: 'inactive' }));
    expect(answer).toEqual({ message: billingMessages.cancelledNow, planEndDate: expect.any(String) });
    expect(payments.subscriptions[0]).toMatchObject({ status: 'canceled', cancelScheduled: false });
    expect(users.all.get('u1')?.planStatus).toBe('inactive');
  });

  it('refuses a user without a running subscription', async () => {
    const { deps, addUser } = setup();
    await expectDomainError(cancelSubscription(deps, addUser()), 'conflict', billingMessages.noSubscription);
    await expectDomainError(
      cancelSubscription(deps, addUser({ planStatus: 'expired', stripeCustomerId: 'cus_1' })),
      'conflict',
      billingMessages.noSubscription,
    );
  });
});

describe('handlePaymentEvent', () => {
  const event = (overrides: Partial<PaymentEvent> = {}): PaymentEvent => ({
    id: 'evt_1',
    type: 'customer.subscription.updated',
    customerId: 'cus_1',
    userId: null,
    ...overrides,
  });

  it("brings the user's plan to what Stripe holds now", async () => {
    const { deps, addUser, payments, users, clock } = setup();
    addUser({ stripeCustomerId: 'cus_1' });
    payments.setSubscription(aSubscription({ priceId: 'price_premium_yearly' }));
    expect(await handlePaymentEvent(deps, event())).toBe('synced');
    expect(users.all.get('u1')).toMatchObject({
      planStatus: 'active',
      subscriptionPlanId: 'premium',
      stripeSubscriptionId: 'sub_1',
      billingCycle: 'yearly',
      planStartDate: '2026-11-01T00:00:00.000Z',
      planEndDate: '2026-12-01T00:00:00.000Z',
      billingObservedAt: clock.now().toISOString(),
    });
  });

  it('finds the user of a Checkout event by its client reference and links the customer', async () => {
    const { deps, addUser, payments, users, accounts } = setup();
    addUser();
    payments.setSubscription(aSubscription({ customerId: 'cus_7' }));
    const outcome = await handlePaymentEvent(
      deps,
      event({ type: 'checkout.session.completed', customerId: 'cus_7', userId: 'u1' }),
    );
    expect(outcome).toBe('synced');
    expect(users.all.get('u1')).toMatchObject({ planStatus: 'active', stripeCustomerId: 'cus_7' });
    expect(accounts.directory.get('cus_7')).toBe('u1');
  });

  it("does not hand a user someone else's customer through a client reference", async () => {
    const { deps, addUser, payments, users } = setup();
    addUser({ stripeCustomerId: 'cus_mine' });
    payments.setSubscription(aSubscription({ customerId: 'cus_other' }));
    const outcome = await handlePaymentEvent(
      deps,
      event({ type: 'checkout.session.completed', customerId: 'cus_other', userId: 'u1' }),
    );
    expect(outcome).toBe('unknown-customer');
    expect(users.all.get('u1')).toMatchObject({ planStatus: 'free', stripeCustomerId: 'cus_mine' });
  });

  it('handles checkout.session.completed and the six events of the Webhooks tab; acknowledges others', async () => {
    const handled = [
      'checkout.session.completed',
      'customer.subscription.created',
      'customer.subscription.updated',
      'customer.subscription.deleted',
      'invoice.payment_succeeded',
      'invoice.payment_failed',
      'payment_intent.succeeded',
    ];
    for (const type of handled) {
      const { deps, addUser, payments } = setup();
      addUser({ stripeCustomerId: 'cus_1' });
      payments.setSubscription(aSubscription());
      expect(await handlePaymentEvent(deps, event({ type })), type).toBe('synced');
    }
    const { deps, addUser, payments, users, receipts } = setup();
    addUser({ stripeCustomerId: 'cus_1' });
    payments.setSubscription(aSubscription());
    for (const type of ['invoice.paid', 'customer.updated', 'charge.refunded']) {
      expect(await handlePaymentEvent(deps, event({ id: type, type }))).toBe('ignored');
    }
    expect(users.all.get('u1')?.planStatus).toBe('free');
    expect(receipts.all.size).toBe(0);
  });

  it('handles an event id once, keeping the receipt past Stripe retry window', async () => {
    const { deps, addUser, payments, users, receipts, clock } = setup();
    addUser({ stripeCustomerId: 'cus_1' });
    payments.setSubscription(aSubscription());
    expect(await handlePaymentEvent(deps, event())).toBe('synced');
    // Stripe changes its mind meanwhile; a repeat of the old event must not be handled again.
    payments.setSubscription(aSubscription({ status: 'past_due' }));
    expect(await handlePaymentEvent(deps, event())).toBe('duplicate');
    expect(users.all.get('u1')?.planStatus).toBe('active');
    const receipt = receipts.all.get('evt_1');
    expect(receipt?.state).toBe('handled');
    expect(receipt?.expiresAt).toBe(Math.floor(clock.now().getTime() / 1000) + RECEIPT_TTL_SECONDS);
    expect(RECEIPT_TTL_SECONDS).toBeGreaterThan(3 * 24 * 3600);
  });

  it('drops the claim when handling fails, so that Stripe retry is handled', async () => {
    const { deps, addUser, payments, users, receipts } = setup();
    addUser({ stripeCustomerId: 'cus_1' });
    payments.setSubscription(aSubscription());
    payments.failNext(new PaymentsError('unavailable', 'socket hang up'));
    await expectDomainError(
      handlePaymentEvent(deps, event()),
      'unavailable',
      billingMessages.paymentsUnavailable,
    );
    expect(receipts.all.has('evt_1')).toBe(false);
    expect(await handlePaymentEvent(deps, event())).toBe('synced');
    expect(users.all.get('u1')?.planStatus).toBe('active');
  });

  it('lets a concurrent delivery of the same event pass while the first is handled, until the lease ends', async () => {
    const { deps, addUser, payments, receipts, clock } = setup();
    addUser({ stripeCustomerId: 'cus_1' });
    payments.setSubscription(aSubscription());
    const now = Math.floor(clock.now().getTime() / 1000);
    await receipts.claim('evt_1', now, RECEIPT_LEASE_SECONDS);
    expect(await handlePaymentEvent(deps, event())).toBe('duplicate');
    clock.advance((RECEIPT_LEASE_SECONDS + 1) * 1000);
    expect(await handlePaymentEvent(deps, event())).toBe('synced');
  });

  it('acknowledges events of customers that belong to nobody here', async () => {
    const { deps, payments, warnings } = setup();
    payments.setSubscription(aSubscription({ customerId: 'cus_stranger' }));
    expect(await handlePaymentEvent(deps, event({ customerId: 'cus_stranger' }))).toBe('unknown-customer');
    expect(warnings).toEqual(['payment event for an unknown customer']);
  });
});

describe('syncCustomer', () => {
  it('fails (so Stripe retries) when the subscription price belongs to no plan, changing nothing', async () => {
    const { deps, addUser, payments, users, warnings } = setup();
    addUser({ stripeCustomerId: 'cus_1' });
    payments.setSubscription(aSubscription({ priceId: 'price_unknown' }));
    await expectDomainError(
      syncCustomer(deps, 'u1', 'cus_1'),
      'unavailable',
      billingMessages.paymentsUnavailable,
    );
    expect(users.all.get('u1')?.planStatus).toBe('free');
    expect(warnings).toEqual(['subscription price belongs to no plan']);
  });

  it('prefers the running subscription over an older one that ended', async () => {
    const { deps, addUser, payments, users } = setup();
    addUser({ stripeCustomerId: 'cus_1' });
    payments.setSubscription(
      aSubscription({ id: 'sub_old', status: 'canceled', endedAt: '2026-10-01T00:00:00.000Z' }),
    );
    payments.setSubscription(aSubscription({ id: 'sub_new', priceId: 'price_premium_monthly' }));
    payments.setSubscription(
      aSubscription({ id: 'sub_newest_ended', status: 'canceled', endedAt: '2026-11-02T00:00:00.000Z' }),
    );
    await syncCustomer(deps, 'u1', 'cus_1');
    expect(users.all.get('u1')).toMatchObject({
      stripeSubscriptionId: 'sub_new',
      subscriptionPlanId: 'premium',
    });
  });

  it('cancels and refunds a second live subscription, keeps the first, and records it in the audit trail', async () => {
    const { deps, addUser, payments, users, audit, warnings } = setup();
    addUser({ stripeCustomerId: 'cus_1' });
    payments.setSubscription(aSubscription({ id: 'sub_first', createdAt: '2026-11-24T09:00:00.000Z' }));
    payments.setSubscription(
      aSubscription({
        id: 'sub_second',
        createdAt: '2026-11-24T09:00:30.000Z',
        priceId: 'price_premium_yearly',
      }),
    );
    payments.pay('sub_first', 900);
    payments.pay('sub_second', 19_000);

    await syncCustomer(deps, 'u1', 'cus_1');

    expect(payments.subscriptions.find((s) => s.id === 'sub_second')?.status).toBe('canceled');
    expect(payments.subscriptions.find((s) => s.id === 'sub_first')?.status).toBe('active');
    expect(payments.refunds).toEqual(new Map([['sub_second', 19_000]]));
    expect(users.all.get('u1')).toMatchObject({
      planStatus: 'active',
      stripeSubscriptionId: 'sub_first',
      subscriptionPlanId: 'basic',
    });
    expect(audit).toEqual([
      {
        id: 'id-1',
        at: '2026-11-24T10:00:00.000Z',
        actor: 'billing',
        action: 'billing.duplicate',
        target: 'u1',
        summary: 'Cancelled the duplicate subscription sub_second and refunded $190.00',
      },
    ]);
    expect(warnings).toEqual(['duplicate subscription ended']);

    // Any later event (or this one again) finds one live subscription: nothing more is refunded or recorded.
    await syncCustomer(deps, 'u1', 'cus_1');
    expect(payments.refunds.get('sub_second')).toBe(19_000);
    expect(audit).toHaveLength(1);
  });

  it('keeps the oldest paid subscription over an older one that never was (incomplete)', async () => {
    const { deps, addUser, payments, users } = setup();
    addUser({ stripeCustomerId: 'cus_1' });
    payments.setSubscription(
      aSubscription({ id: 'sub_unpaid', status: 'incomplete', createdAt: '2026-11-24T08:00:00.000Z' }),
    );
    payments.setSubscription(aSubscription({ id: 'sub_paid', createdAt: '2026-11-24T09:00:00.000Z' }));
    await syncCustomer(deps, 'u1', 'cus_1');
    expect(payments.subscriptions.map((s) => [s.id, s.status])).toEqual([
      ['sub_unpaid', 'canceled'],
      ['sub_paid', 'active'],
    ]);
    expect(users.all.get('u1')?.stripeSubscriptionId).toBe('sub_paid');
  });

  it('ends in one subscription and one refund per duplicate whatever order and however often events come', async () => {
    const { deps, addUser, payments, users, audit } = setup();
    addUser({ stripeCustomerId: 'cus_1' });
    payments.setSubscription(aSubscription({ id: 'sub_a', createdAt: '2026-11-24T09:00:00.000Z' }));
    payments.setSubscription(aSubscription({ id: 'sub_b', createdAt: '2026-11-24T09:00:01.000Z' }));
    payments.pay('sub_a', 900);
    payments.pay('sub_b', 900);
    const events = ['evt_1', 'evt_2', 'evt_3'].map((id) => ({
      id,
      type: 'customer.subscription.created',
      customerId: 'cus_1',
      userId: null,
    }));
    // Concurrent deliveries of different events, then every event again.
    await Promise.all(events.map((event) => handlePaymentEvent(deps, event)));
    for (const event of [...events].reverse())
      await handlePaymentEvent(deps, { ...event, id: `${event.id}-again` });
    expect(payments.subscriptions.filter((s) => s.status === 'active').map((s) => s.id)).toEqual(['sub_a']);
    expect(payments.refunds).toEqual(new Map([['sub_b', 900]]));
    expect(audit.map((entry) => entry.summary)).toEqual([
      'Cancelled the duplicate subscription sub_b and refunded $9.00',
    ]);
    expect(users.all.get('u1')?.stripeSubscriptionId).toBe('sub_a');
  });

  it('ignores a reading taken before the one already applied', async () => {
    const { deps, addUser, payments, users, clock } = setup();
    addUser({
      stripeCustomerId: 'cus_1',
      billingObservedAt: '2026-11-24T10:00:05.000Z',
      planStatus: 'cancelled',
    });
    payments.setSubscription(aSubscription());
    await syncCustomer(deps, 'u1', 'cus_1');
    expect(users.all.get('u1')?.planStatus).toBe('cancelled');
    clock.advance(10_000);
    await syncCustomer(deps, 'u1', 'cus_1');
    expect(users.all.get('u1')?.planStatus).toBe('active');
  });

  it('does nothing for a customer without subscriptions', async () => {
    const { deps, addUser, users } = setup();
    const user = addUser({ stripeCustomerId: 'cus_1' });
    await syncCustomer(deps, 'u1', 'cus_1');
    expect(users.all.get('u1')).toEqual(user);
  });
});

describe('syncCustomer and plans the site granted', () => {
  it('replaces a grant with the subscription paid for, and records it in the audit trail once', async () => {
    const { deps, addUser, payments, users, audit } = setup();
    addUser({ ...granted, stripeCustomerId: 'cus_1' });
    payments.setSubscription(aSubscription({ id: 'sub_paid', priceId: 'price_basic_monthly' }));

    await syncCustomer(deps, 'u1', 'cus_1');
    await syncCustomer(deps, 'u1', 'cus_1');

    expect(users.all.get('u1')).toMatchObject({
      planStatus: 'active',
      subscriptionPlanId: 'basic',
      stripeSubscriptionId: 'sub_paid',
    });
    expect(audit).toMatchObject([
      {
        actor: 'billing',
        action: 'billing.grant-ended',
        target: 'u1',
        summary: 'The subscription sub_paid to Basic ended the Premium plan granted by the site',
      },
    ]);
  });

  it('leaves a grant alone when an event of a subscription that ended before it comes late', async () => {
    const { deps, addUser, payments, users, audit } = setup();
    const user = addUser({
      ...granted,
      stripeCustomerId: 'cus_1',
      planStartDate: '2026-11-20T00:00:00.000Z',
    });
    payments.setSubscription(
      aSubscription({ id: 'sub_old', status: 'canceled', endedAt: '2026-11-01T00:00:00.000Z' }),
    );
    await syncCustomer(deps, 'u1', 'cus_1');
    expect(users.all.get('u1')).toMatchObject({
      planStatus: 'active',
      subscriptionPlanId: 'premium',
      stripeSubscriptionId: null,
      planStartDate: user.planStartDate,
    });
    expect(audit).toEqual([]);
  });
});

describe('formatBillingDate', () => {
  it('names the UTC day', () => {
    expect(formatBillingDate('2026-12-31T23:30:00.000Z')).toBe('December 31, 2026');
  });
});

import type { User } from '../domain/accounts/user';
import type { CatalogPrice, PortalOffer } from '../domain/billing/plan-prices';
import {
  type BillingAccounts,
  type EventReceipts,
  type PaymentEvent,
  type Payments,
  PaymentsError,
} from '../domain/billing/ports';
import { type BillingState, pickBilling, type SubscriptionSnapshot } from '../domain/billing/subscription';
import type { inMemoryUsers } from './in-memory-accounts';

/** A running subscription of `customerId` for tests; override any field. */
export function aSubscription(overrides: Partial<SubscriptionSnapshot> = {}): SubscriptionSnapshot {
  return {
    id: 'sub_1',
    customerId: 'cus_1',
    createdAt: '2026-11-01T00:00:00.000Z',
    status: 'active',
    itemId: 'si_1',
    priceId: 'price_basic_monthly',
    priceTags: {},
    cancelScheduled: false,
    periodStart: '2026-11-01T00:00:00.000Z',
    periodEnd: '2026-12-01T00:00:00.000Z',
    endedAt: null,
    ...overrides,
  };
}

/**
 * A payment provider in memory: customers once per user, recorded Checkout
 * and portal requests, subscriptions tests set with `setSubscription`, a
 * price catalogue, and events "signed" with the signature `valid`.
 * `failNext` makes the next call throw.
 */
export function fakePayments() {
  const customers = new Map<string, { userId: string; email: string; name: string }>();
  const subscriptions: SubscriptionSnapshot[] = [];
  const checkouts: (Parameters<Payments['createCheckoutSession']>[0] & {
    id: string;
    status: 'open' | 'complete' | 'expired';
  })[] = [];
  /** Refunded cents per subscription (each subscription's payments are refunded once). */
  const refunds = new Map<string, number>();
  /** What each subscription was paid, in cents, for `refundSubscription`. */
  const paid = new Map<string, number>();
  const portals: Parameters<Payments['createPortalSession']>[0][] = [];
  const products = new Map<string, string>();
  const prices = new Map<string, CatalogPrice & { productId: string }>();
  /** What the portal offers, as last synced. */
  const portal: PortalOffer[] = [];
  let failure: PaymentsError | undefined;
  let counter = 0;
  const next = (prefix: string) => `${prefix}_${++counter}`;
  const guard = () => {
    const error = failure;
    failure = undefined;
    if (error) throw error;
  };

  const payments: Payments = {
    async createCustomer(input) {
      guard();
      for (const [id, customer] of customers) if (customer.userId === input.userId) return id;
      const id = next('cus');
      customers.set(id, input);
      return id;
    },
    async createCheckoutSession(input) {
      guard();
      const id = `cs_${checkouts.length + 1}`;
      checkouts.push({ ...input, id, status: 'open' });
      return { id, url: `https://checkout.test/c/pay/${id}` };
    },
    async expireCheckoutSession(sessionId) {
      guard();
      const page = checkouts.find((c) => c.id === sessionId);
      if (!page) throw new PaymentsError('missing', `No such checkout.session: '${sessionId}'`, 'id');
      if (page.status === 'open') page.status = 'expired';
      return page.status === 'complete' ? 'complete' : 'expired';
    },
    async createPortalSession(input) {
      guard();
      portals.push(input);
      return `https://portal.test/p/session/${input.customerId}`;
    },
    async cancelAtPeriodEnd(subscriptionId) {
      guard();
      const index = subscriptions.findIndex((s) => s.id === subscriptionId);
      const found = subscriptions[index];
      if (!found) throw new PaymentsError('missing', `No such subscription: '${subscriptionId}'`, 'id');
      const updated = { ...found, cancelScheduled: true };
      subscriptions[index] = updated;
      return updated;
    },
    async cancelNow(subscriptionId) {
      guard();
      const index = subscriptions.findIndex((s) => s.id === subscriptionId);
      const found = subscriptions[index];
      if (!found) throw new PaymentsError('missing', `No such subscription: '${subscriptionId}'`, 'id');
      if (found.status === 'canceled') {
        throw new PaymentsError(
          'invalid-request',
          'A canceled subscription can only update its cancellation_details and metadata.',
        );
      }
      const ended = { ...found, status: 'canceled' as const, endedAt: new Date().toISOString() };
      subscriptions[index] = ended;
      return ended;
    },
    async listSubscriptions(customerId) {
      guard();
      // Newest first, as Stripe lists them (later ones were added later).
      return subscriptions.filter((s) => s.customerId === customerId).reverse();
    },
    async refundSubscription(subscriptionId) {
      guard();
      const total = paid.get(subscriptionId) ?? 0;
      if (total > 0) refunds.set(subscriptionId, total);
      return total;
    },
    async verifyEvent(rawBody, signature) {
      guard();
      if (signature !== 'valid') throw new PaymentsError('signature', 'No signatures found matching');
      return JSON.parse(rawBody.toString('utf8')) as PaymentEvent;
    },
    async findPrice(priceId) {
      guard();
      const price = prices.get(priceId);
      return price
        ? { id: price.id, active: price.active, unitAmount: price.unitAmount, interval: price.interval }
        : undefined;
    },
    async ensureProduct(plan) {
      guard();
      const id = products.get(plan.id) ?? `prod_${plan.id}`;
      products.set(plan.id, id);
      return id;
    },
    async createPrice(input) {
      guard();
      const id = next('price');
      prices.set(id, {
        id,
        active: true,
        unitAmount: input.unitAmount,
        interval: input.interval,
        productId: input.productId,
      });
      return id;
    },
    async archivePrice(priceId) {
      guard();
      const price = prices.get(priceId);
      if (!price) throw new PaymentsError('missing', `No such price: '${priceId}'`, 'price');
      prices.set(priceId, { ...price, active: false });
    },
    async syncPortal(offers) {
      guard();
      portal.splice(0, portal.length, ...offers);
    },
  };

  return Object.assign(payments, {
    customers,
    subscriptions,
    checkouts,
    portals,
    portal,
    refunds,
    /** Records that `subscriptionId` was paid `cents` (what refunding it gives back). */
    pay(subscriptionId: string, cents: number) {
      paid.set(subscriptionId, (paid.get(subscriptionId) ?? 0) + cents);
    },
    /** A Checkout page paid by the customer. */
    complete(sessionId: string) {
      const page = checkouts.find((c) => c.id === sessionId);
      if (page?.status === 'open') page.status = 'complete';
    },
    prices,
    products,
    /** Adds or replaces (by id) what Stripe holds for a subscription; newer ones go last. */
    setSubscription(subscription: SubscriptionSnapshot) {
      const index = subscriptions.findIndex((s) => s.id === subscription.id);
      if (index >= 0) subscriptions[index] = subscription;
      else subscriptions.push(subscription);
    },
    addPrice(price: CatalogPrice) {
      prices.set(price.id, { ...price, productId: 'prod_existing' });
    },
    failNext(error: PaymentsError) {
      failure = error;
    },
  });
}

/** Billing accounts over the in-memory users, with the customer directory beside them. */
export function inMemoryBillingAccounts(users: ReturnType<typeof inMemoryUsers>) {
  const directory = new Map<string, string>();
  const openCheckouts = new Map<string, string>();
  const accounts: BillingAccounts = {
    get: (userId) => users.get(userId),
    async updateBilling(userId, change) {
      const user = users.all.get(userId);
      if (!user) return undefined;
      const current: BillingState = { ...pickBilling(user), billingObservedAt: user.billingObservedAt };
      const next = change(current);
      if (!next) return current;
      users.all.set(userId, { ...user, ...next } satisfies User);
      return next;
    },
    async linkCustomer(userId, customerId) {
      const user = users.all.get(userId);
      if (!user) throw new Error(`no user ${userId}`);
      const owner = directory.get(customerId);
      if (owner && owner !== userId) return user.stripeCustomerId ?? customerId;
      if (user.stripeCustomerId && user.stripeCustomerId !== customerId) return user.stripeCustomerId;
      users.all.set(userId, { ...user, stripeCustomerId: customerId });
      directory.set(customerId, userId);
      return customerId;
    },
    async userOfCustomer(customerId) {
      return directory.get(customerId);
    },
    async swapCheckoutSession(userId, sessionId) {
      const previous = openCheckouts.get(userId);
      openCheckouts.set(userId, sessionId);
      return previous;
    },
    async checkoutSessionOf(userId) {
      return openCheckouts.get(userId);
    },
  };
  return Object.assign(accounts, { directory, openCheckouts });
}

/** Event receipts in memory, with the same claim, lease and expiry rules as the table. */
export function inMemoryReceipts() {
  const all = new Map<string, { state: 'handling' | 'handled'; expiresAt: number }>();
  const receipts: EventReceipts = {
    async claim(eventId, now, leaseSeconds) {
      const existing = all.get(eventId);
      if (existing && existing.expiresAt > now) return false;
      all.set(eventId, { state: 'handling', expiresAt: now + leaseSeconds });
      return true;
    },
    async complete(eventId, expiresAt) {
      all.set(eventId, { state: 'handled', expiresAt });
    },
    async release(eventId) {
      if (all.get(eventId)?.state === 'handling') all.delete(eventId);
    },
  };
  return Object.assign(receipts, { all });
}

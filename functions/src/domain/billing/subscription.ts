/**
 * The subscription lifecycle as a pure state machine over a user's billing
 * fields. Stripe is the record of what was paid; the webhook reads it and this
 * module decides what the user's plan becomes:
 *
 *   free ──paid──▶ active ──paid (period moves on)──▶ active (renewed)
 *                  active ──cancel scheduled──▶ cancelled ──ended──▶ expired
 *                  active ──payment failed──▶ inactive ──paid──▶ active
 *               cancelled ──paid (resumed)──▶ active
 *            any live state ──paid with another plan or cycle──▶ that plan, at once
 *
 * Paid entitlements follow from the result through `entitlementsFor`: active
 * and cancelled (until `planEndDate`) get the plan; inactive and expired get
 * the free limits.
 */
import type { PlanStatus } from '@tunesmith/shared/auth';
import type { BillingCycle } from '@tunesmith/shared/constants';
import { planGrantedBySite, type User } from '../accounts/user';

/** The part of a user's profile that billing owns. */
export type BillingState = Pick<
  User,
  | 'planStatus'
  | 'subscriptionPlanId'
  | 'stripeSubscriptionId'
  | 'billingCycle'
  | 'planStartDate'
  | 'planEndDate'
  | 'billingObservedAt'
>;

/** Stripe's subscription statuses. */
export type SubscriptionStatus =
  | 'active'
  | 'trialing'
  | 'past_due'
  | 'unpaid'
  | 'paused'
  | 'incomplete'
  | 'incomplete_expired'
  | 'canceled';

/** A subscription as Stripe reports it now, in our words (the adapter maps Stripe's object to this). */
export interface SubscriptionSnapshot {
  id: string;
  customerId: string;
  /** When it was created (ISO): of two live subscriptions, the older one stays. */
  createdAt: string;
  status: SubscriptionStatus;
  /** Its (single) item, which a plan change names. */
  itemId: string | null;
  /** The price of its (single) item. */
  priceId: string | null;
  /** The plan and cycle the price says it belongs to (its metadata): the fallback when no plan lists it. */
  priceTags: { planId?: string; cycle?: BillingCycle };
  /** Cancellation is scheduled (cancel at period end, or a cancel date). */
  cancelScheduled: boolean;
  /** The current period (ISO). */
  periodStart: string;
  periodEnd: string;
  /** When it ended (ISO); null while it runs. */
  endedAt: string | null;
}

/** The subscription an event is about, with the plan its price belongs to. */
export interface SubscribedPlan {
  subscriptionId: string;
  planId: string;
  cycle: BillingCycle;
  periodStart: string;
  periodEnd: string;
}

/** What a subscription's state means for the user. */
export type LifecycleEvent =
  /** Paid and running: the first payment, a renewal, a resume, a plan or cycle change, a recovered payment. */
  | { type: 'paid'; subscription: SubscribedPlan }
  /** Paid and running until the period ends, then over. */
  | { type: 'cancel-scheduled'; subscription: SubscribedPlan }
  /** A payment failed (renewal or change); Stripe retries. */
  | { type: 'payment-failed'; subscription: SubscribedPlan }
  /** Over: the period ended after a cancel, retries ran out, or it was cancelled at once. */
  | {
      type: 'ended';
      subscription: { subscriptionId: string; periodStart: string; endedAt: string };
    };

export type LifecycleEventType = LifecycleEvent['type'];

const ENDED: readonly SubscriptionStatus[] = ['canceled', 'incomplete_expired'];
const UNPAID: readonly SubscriptionStatus[] = ['past_due', 'unpaid', 'paused', 'incomplete'];

/**
 * The lifecycle event a subscription's current state amounts to. `plan` is
 * the plan and cycle its price belongs to; a running subscription whose price
 * belongs to no plan gives undefined (nothing can be granted for it).
 */
export function lifecycleEventOf(
  subscription: SubscriptionSnapshot,
  plan: { planId: string; cycle: BillingCycle } | undefined,
): LifecycleEvent | undefined {
  if (ENDED.includes(subscription.status)) {
    return {
      type: 'ended',
      subscription: {
        subscriptionId: subscription.id,
        periodStart: subscription.periodStart,
        endedAt: subscription.endedAt ?? subscription.periodEnd,
      },
    };
  }
  if (!plan) return undefined;
  const subscribed: SubscribedPlan = {
    subscriptionId: subscription.id,
    planId: plan.planId,
    cycle: plan.cycle,
    periodStart: subscription.periodStart,
    periodEnd: subscription.periodEnd,
  };
  if (UNPAID.includes(subscription.status)) return { type: 'payment-failed', subscription: subscribed };
  if (subscription.cancelScheduled) return { type: 'cancel-scheduled', subscription: subscribed };
  return { type: 'paid', subscription: subscribed };
}

const statusOf: Record<Exclude<LifecycleEventType, 'ended'>, PlanStatus> = {
  paid: 'active',
  'cancel-scheduled': 'cancelled',
  'payment-failed': 'inactive',
};

type Billing = Omit<BillingState, 'billingObservedAt'>;

/**
 * The next billing state. A running subscription's event puts its plan, cycle
 * and period in force with the status it implies (a new subscription replaces
 * an old one, and a plan the site granted). An ended subscription leaves the
 * user on the free limits with the dates of its last period; the end of a
 * subscription that is no longer the user's changes nothing, nor does it end
 * a plan the site granted since (a late or repeated event of a subscription
 * that ended before the grant).
 */
export function nextBilling(current: Billing, event: LifecycleEvent): Billing {
  if (event.type === 'ended') {
    const { subscriptionId, periodStart, endedAt } = event.subscription;
    const another = current.stripeSubscriptionId && current.stripeSubscriptionId !== subscriptionId;
    if (another || planGrantedBySite(current)) return pickBilling(current);
    return {
      planStatus: 'expired',
      subscriptionPlanId: null,
      stripeSubscriptionId: null,
      billingCycle: null,
      planStartDate: periodStart,
      planEndDate: endedAt,
    };
  }
  const { subscriptionId, planId, cycle, periodStart, periodEnd } = event.subscription;
  return {
    planStatus: statusOf[event.type],
    subscriptionPlanId: planId,
    stripeSubscriptionId: subscriptionId,
    billingCycle: cycle,
    planStartDate: periodStart,
    planEndDate: periodEnd,
  };
}

/**
 * Applies what Stripe said at `observedAt`: unless a later reading has been
 * applied already, the next state stamped with `observedAt`; otherwise
 * undefined (no change). Because each reading is the whole truth at its
 * time, applying readings in any order, any number of times, ends in the
 * state of the latest one.
 */
export function reconcile(
  current: BillingState,
  event: LifecycleEvent,
  observedAt: string,
): BillingState | undefined {
  if (current.billingObservedAt && observedAt < current.billingObservedAt) return undefined;
  return { ...nextBilling(current, event), billingObservedAt: observedAt };
}

/** Just the billing fields of a user (or a billing state). */
export function pickBilling<T extends Billing>(user: T): Billing {
  return {
    planStatus: user.planStatus,
    subscriptionPlanId: user.subscriptionPlanId,
    stripeSubscriptionId: user.stripeSubscriptionId,
    billingCycle: user.billingCycle,
    planStartDate: user.planStartDate,
    planEndDate: user.planEndDate,
  };
}

/** A subscription that still runs (paid, cancelling, or retrying a payment), which a second checkout must not duplicate. */
export function hasRunningSubscription(user: Pick<User, 'planStatus' | 'stripeSubscriptionId'>): boolean {
  return (
    !!user.stripeSubscriptionId &&
    (user.planStatus === 'active' || user.planStatus === 'cancelled' || user.planStatus === 'inactive')
  );
}

/**
 * Statuses in which a subscription still holds the customer (paid, being
 * paid, or owing): a customer with one of these may not start another.
 */
export const LIVE_STATUSES: readonly SubscriptionStatus[] = [
  'active',
  'trialing',
  'past_due',
  'incomplete',
  'unpaid',
];

export const isLive = (subscription: Pick<SubscriptionSnapshot, 'status'>): boolean =>
  LIVE_STATUSES.includes(subscription.status);

/**
 * Oldest first. `subscriptions` come newest first, as Stripe lists them; its
 * order also settles two made in the same second (`created` counts seconds).
 */
function oldestFirst(subscriptions: readonly SubscriptionSnapshot[]): SubscriptionSnapshot[] {
  return subscriptions
    .map((subscription, index) => ({ subscription, index }))
    .sort((a, b) => a.subscription.createdAt.localeCompare(b.subscription.createdAt) || b.index - a.index)
    .map(({ subscription }) => subscription);
}

/**
 * Which of a customer's live subscriptions stays when there is more than one
 * (two Checkout pages paid, say): the oldest that was ever paid (an
 * `incomplete` one never was), else the oldest. The others are duplicates,
 * to be cancelled and refunded. Undefined when there is at most one.
 */
export function duplicatesOf(
  /** Newest first, as Stripe lists them. */
  subscriptions: readonly SubscriptionSnapshot[],
): { keep: SubscriptionSnapshot; duplicates: SubscriptionSnapshot[] } | undefined {
  const live = oldestFirst(subscriptions).filter(isLive);
  if (live.length < 2) return undefined;
  const keep = live.find((s) => s.status !== 'incomplete') ?? (live[0] as SubscriptionSnapshot);
  return { keep, duplicates: live.filter((s) => s !== keep) };
}

/**
 * The subscription that decides the user's plan: the live one (the one that
 * stays, when there are duplicates), else the newest that has not ended,
 * else the newest that ended; undefined when the customer has none.
 */
export function currentOf(subscriptions: readonly SubscriptionSnapshot[]): SubscriptionSnapshot | undefined {
  const duplicates = duplicatesOf(subscriptions);
  if (duplicates) return duplicates.keep;
  const newestFirst = oldestFirst(subscriptions).reverse();
  return newestFirst.find(isLive) ?? newestFirst.find((s) => !ENDED.includes(s.status)) ?? newestFirst[0];
}

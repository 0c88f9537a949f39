/**
 * Billing: Checkout, the customer portal, cancelling at the end of the period,
 * and the webhook that brings what Stripe recorded into the user's plan. The
 * webhook is the only writer of a user's plan from Stripe: the calls here
 * start payments and changes on Stripe's side and never set a plan
 * themselves.
 */
import {
  type BillingRedirect,
  billingMessages,
  billingReturnPaths,
  type CancelSubscriptionResponse,
  type CheckoutRequest,
  MANAGE_BILLING_PATH,
  type PortalRequest,
  STRIPE_WEBHOOK_EVENTS,
} from '@tunesmith/shared/billing';
import { grantEndsNotice } from '@tunesmith/shared/plan-values';
import { planPriceId } from '@tunesmith/shared/plans';
import type { User } from '../accounts/user';
import { conflict, DomainError, notFound, validationError } from '../errors';
import { isPaidPlan } from '../generations/entitlements';
import type { Plan } from '../plans/plan';
import { grantEndsTerms, grantInForce } from './grants';
import { planForPrice } from './plan-prices';
import { type BillingDeps, type PaymentEvent, PaymentsError, type PortalChange } from './ports';
import {
  currentOf,
  duplicatesOf,
  hasRunningSubscription,
  isLive,
  lifecycleEventOf,
  reconcile,
  type SubscriptionSnapshot,
} from './subscription';

/**
 * How long a handled event's receipt is kept: well past Stripe's 3-day retry
 * window, so a late retry is still recognised.
 */
export const RECEIPT_TTL_SECONDS = 30 * 24 * 60 * 60;

export interface BillingLog {
  warn(message: string, fields?: Record<string, unknown>): void;
}

const unavailable = () => new DomainError('unavailable', billingMessages.paymentsUnavailable);

/** Provider failures as the user hears them; the cause goes to the log. */
function asDomainError(error: unknown, log: BillingLog | undefined, context: string): unknown {
  if (!(error instanceof PaymentsError)) return error;
  log?.warn(`${context} failed`, { failure: error.failure, param: error.param, error });
  return unavailable();
}

/** 'December 24, 2026' (UTC), as the cancel answer states the end of the period. */
export function formatBillingDate(iso: string): string {
  return new Date(iso).toLocaleDateString('en-US', {
    month: 'long',
    day: 'numeric',
    year: 'numeric',
    timeZone: 'UTC',
  });
}

/** The user's payment customer, created and linked on first need. */
async function customerOf(deps: BillingDeps, user: User): Promise<string> {
  if (user.stripeCustomerId) return user.stripeCustomerId;
  const created = await deps.payments.createCustomer({
    userId: user.id,
    email: user.email,
    name: `${user.firstName} ${user.lastName}`.trim(),
  });
  return deps.accounts.linkCustomer(user.id, created);
}

async function portalRedirect(
  deps: BillingDeps,
  customerId: string,
  origin: string,
  change?: PortalChange,
): Promise<BillingRedirect> {
  const url = await deps.payments.createPortalSession({
    customerId,
    returnUrl: `${origin}${billingReturnPaths.portal}`,
    ...(change ? { change } : {}),
  });
  return { url, destination: 'portal' };
}

/** The 409 of a user who already pays for a plan: it says where the plan is managed. */
const alreadySubscribed = () =>
  new DomainError('conflict', billingMessages.alreadySubscribed, { manageUrl: MANAGE_BILLING_PATH });

/** A plan that can be sold at `cycle`: it exists, is paid and active, and has a price for the cycle. */
async function sellablePlan(
  deps: BillingDeps,
  input: CheckoutRequest,
): Promise<{ plan: Plan; priceId: string }> {
  const plan = await deps.plans.get(input.planId);
  if (!plan) throw notFound(billingMessages.planNotFound);
  if (!isPaidPlan(plan)) throw validationError(billingMessages.freePlanNeedsNoCheckout);
  if (!plan.isActive) throw validationError(billingMessages.planInactive);
  const priceId = planPriceId(plan, input.billingCycle);
  if (!priceId) throw validationError(billingMessages.notConfigured(input.billingCycle));
  return { plan, priceId };
}

const hasLiveSubscription = async (deps: BillingDeps, customerId: string) =>
  (await deps.payments.listSubscriptions(customerId)).some(isLive);

/**
 * Refuses paying for `chosen` while a plan the site granted is in force and
 * the request has not agreed to end that very grant: a 409 that says what
 * ends and names the grant (`grantedPlanId`), which the request then repeats
 * to agree. Naming it means a grant changed after the person agreed (another
 * plan granted meanwhile) is asked about again.
 */
async function refuseUnagreedGrantEnd(
  deps: BillingDeps,
  user: User,
  chosen: Plan,
  input: CheckoutRequest,
): Promise<void> {
  if (!user.subscriptionPlanId || user.stripeSubscriptionId) return;
  const granted = grantInForce(user, await deps.plans.get(user.subscriptionPlanId), deps.clock.now());
  if (!granted || input.endsGrantedPlan === granted.id) return;
  const until =
    user.planStatus === 'cancelled' && user.planEndDate ? formatBillingDate(user.planEndDate) : null;
  throw new DomainError(
    'conflict',
    grantEndsNotice(grantEndsTerms(await deps.siteName(), granted, chosen, until)),
    { grantedPlanId: granted.id, grantedPlanName: granted.name },
  );
}

/**
 * A Checkout page for `planId` at `billingCycle`. Paying ends a plan the site
 * granted, so while one is in force the request must name it in
 * `endsGrantedPlan` (the person agreed to end it), else the answer is a 409
 * that says what would end. A user has at most one subscription and at most
 * one open Checkout page:
 * - a user who already has a live subscription (by our record, or by
 *   Stripe's, which a webhook may not have brought yet) is refused with a
 *   409 that says where to manage the plan;
 * - each new page is recorded as the user's open one (an atomic swap), and
 *   the page it replaces is expired, so a second tab's page can no longer be
 *   paid;
 * - if a subscription was paid meanwhile (the other tab's page completed
 *   before it could be expired), the new page is expired at once and the
 *   answer is the 409; the same if an administrator granted a plan meanwhile
 *   that the request did not agree to end (granting expires the page it
 *   finds recorded, and this sees the grant: one of the two closes it).
 * What still slips through (two pages paid in the same instant) the webhook
 * cancels and refunds ({@link syncCustomer}).
 * Unknown plans are not found; the Free plan, inactive plans and cycles with
 * no price are refused with a message.
 */
export async function startCheckout(
  deps: BillingDeps & { log?: BillingLog },
  user: User,
  input: CheckoutRequest,
  origin: string,
): Promise<BillingRedirect> {
  const { plan, priceId } = await sellablePlan(deps, input);
  if (hasRunningSubscription(user)) throw alreadySubscribed();
  await refuseUnagreedGrantEnd(deps, user, plan, input);

  try {
    const customerId = await customerOf(deps, user);
    if (await hasLiveSubscription(deps, customerId)) throw alreadySubscribed();
    const page = await deps.payments.createCheckoutSession({
      customerId,
      userId: user.id,
      priceId,
      planId: plan.id,
      cycle: input.billingCycle,
      successUrl: `${origin}${billingReturnPaths.checkoutSuccess(plan.id)}`,
      cancelUrl: `${origin}${billingReturnPaths.checkoutCancelled}`,
    });
    const previous = await deps.accounts.swapCheckoutSession(user.id, page.id);
    if (previous && previous !== page.id) await deps.payments.expireCheckoutSession(previous);
    if (await hasLiveSubscription(deps, customerId)) {
      await deps.payments.expireCheckoutSession(page.id);
      throw alreadySubscribed();
    }
    const now = await deps.accounts.get(user.id);
    if (now) {
      try {
        await refuseUnagreedGrantEnd(deps, now, plan, input);
      } catch (error) {
        await deps.payments.expireCheckoutSession(page.id);
        throw error;
      }
    }
    return { url: page.url, destination: 'checkout' };
  } catch (error) {
    // A price id the account does not have is a plan set up wrong, as much as a missing one.
    if (error instanceof PaymentsError && error.failure === 'missing' && error.param?.includes('price')) {
      deps.log?.warn('checkout price missing', { planId: plan.id, cycle: input.billingCycle, priceId });
      throw validationError(billingMessages.notConfigured(input.billingCycle));
    }
    throw asDomainError(error, deps.log, 'checkout');
  }
}

/**
 * The customer portal, for a user who has a payment customer. With a plan
 * and cycle, the portal opens on its confirm step for that plan's price
 * (the user's running subscription moves to it once they confirm); the plan
 * and cycle they already pay for goes to the portal's own page while a
 * payment is owed or the end is scheduled (to put it right there), and is
 * refused while it runs.
 */
export async function openPortal(
  deps: BillingDeps & { log?: BillingLog },
  user: User,
  origin: string,
  request: PortalRequest = {},
): Promise<BillingRedirect> {
  const wanted =
    request.planId && request.billingCycle
      ? await sellablePlan(deps, { planId: request.planId, billingCycle: request.billingCycle })
      : undefined;
  if (!user.stripeCustomerId) {
    throw conflict(wanted ? billingMessages.noSubscriptionToChange : billingMessages.noBillingAccount);
  }
  const customerId = user.stripeCustomerId;
  try {
    if (!wanted) return await portalRedirect(deps, customerId, origin);
    const current = currentOf(await deps.payments.listSubscriptions(customerId));
    if (!current || !isLive(current) || !current.itemId)
      throw conflict(billingMessages.noSubscriptionToChange);
    if (current.priceId === wanted.priceId) {
      if (current.status === 'active' && !current.cancelScheduled) {
        throw validationError(billingMessages.alreadyOnPlan);
      }
      return await portalRedirect(deps, customerId, origin);
    }
    return await portalRedirect(deps, customerId, origin, {
      subscriptionId: current.id,
      itemId: current.itemId,
      priceId: wanted.priceId,
    });
  } catch (error) {
    throw asDomainError(error, deps.log, 'portal');
  }
}

/**
 * Cancels the user's subscription at the end of the paid period. A subscription
 * whose last payment failed (inactive) has no paid period left to keep, so it
 * ends at once and nothing more is charged. The plan itself changes when
 * Stripe's webhook reports the cancellation.
 */
export async function cancelSubscription(
  deps: BillingDeps & { log?: BillingLog },
  user: User,
): Promise<CancelSubscriptionResponse> {
  if (!user.stripeSubscriptionId || !hasRunningSubscription(user)) {
    throw conflict(billingMessages.noSubscription);
  }
  try {
    if (user.planStatus === 'inactive') {
      const ended = await deps.payments.cancelNow(user.stripeSubscriptionId);
      return { message: billingMessages.cancelledNow, planEndDate: ended.endedAt };
    }
    const subscription = await deps.payments.cancelAtPeriodEnd(user.stripeSubscriptionId);
    return {
      message: billingMessages.cancelScheduled(formatBillingDate(subscription.periodEnd)),
      planEndDate: subscription.periodEnd,
    };
  } catch (error) {
    throw asDomainError(error, deps.log, 'cancel');
  }
}

const HANDLED: ReadonlySet<string> = new Set(STRIPE_WEBHOOK_EVENTS);

export type EventOutcome =
  /** Not an event billing acts on: acknowledged and ignored. */
  | 'ignored'
  /** Handled before (a retry or a duplicate delivery). */
  | 'duplicate'
  /** The customer belongs to no user here. */
  | 'unknown-customer'
  /** The user's plan was brought up to date. */
  | 'synced';

/** How long a claim on an event holds off a concurrent delivery of it (longer than handling takes). */
export const RECEIPT_LEASE_SECONDS = 60;

/**
 * A verified webhook event. Each handled event is a signal that the
 * customer's subscription changed: the user's billing is brought to what
 * Stripe holds now ({@link syncCustomer}), which makes the result the same
 * whatever order events arrive in and however often. A receipt per event id
 * (claimed with a conditional write before the work, completed after it,
 * dropped on failure so Stripe's retry is handled) spares repeated deliveries
 * the work.
 */
export async function handlePaymentEvent(
  deps: BillingDeps & { log?: BillingLog },
  event: PaymentEvent,
): Promise<EventOutcome> {
  if (!HANDLED.has(event.type) || !event.customerId) return 'ignored';
  const now = Math.floor(deps.clock.now().getTime() / 1000);
  if (!(await deps.receipts.claim(event.id, now, RECEIPT_LEASE_SECONDS))) return 'duplicate';
  let outcome: EventOutcome = 'unknown-customer';
  try {
    const userId = await userOfEvent(deps, event, event.customerId);
    if (userId) {
      await syncCustomer(deps, userId, event.customerId);
      outcome = 'synced';
    } else {
      deps.log?.warn('payment event for an unknown customer', { eventId: event.id, type: event.type });
    }
  } catch (error) {
    await deps.receipts.release(event.id).catch(() => {});
    throw error;
  }
  await deps.receipts.complete(event.id, now + RECEIPT_TTL_SECONDS);
  return outcome;
}

/**
 * The user a customer belongs to: through the directory, or, for an event
 * that names its user (Checkout's client reference), that user when the
 * customer is theirs or they have none yet (then it is linked).
 */
async function userOfEvent(
  deps: BillingDeps,
  event: PaymentEvent,
  customerId: string,
): Promise<string | undefined> {
  const known = await deps.accounts.userOfCustomer(customerId);
  if (known || !event.userId) return known;
  const user = await deps.accounts.get(event.userId);
  if (!user) return undefined;
  const linked = await deps.accounts.linkCustomer(user.id, customerId);
  return linked === customerId ? user.id : undefined;
}

/** "$9.00" from cents. */
const dollars = (cents: number) =>
  new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(cents / 100);

/**
 * A customer with more than one live subscription (two Checkout pages paid
 * in the same instant, or one made outside the app) keeps the one
 * {@link duplicatesOf} chooses; each other one is refunded and then ended at
 * once, and the audit trail says so. Refunds first: each payment is
 * refunded once however often this runs (an event retried, or delivered
 * twice at the same time), and a subscription is ended only after its money
 * went back, so a failure between the two is finished by Stripe's retry.
 */
async function endDuplicates(
  deps: BillingDeps & { log?: BillingLog },
  userId: string,
  duplicates: readonly SubscriptionSnapshot[],
): Promise<void> {
  for (const duplicate of duplicates) {
    const refunded = await deps.payments.refundSubscription(duplicate.id);
    try {
      await deps.payments.cancelNow(duplicate.id);
    } catch (error) {
      // Another delivery ended it a moment ago.
      const endedAlready =
        error instanceof PaymentsError &&
        (error.failure === 'invalid-request' || error.failure === 'missing');
      if (!endedAlready) throw error;
    }
    await recordOnce(
      deps,
      `duplicate:${duplicate.id}`,
      {
        action: 'billing.duplicate',
        target: userId,
        summary: `Cancelled the duplicate subscription ${duplicate.id} and refunded ${dollars(refunded)}`,
      },
      { message: 'duplicate subscription ended', fields: { userId, subscriptionId: duplicate.id, refunded } },
    );
  }
}

/**
 * Something billing did on its own, in the audit trail and the log once,
 * whichever delivery of an event gets here first (a receipt keyed by what it
 * is about).
 */
async function recordOnce(
  deps: BillingDeps & { log?: BillingLog },
  receipt: string,
  entry: { action: string; target: string; summary: string },
  log?: { message: string; fields: Record<string, unknown> },
): Promise<void> {
  const now = Math.floor(deps.clock.now().getTime() / 1000);
  if (!(await deps.receipts.claim(receipt, now, RECEIPT_LEASE_SECONDS))) return;
  try {
    if (log) deps.log?.warn(log.message, log.fields);
    await deps.audit.record({
      id: deps.newId(),
      at: deps.clock.now().toISOString(),
      actor: 'billing',
      ...entry,
    });
  } catch (error) {
    await deps.receipts.release(receipt).catch(() => {});
    throw error;
  }
  await deps.receipts.complete(receipt, now + RECEIPT_TTL_SECONDS);
}

/**
 * Reads the customer's subscriptions from Stripe and applies the current one
 * to the user's billing, ending any duplicate first. The reading is stamped
 * with the time before it was taken, so a reading that started earlier never
 * overwrites a later one. A running subscription replaces a plan the site
 * granted (what was paid for is what the user gets), and the audit trail
 * says so once; the end of a subscription leaves a grant alone.
 */
export async function syncCustomer(
  deps: BillingDeps & { log?: BillingLog },
  userId: string,
  customerId: string,
): Promise<void> {
  const observedAt = deps.clock.now().toISOString();
  let subscription: SubscriptionSnapshot | undefined;
  try {
    const all = await deps.payments.listSubscriptions(customerId);
    const found = duplicatesOf(all);
    if (found) await endDuplicates(deps, userId, found.duplicates);
    subscription = currentOf(all);
  } catch (error) {
    throw asDomainError(error, deps.log, 'subscription read');
  }
  if (!subscription) return;
  const plans = await deps.plans.listBySortOrder();
  const plan = planForPrice(plans, subscription);
  const event = lifecycleEventOf(subscription, plan);
  if (!event) {
    // Nothing can be granted for a price no plan claims; failing makes Stripe retry while an admin fixes the plan.
    deps.log?.warn('subscription price belongs to no plan', {
      subscriptionId: subscription.id,
      priceId: subscription.priceId,
    });
    throw unavailable();
  }
  const planOf = (id: string | null) => plans.find((candidate) => candidate.id === id);
  let replaced = undefined as Plan | undefined;
  await deps.accounts.updateBilling(userId, (current) => {
    const next = reconcile(current, event, observedAt);
    replaced =
      next && event.type !== 'ended'
        ? grantInForce(current, planOf(current.subscriptionPlanId), deps.clock.now())
        : undefined;
    return next;
  });
  if (replaced && event.type !== 'ended') {
    const paidFor = planOf(event.subscription.planId)?.name ?? event.subscription.planId;
    await recordOnce(deps, `grant-ended:${event.subscription.subscriptionId}`, {
      action: 'billing.grant-ended',
      target: userId,
      summary: `The subscription ${event.subscription.subscriptionId} to ${paidFor} ended the ${replaced.name} plan granted by the site`,
    });
  }
}

/**
 * What the billing services need from the outside world: the payment
 * provider (Stripe, through its SDK, in adapters/stripe) and the table.
 * Tests use in-memory fakes (src/testing/in-memory-billing.ts).
 */
import type { BillingCycle } from '@tunesmith/shared/constants';
import type { Clock } from '../accounts/ports';
import type { User } from '../accounts/user';
import type { AuditLog } from '../admin/ports';
import type { PlanRepository } from '../plans/plan';
import type { PriceCatalog } from './plan-prices';
import type { BillingState, SubscriptionSnapshot } from './subscription';

/** Why a payment provider call did not do what was asked. */
export type PaymentsFailure =
  /** No keys are configured. */
  | 'not-configured'
  /** The request was refused as invalid (e.g. a price the account does not have). */
  | 'invalid-request'
  /** The object named does not exist (`param` says which: `price`, `customer`, ...). */
  | 'missing'
  /** A webhook's signature is missing, wrong or too old. */
  | 'signature'
  /** The provider could not be reached or failed. */
  | 'unavailable';

/** A failed payment provider call; the message is for logs, not for users. */
export class PaymentsError extends Error {
  constructor(
    readonly failure: PaymentsFailure,
    message: string,
    readonly param?: string,
  ) {
    super(message);
    this.name = 'PaymentsError';
  }
}

/** A verified webhook event, reduced to what billing acts on. */
export interface PaymentEvent {
  id: string;
  type: string;
  /** The Stripe customer the event concerns, when it names one. */
  customerId: string | null;
  /** The user the event names itself (Checkout's client reference), if any. */
  userId: string | null;
}

/** A Checkout page made for one user. */
export interface CheckoutPage {
  id: string;
  url: string;
}

/** The plan change a portal page opens on: its confirm step for one price. */
export interface PortalChange {
  subscriptionId: string;
  itemId: string;
  priceId: string;
}

/** The payment provider. Every call may throw {@link PaymentsError}. */
export interface Payments extends PriceCatalog {
  /** The user's customer, created once per user (repeated calls give the same customer). */
  createCustomer(input: { userId: string; email: string; name: string }): Promise<string>;
  /** A hosted Checkout page for a subscription to one price. */
  createCheckoutSession(input: {
    customerId: string;
    userId: string;
    priceId: string;
    planId: string;
    cycle: BillingCycle;
    successUrl: string;
    cancelUrl: string;
  }): Promise<CheckoutPage>;
  /**
   * Expires a Checkout page so that it can no longer be paid. Says what the
   * page is now: `expired` (also when it had expired already, or the account
   * has no such page) or `complete` (it was paid first).
   */
  expireCheckoutSession(sessionId: string): Promise<'expired' | 'complete'>;
  /** A hosted customer portal page, on its confirm step for `change` when given; returns its URL. */
  createPortalSession(input: {
    customerId: string;
    returnUrl: string;
    change?: PortalChange;
  }): Promise<string>;
  /** Schedules the subscription to end with its current period; returns it as it is now. */
  cancelAtPeriodEnd(subscriptionId: string): Promise<SubscriptionSnapshot>;
  /** Ends the subscription at once: nothing more is charged; returns it as it is now. */
  cancelNow(subscriptionId: string): Promise<SubscriptionSnapshot>;
  /** Every subscription of the customer, in any status, newest first (as Stripe lists them). */
  listSubscriptions(customerId: string): Promise<SubscriptionSnapshot[]>;
  /**
   * Refunds whatever was paid for the subscription and is not refunded yet
   * (each payment once, however often this runs, also at the same time);
   * returns what its payments have been refunded in all, in cents.
   */
  refundSubscription(subscriptionId: string): Promise<number>;
  /** Verifies a webhook delivery over its raw body; throws `signature` when it is not authentic. */
  verifyEvent(rawBody: Buffer, signature: string | undefined): Promise<PaymentEvent>;
}

/** The billing side of user profiles, plus the customer → user directory. */
export interface BillingAccounts {
  get(userId: string): Promise<User | undefined>;
  /**
   * Compare-and-set on the billing fields: `change` gets the stored state and
   * returns the next one, or undefined for no change; retried when another
   * writer changed them in between. Returns the stored state after the call,
   * or undefined when the user does not exist.
   */
  updateBilling(
    userId: string,
    change: (current: BillingState) => BillingState | undefined,
  ): Promise<BillingState | undefined>;
  /**
   * Links a payment customer to the user, once: the profile keeps the first
   * customer linked, and the directory finds the user by it. Returns the
   * customer id the profile holds afterwards.
   */
  linkCustomer(userId: string, customerId: string): Promise<string>;
  /** The user a payment customer belongs to. */
  userOfCustomer(customerId: string): Promise<string | undefined>;
  /**
   * Records `sessionId` as the user's one open Checkout page, atomically,
   * and returns the one it replaces (to be expired), if any.
   */
  swapCheckoutSession(userId: string, sessionId: string): Promise<string | undefined>;
  /** The Checkout page last recorded for the user (a strongly consistent read), if any. */
  checkoutSessionOf(userId: string): Promise<string | undefined>;
}

/**
 * Which webhook events were handled (Stripe delivers at least once, and may
 * deliver one event twice at the same time). Times are epoch seconds.
 */
export interface EventReceipts {
  /**
   * Claims the event for handling, with a conditional write: false when it
   * was handled already, or another delivery holds a claim younger than
   * `leaseSeconds` (an older claim was left by a handler that died, and is
   * taken over).
   */
  claim(eventId: string, now: number, leaseSeconds: number): Promise<boolean>;
  /** Marks the claimed event handled, remembered until `expiresAt`. */
  complete(eventId: string, expiresAt: number): Promise<void>;
  /** Drops a claim after a failure, so that Stripe's retry is handled. */
  release(eventId: string): Promise<void>;
}

export interface BillingDeps {
  accounts: BillingAccounts;
  receipts: EventReceipts;
  plans: PlanRepository;
  payments: Payments;
  clock: Clock;
  /** The audit trail, where billing records what it did on its own (a duplicate cancelled and refunded). */
  audit: Pick<AuditLog, 'record'>;
  newId: () => string;
  /** How the site names itself (Site Settings), in what Checkout says of a plan it granted. */
  siteName: () => Promise<string>;
}

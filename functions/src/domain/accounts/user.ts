import type { CurrentUser, PlanStatus } from '@tunesmith/shared/auth';
import type { BillingCycle } from '@tunesmith/shared/constants';
import { quotaResetsAt, usedThisWindow } from '../generations/quota-window';
import type { Plan } from '../plans/plan';
import { fullEntitlementsFor } from '../stems/stem-sets';

/** A regular user's profile (spec 2 section 3, users), keyed by the identity's subject. */
export interface User {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  emailVerified: boolean;
  planStatus: PlanStatus;
  subscriptionPlanId: string | null;
  stripeCustomerId: string | null;
  stripeSubscriptionId: string | null;
  /** Generations taken in the window that starts at `quotaWindowStart` (the spec's field name; weekly). */
  generationsUsedThisMonth: number;
  /** Start of the quota window the counter belongs to; absent until the first generation. */
  quotaWindowStart?: string;
  planStartDate: string | null;
  planEndDate: string | null;
  /** The subscription's billing cycle; null without one. */
  billingCycle: BillingCycle | null;
  /** When Stripe was last read for this user's plan (ISO): an older reading never overwrites a newer one. */
  billingObservedAt: string | null;
  /**
   * Epoch seconds; access tokens issued before it are refused (logout
   * everywhere). {@link ACCOUNT_CLOSED} while the account is being deleted.
   */
  sessionsValidAfter: number;
  /** Suspended by an administrator after a report (decision 061): no sign-in, no session, no API key. */
  suspended?: boolean;
  createdAt: string;
  updatedAt: string;
}

export interface UserRepository {
  get(id: string): Promise<User | undefined>;
  findByEmail(email: string): Promise<User | undefined>;
  /** Creates the profile and claims its email atomically. Throws `conflict` if the email is taken. */
  create(user: User): Promise<void>;
  /** Moves the email claim and updates the profile atomically. Throws `conflict` if taken. */
  changeEmail(id: string, from: string, to: string, updatedAt: string): Promise<void>;
  update(
    id: string,
    changes: Partial<Pick<User, 'emailVerified' | 'sessionsValidAfter' | 'suspended' | 'updatedAt'>>,
  ): Promise<void>;
  /** Deletes the profile and its email claim. */
  delete(user: User): Promise<void>;
}

/**
 * `sessionsValidAfter` of an account being deleted: no token, however fresh
 * (a refreshed one included), is ever accepted again, and sign-in is refused,
 * from the moment the deletion starts until the profile is gone.
 */
export const ACCOUNT_CLOSED = Number.MAX_SAFE_INTEGER;

/** Whether the account is being deleted (see {@link ACCOUNT_CLOSED}). */
export const isClosed = (user: Pick<User, 'sessionsValidAfter'>): boolean =>
  user.sessionsValidAfter >= ACCOUNT_CLOSED;

/** A new account as sign-up makes it: unverified, on the free plan, nothing used yet. */
export function newUser(fields: Pick<User, 'id' | 'email' | 'firstName' | 'lastName'>, at: string): User {
  return {
    ...fields,
    emailVerified: false,
    planStatus: 'free',
    subscriptionPlanId: null,
    stripeCustomerId: null,
    stripeSubscriptionId: null,
    generationsUsedThisMonth: 0,
    planStartDate: null,
    planEndDate: null,
    billingCycle: null,
    billingObservedAt: null,
    sessionsValidAfter: 0,
    createdAt: at,
    updatedAt: at,
  };
}

/**
 * A plan an administrator gave by hand (decision 006): a plan in force with
 * no Stripe subscription behind it, so nothing is billed for it.
 */
export function planGrantedBySite(
  user: Pick<User, 'planStatus' | 'subscriptionPlanId' | 'stripeSubscriptionId'>,
): boolean {
  return (
    !!user.subscriptionPlanId &&
    !user.stripeSubscriptionId &&
    (user.planStatus === 'active' || user.planStatus === 'cancelled')
  );
}

/**
 * What `GET /api/auth/user` returns: the profile, plus what the plan allows
 * now and this week's count, from the same rules generation and downloads
 * enforce. `plan` is the user's subscribed plan when there is one; `plans`
 * every plan (the stem sets name those that have each).
 */
export function toCurrentUser(
  user: User,
  plan: Plan | undefined,
  now: Date,
  plans: readonly Plan[] = [],
): CurrentUser {
  return {
    id: user.id,
    email: user.email,
    firstName: user.firstName,
    lastName: user.lastName,
    emailVerified: user.emailVerified,
    planStatus: user.planStatus,
    subscriptionPlanId: user.subscriptionPlanId,
    stripeSubscriptionId: user.stripeSubscriptionId,
    generationsUsedThisMonth: usedThisWindow(
      { used: user.generationsUsedThisMonth, windowStart: user.quotaWindowStart ?? null },
      now,
    ),
    planStartDate: user.planStartDate,
    planEndDate: user.planEndDate,
    createdAt: user.createdAt,
    planName: user.subscriptionPlanId ? (plan?.name ?? null) : null,
    billingCycle: user.billingCycle,
    planGrantedBySite: planGrantedBySite(user),
    hasBillingAccount: user.stripeCustomerId !== null,
    // Stripe is read for a plan only when the customer has a subscription, so a reading means one existed.
    hasBillingHistory: user.stripeCustomerId !== null && user.billingObservedAt !== null,
    entitlements: fullEntitlementsFor(user, plan, plans, now),
    quotaResetsAt: quotaResetsAt(now).toISOString(),
  };
}

import type { Entitlements } from '@tunesmith/shared/auth';
import type { User } from '../accounts/user';
import type { Plan } from '../plans/plan';

export type { Entitlements };

/** What follows from the user's plan alone; the stem sets also need the other plans (stems/stem-sets.ts). */
export type PlanEntitlements = Omit<Entitlements, 'stems'>;

/** The Terms' weekly quota of the Free plan, used when no plan record is at hand. */
export const FREE_WEEKLY_GENERATIONS = 5;

/** A plan that costs something; the Free plan is free at every cycle. */
export function isPaidPlan(
  plan: Pick<Plan, 'name' | 'weeklyPrice' | 'monthlyPrice' | 'yearlyPrice'>,
): boolean {
  return plan.name !== 'Free' && (plan.weeklyPrice > 0 || plan.monthlyPrice > 0 || plan.yearlyPrice > 0);
}

/**
 * A paid plan counts while the subscription is active, or cancelled but still
 * inside the paid period (cancellation takes effect at the end of the period).
 * `plan` is the user's subscribed plan, or the Free plan, or undefined.
 */
export function entitlementsFor(
  user: Pick<User, 'planStatus' | 'planEndDate'>,
  plan: Plan | undefined,
  now: Date,
): PlanEntitlements {
  const inPaidPeriod =
    user.planStatus === 'active' ||
    (user.planStatus === 'cancelled' && !!user.planEndDate && new Date(user.planEndDate) > now);
  const paid = !!plan && isPaidPlan(plan) && inPaidPeriod;
  const weeklyLimit = paid
    ? plan.maxGenerations
    : plan && !isPaidPlan(plan)
      ? plan.maxGenerations
      : FREE_WEEKLY_GENERATIONS;
  return { paid, weeklyLimit, canPrivate: paid, canDownload: paid };
}

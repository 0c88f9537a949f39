import { BILLING_CYCLES, type BillingCycle } from '@tunesmith/shared/constants';
import { isFreePlan, planPriceId } from '@tunesmith/shared/plan-values';
import type { Plan } from '@tunesmith/shared/plans';

/** Whether a plan can be chosen on a cycle: the Free plan always, a paid plan only with a Stripe price for it. */
export function planOffersCycle(plan: Plan, cycle: BillingCycle): boolean {
  return isFreePlan(plan) || Boolean(planPriceId(plan, cycle));
}

/** The billing cycles Pricing offers: those that at least one paid plan has a Stripe price for. */
export function offeredCycles(plans: readonly Plan[]): BillingCycle[] {
  return BILLING_CYCLES.filter((cycle) =>
    plans.some((plan) => !isFreePlan(plan) && planOffersCycle(plan, cycle)),
  );
}

/**
 * The cycle to show: the one wanted when it is offered, else monthly, else the
 * first one offered. With nothing offered, monthly (its prices are still shown).
 */
export function shownCycle(wanted: BillingCycle, offered: readonly BillingCycle[]): BillingCycle {
  if (offered.includes(wanted)) return wanted;
  if (offered.length === 0 || offered.includes('monthly')) return 'monthly';
  return offered[0] as BillingCycle;
}

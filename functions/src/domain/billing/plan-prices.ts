import { BILLING_CYCLES, type BillingCycle } from '@tunesmith/shared/constants';
import { planPrice, planPriceId } from '@tunesmith/shared/plans';
import type { Clock } from '../accounts/ports';
import { isPaidPlan } from '../generations/entitlements';
import type { Plan, PlanRepository } from '../plans/plan';
import type { SubscriptionSnapshot } from './subscription';

/** Stripe's recurring interval for each billing cycle. */
export const CYCLE_INTERVAL = { weekly: 'week', monthly: 'month', yearly: 'year' } as const satisfies Record<
  BillingCycle,
  string
>;
export type PriceInterval = (typeof CYCLE_INTERVAL)[BillingCycle];

/** The billing cycle of a recurring interval, if it is one of ours. */
export function cycleOfInterval(interval: string | null | undefined): BillingCycle | undefined {
  return BILLING_CYCLES.find((cycle) => CYCLE_INTERVAL[cycle] === interval);
}

const PRICE_ID_FIELD = {
  weekly: 'weeklyPriceId',
  monthly: 'monthlyPriceId',
  yearly: 'yearlyPriceId',
} as const satisfies Record<BillingCycle, keyof Plan>;

/**
 * The plan and cycle a subscription's price belongs to: the plan that lists
 * the price id, else the plan the price names in its own tags (a price a plan
 * no longer lists still bills its old subscribers). Undefined when neither.
 */
export function planForPrice(
  plans: readonly Plan[],
  subscription: Pick<SubscriptionSnapshot, 'priceId' | 'priceTags'>,
): { planId: string; cycle: BillingCycle } | undefined {
  if (subscription.priceId) {
    for (const plan of plans) {
      for (const cycle of BILLING_CYCLES) {
        if (planPriceId(plan, cycle) === subscription.priceId) return { planId: plan.id, cycle };
      }
    }
  }
  const { planId, cycle } = subscription.priceTags;
  if (planId && cycle && plans.some((plan) => plan.id === planId)) return { planId, cycle };
  return undefined;
}

/** A price as the payment provider holds it. */
export interface CatalogPrice {
  id: string;
  active: boolean;
  /** Smallest currency unit (cents). */
  unitAmount: number;
  interval: string | null;
}

/** The payment provider's product catalogue, as far as plans need it. */
export interface PriceCatalog {
  /** The price, or undefined when the account has none with this id. */
  findPrice(priceId: string): Promise<CatalogPrice | undefined>;
  /** The plan's product (created when missing); returns its id. */
  ensureProduct(plan: Pick<Plan, 'id' | 'name' | 'description'>): Promise<string>;
  createPrice(input: {
    productId: string;
    planId: string;
    cycle: BillingCycle;
    unitAmount: number;
    interval: PriceInterval;
  }): Promise<string>;
}

export interface PriceSyncResult {
  planId: string;
  cycle: BillingCycle;
  priceId: string;
  action: 'kept' | 'created';
}

/** A plan's price for a cycle in cents. */
export const priceInCents = (plan: Plan, cycle: BillingCycle): number =>
  Math.round(planPrice(plan, cycle) * 100);

/**
 * Gives every active paid plan a price in the provider's account for each
 * cycle it has a price for: a stored price id is kept when the account has
 * that price, active, at the plan's amount and cycle; otherwise a new price is
 * created (on the plan's product) and the plan records its id. Plans are
 * written only when something changed. Used by `npm run stripe:sync` and by
 * the local cloud at start.
 */
export async function syncPlanPrices(deps: {
  plans: PlanRepository;
  catalog: PriceCatalog;
  clock: Clock;
}): Promise<PriceSyncResult[]> {
  const results: PriceSyncResult[] = [];
  for (const plan of await deps.plans.listBySortOrder()) {
    if (!plan.isActive || !isPaidPlan(plan)) continue;
    let next = plan;
    let productId: string | undefined;
    for (const cycle of BILLING_CYCLES) {
      const unitAmount = priceInCents(plan, cycle);
      if (unitAmount <= 0) continue;
      const interval = CYCLE_INTERVAL[cycle];
      const storedId = planPriceId(plan, cycle);
      const stored = storedId ? await deps.catalog.findPrice(storedId) : undefined;
      if (stored?.active && stored.unitAmount === unitAmount && stored.interval === interval) {
        results.push({ planId: plan.id, cycle, priceId: stored.id, action: 'kept' });
        continue;
      }
      productId ??= await deps.catalog.ensureProduct(plan);
      const priceId = await deps.catalog.createPrice({
        productId,
        planId: plan.id,
        cycle,
        unitAmount,
        interval,
      });
      next = { ...next, [PRICE_ID_FIELD[cycle]]: priceId };
      results.push({ planId: plan.id, cycle, priceId, action: 'created' });
    }
    if (next !== plan) await deps.plans.put({ ...next, updatedAt: deps.clock.now().toISOString() });
  }
  return results;
}

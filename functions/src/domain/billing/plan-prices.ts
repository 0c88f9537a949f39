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

/** One plan's current prices, as the customer portal offers them. */
export interface PortalOffer {
  productId: string;
  priceIds: string[];
}

/** The payment provider's product catalogue, as far as plans need it. */
export interface PriceCatalog {
  /** The price, or undefined when the account has none with this id. */
  findPrice(priceId: string): Promise<CatalogPrice | undefined>;
  /** The plan's product (created when missing, renamed when the plan was); returns its id. */
  ensureProduct(plan: Pick<Plan, 'id' | 'name' | 'description'>): Promise<string>;
  /**
   * A new price for the plan's cycle; it takes over the plan's lookup key
   * for that cycle from the price that had it.
   */
  createPrice(input: {
    productId: string;
    planId: string;
    cycle: BillingCycle;
    unitAmount: number;
    interval: PriceInterval;
  }): Promise<string>;
  /** Archives a price: no new subscription can use it; subscriptions on it keep paying it. */
  archivePrice(priceId: string): Promise<void>;
  /** Makes the customer portal offer exactly these plans and prices for a change of plan. */
  syncPortal(offers: PortalOffer[]): Promise<void>;
}

/** Why a plan's stored price for a cycle was replaced. */
export type PriceDrift =
  /** The plan had no price id for a cycle it offers. */
  | 'missing'
  /** The account has no price with the stored id. */
  | 'unknown'
  /** The stored price is archived. */
  | 'archived'
  /** The stored price charges another amount than the plan shows. */
  | 'amount'
  /** The stored price renews at another interval than the cycle. */
  | 'interval';

export interface PriceSyncResult {
  planId: string;
  cycle: BillingCycle;
  /** The price the plan uses now for this cycle; null when the plan no longer offers it. */
  priceId: string | null;
  /**
   * `kept`: the stored price matches; `created`: a new price replaced a
   * drifted or missing one (`drift` says why; `archived` names the old one it
   * retired); `withdrawn`: the plan no longer offers the cycle, its price was
   * archived.
   */
  action: 'kept' | 'created' | 'withdrawn';
  drift?: PriceDrift;
  /** What the account charged for the old price, in cents, when the amount drifted. */
  chargedAmount?: number;
  archived?: string;
}

/** A plan's price for a cycle in cents. */
export const priceInCents = (
  plan: Pick<Plan, 'weeklyPrice' | 'monthlyPrice' | 'yearlyPrice'>,
  cycle: BillingCycle,
): number => Math.round(planPrice(plan, cycle) * 100);

/** The cycles a plan offers: those with a price above zero. */
export const offeredCycles = (
  plan: Pick<Plan, 'weeklyPrice' | 'monthlyPrice' | 'yearlyPrice'>,
): BillingCycle[] => BILLING_CYCLES.filter((cycle) => priceInCents(plan, cycle) > 0);

/**
 * How the price the account holds for a plan's cycle differs from the plan:
 * `stored` is the price found under the plan's id (null: the account has
 * none with that id; undefined: the plan has no id). Undefined when it
 * matches, or the plan does not offer the cycle.
 */
export function driftOf(
  plan: Pick<Plan, 'weeklyPrice' | 'monthlyPrice' | 'yearlyPrice'>,
  cycle: BillingCycle,
  stored: CatalogPrice | null | undefined,
): PriceDrift | undefined {
  const unitAmount = priceInCents(plan, cycle);
  if (unitAmount <= 0) return undefined;
  if (stored === undefined) return 'missing';
  if (stored === null) return 'unknown';
  if (!stored.active) return 'archived';
  if (stored.interval !== CYCLE_INTERVAL[cycle]) return 'interval';
  if (stored.unitAmount !== unitAmount) return 'amount';
  return undefined;
}

/** Every drift of the active paid plans' prices from what the account holds, without changing anything. */
export async function findPriceDrift(deps: {
  plans: PlanRepository;
  catalog: Pick<PriceCatalog, 'findPrice'>;
}): Promise<
  Array<{
    planId: string;
    cycle: BillingCycle;
    priceId: string | null;
    drift: PriceDrift;
    chargedAmount?: number;
  }>
> {
  const found: Array<{
    planId: string;
    cycle: BillingCycle;
    priceId: string | null;
    drift: PriceDrift;
    chargedAmount?: number;
  }> = [];
  for (const plan of await deps.plans.listBySortOrder()) {
    if (!plan.isActive || !isPaidPlan(plan)) continue;
    for (const cycle of BILLING_CYCLES) {
      const priceId = planPriceId(plan, cycle);
      const stored = priceId ? ((await deps.catalog.findPrice(priceId)) ?? null) : undefined;
      const drift = driftOf(plan, cycle, stored);
      if (drift) {
        found.push({
          planId: plan.id,
          cycle,
          priceId,
          drift,
          ...(drift === 'amount' && stored ? { chargedAmount: stored.unitAmount } : {}),
        });
      }
    }
  }
  return found;
}

/** Whether the plan can be sold: free, or paid with a price id for every cycle it offers. */
export const hasEveryPrice = (plan: Plan): boolean =>
  !isPaidPlan(plan) || offeredCycles(plan).every((cycle) => !!planPriceId(plan, cycle));

/**
 * Brings one paid plan's prices in line with the provider's account: for
 * each cycle the plan offers, a stored price that the account has, active,
 * at the plan's amount and interval is kept; otherwise a new price is
 * created on the plan's product (taking over the cycle's lookup key). A
 * cycle the plan no longer offers loses its price id. The provider's prices
 * are immutable, so this is the only way a price changes.
 *
 * Returns the plan with its new price ids (not stored) and the prices it
 * replaced (`retire`): the caller stores the plan first and archives those
 * after, so that the stored plan never names an archived price. Subscribers
 * on a retired price keep paying it until they change plan; nobody new can
 * choose it.
 */
export async function reconcilePlanPrices(
  catalog: PriceCatalog,
  plan: Plan,
): Promise<{ plan: Plan; results: PriceSyncResult[]; retire: string[] }> {
  const results: PriceSyncResult[] = [];
  const retire: string[] = [];
  let next = plan;
  let productId: string | undefined;
  for (const cycle of BILLING_CYCLES) {
    const unitAmount = priceInCents(plan, cycle);
    const storedId = planPriceId(plan, cycle);
    const stored = storedId ? await catalog.findPrice(storedId) : undefined;
    if (unitAmount <= 0) {
      if (!storedId) continue;
      if (stored?.active) retire.push(stored.id);
      next = { ...next, [PRICE_ID_FIELD[cycle]]: null };
      results.push({
        planId: plan.id,
        cycle,
        priceId: null,
        action: 'withdrawn',
        ...(stored?.active ? { archived: stored.id } : {}),
      });
      continue;
    }
    const interval = CYCLE_INTERVAL[cycle];
    const drift = driftOf(plan, cycle, storedId ? (stored ?? null) : undefined);
    if (!drift && stored) {
      results.push({ planId: plan.id, cycle, priceId: stored.id, action: 'kept' });
      continue;
    }
    productId ??= await catalog.ensureProduct(plan);
    const priceId = await catalog.createPrice({ productId, planId: plan.id, cycle, unitAmount, interval });
    if (stored?.active) retire.push(stored.id);
    next = { ...next, [PRICE_ID_FIELD[cycle]]: priceId };
    results.push({
      planId: plan.id,
      cycle,
      priceId,
      action: 'created',
      drift: drift as PriceDrift,
      ...(drift === 'amount' && stored ? { chargedAmount: stored.unitAmount } : {}),
      ...(stored?.active ? { archived: stored.id } : {}),
    });
  }
  return { plan: next, results, retire };
}

/** Archives prices a plan no longer uses (see {@link reconcilePlanPrices}). */
export async function retirePrices(catalog: PriceCatalog, priceIds: readonly string[]): Promise<void> {
  for (const priceId of priceIds) await catalog.archivePrice(priceId);
}

/** What the customer portal should offer: every active paid plan's current prices. */
export function portalOffers(plans: readonly Plan[]): PortalOffer[] {
  return plans
    .filter((plan) => plan.isActive && isPaidPlan(plan))
    .map((plan) => ({
      productId: productIdOf(plan.id),
      priceIds: offeredCycles(plan)
        .map((cycle) => planPriceId(plan, cycle))
        .filter((id): id is string => !!id),
    }))
    .filter((offer) => offer.priceIds.length > 0);
}

/** The product a plan sells, under an id of ours so that syncing finds it again. */
export const productIdOf = (planId: string) => `tunesmith_${planId}`;

/**
 * Gives every active paid plan a price in the provider's account for each
 * cycle it offers ({@link reconcilePlanPrices}), stores the plans that
 * changed, and makes the portal offer exactly the plans' current prices.
 * Running it again changes nothing. Used by `npm run stripe:sync`, which
 * reports the drift it repaired, and by the local cloud at start.
 */
export async function syncPlanPrices(deps: {
  plans: PlanRepository;
  catalog: PriceCatalog;
  clock: Clock;
}): Promise<PriceSyncResult[]> {
  const results: PriceSyncResult[] = [];
  const plans: Plan[] = [];
  for (const plan of await deps.plans.listBySortOrder()) {
    if (!plan.isActive || !isPaidPlan(plan)) {
      plans.push(plan);
      continue;
    }
    const reconciled = await reconcilePlanPrices(deps.catalog, plan);
    results.push(...reconciled.results);
    if (reconciled.plan !== plan) {
      await deps.plans.put({ ...reconciled.plan, updatedAt: deps.clock.now().toISOString() });
    }
    await retirePrices(deps.catalog, reconciled.retire);
    plans.push(reconciled.plan);
  }
  await deps.catalog.syncPortal(portalOffers(plans));
  return results;
}

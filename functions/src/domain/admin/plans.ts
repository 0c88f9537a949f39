import { adminMessages, type PlanInput } from '@tunesmith/shared/admin';
import { billingMessages } from '@tunesmith/shared/billing';
import type { AdminUser } from '../accounts/admin';
import { portalOffers, reconcilePlanPrices, retirePrices } from '../billing/plan-prices';
import { PaymentsError } from '../billing/ports';
import { conflict, DomainError, notFound, validationError } from '../errors';
import { isPaidPlan } from '../generations/entitlements';
import type { Plan } from '../plans/plan';
import { followPlans } from '../plans/pricing-page';
import { audit } from './audit';
import type { AdminDeps } from './ports';

type PlanDeps = Pick<AdminDeps, 'plans' | 'audit' | 'clock' | 'newId' | 'payments' | 'pricingPage'> & {
  log?: { warn(message: string, fields?: Record<string, unknown>): void };
};

/** The pricing page's document follows a change to the plans that stands (decision 038). */
const offerOnPricingPage = (deps: PlanDeps) =>
  followPlans({ plans: deps.plans, page: deps.pricingPage }, (error) =>
    deps.log?.warn('pricing page not brought in line with the plans', { error }),
  );

/** Stripe's refusals as the admin hears them; nothing was stored when this is thrown. */
function pricingError(error: unknown): unknown {
  if (!(error instanceof PaymentsError)) return error;
  if (error.failure === 'not-configured') {
    return validationError(billingMessages.stripeNeededForPaidPlan, { field: 'isActive' });
  }
  return new DomainError('unavailable', billingMessages.planPricesUnavailable);
}

/**
 * Makes the customer portal offer exactly the active paid plans' current
 * prices, as they will be once `change` is stored (a plan saved, or one
 * removed). Without Stripe there is no portal to bring in line.
 */
async function offerInPortal(deps: PlanDeps, change: { put?: Plan; remove?: string }): Promise<void> {
  const plans = (await deps.plans.listBySortOrder()).filter(
    (plan) => plan.id !== change.remove && plan.id !== change.put?.id,
  );
  if (change.put) plans.push(change.put);
  try {
    await deps.payments.syncPortal(portalOffers(plans));
  } catch (error) {
    if (error instanceof PaymentsError && error.failure === 'not-configured') return;
    throw pricingError(error);
  }
}

/**
 * Stores a plan with prices that match it. An active paid plan is sold only
 * with a Stripe price for every cycle it offers: its prices are made (or
 * replaced, when the amount changed: Stripe's prices cannot change) and the
 * portal is brought to the plans as they will be, all before the plan is
 * stored, so a refusal leaves nothing half-written; the prices it no longer
 * uses are archived after (a failure there only leaves an unused price
 * active, which `npm run stripe:sync` reports). An inactive or free plan
 * needs no Stripe. Returns the stored plan.
 */
async function savePlan(deps: PlanDeps, plan: Plan): Promise<Plan> {
  let stored = plan;
  let retire: string[] = [];
  if (plan.isActive && isPaidPlan(plan)) {
    try {
      ({ plan: stored, retire } = await reconcilePlanPrices(deps.payments, plan));
    } catch (error) {
      throw pricingError(error);
    }
  }
  await offerInPortal(deps, { put: stored });
  await deps.plans.put(stored);
  try {
    // Once more from what is stored: of two saves at once, the portal ends with the one that was stored last.
    await offerInPortal(deps, {});
    await retirePrices(deps.payments, retire);
  } catch (error) {
    deps.log?.warn('portal or replaced prices not brought in line', { planId: plan.id, retire, error });
  }
  return stored;
}

const NO_PRICE_IDS = { weeklyPriceId: null, monthlyPriceId: null, yearlyPriceId: null } as const;

/** The plan the site gives everyone without a subscription. */
export const isTheFreePlan = (plan: Pick<Plan, 'name'>) => plan.name === 'Free';

/** Every plan, inactive ones too, in sort order. */
export const listAllPlans = (deps: Pick<AdminDeps, 'plans'>) => deps.plans.listBySortOrder();

export async function createPlan(
  deps: PlanDeps,
  admin: Pick<AdminUser, 'username'>,
  input: PlanInput,
): Promise<Plan> {
  const stamp = deps.clock.now().toISOString();
  // Price ids are made with the plan's prices, never typed in (see savePlan).
  const plan = await savePlan(deps, {
    id: deps.newId(),
    ...input,
    ...NO_PRICE_IDS,
    createdAt: stamp,
    updatedAt: stamp,
  });
  await offerOnPricingPage(deps);
  await audit(deps, admin, 'plan.create', plan.id, `Created plan ${plan.name}`);
  return plan;
}

/**
 * Updates a plan. A changed price takes effect for new subscribers (a new
 * Stripe price); existing subscribers keep paying what they pay until they
 * change plan (their price still names the plan in its metadata).
 */
export async function updatePlan(
  deps: PlanDeps,
  admin: Pick<AdminUser, 'username'>,
  id: string,
  input: PlanInput,
): Promise<Plan> {
  const current = await deps.plans.get(id);
  if (!current) throw notFound(adminMessages.planNotFound);
  if (isTheFreePlan(current) && !input.isActive) {
    throw validationError(adminMessages.freePlanStaysActive, { field: 'isActive' });
  }
  const plan = await savePlan(deps, {
    ...current,
    ...input,
    // The stored price ids stand: savePlan replaces the ones whose price changed.
    weeklyPriceId: current.weeklyPriceId,
    monthlyPriceId: current.monthlyPriceId,
    yearlyPriceId: current.yearlyPriceId,
    id,
    updatedAt: deps.clock.now().toISOString(),
  });
  await offerOnPricingPage(deps);
  await audit(deps, admin, 'plan.update', id, `Updated plan ${plan.name}${pricesChanged(current, plan)}`);
  return plan;
}

/** ", new prices: monthly $12.00" for the audit trail, when a price changed. */
function pricesChanged(before: Plan, after: Plan): string {
  const changed = (['weekly', 'monthly', 'yearly'] as const).filter(
    (cycle) => before[`${cycle}Price`] !== after[`${cycle}Price`],
  );
  if (changed.length === 0) return '';
  const money = (n: number) =>
    new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(n);
  return `, new prices: ${changed.map((cycle) => `${cycle} ${money(after[`${cycle}Price`])}`).join(', ')}`;
}

/**
 * Deletes a plan no user is on. The Free plan stays; a plan with users is
 * refused with the advice to deactivate it (decision 006), so no profile ever
 * names a plan that does not exist.
 */
export async function deletePlan(
  deps: PlanDeps & Pick<AdminDeps, 'directory'>,
  admin: Pick<AdminUser, 'username'>,
  id: string,
): Promise<void> {
  const plan = await deps.plans.get(id);
  if (!plan) throw notFound(adminMessages.planNotFound);
  if (isTheFreePlan(plan)) throw validationError(adminMessages.freePlanUndeletable);
  const members = await deps.directory.countOnPlan(id, 2);
  if (members > 0) throw conflict(adminMessages.planInUse(members));
  await offerInPortal(deps, { remove: id });
  await deps.plans.delete(id);
  await offerOnPricingPage(deps);
  await audit(deps, admin, 'plan.delete', id, `Deleted plan ${plan.name}`);
}

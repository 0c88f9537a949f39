/**
 * Which stem sets a user may ask for (decision 044), the one rule that both
 * `POST /api/generation/{id}/stems` enforces and the user's entitlements
 * show: the plan in force decides (the user's while it is in force, else the
 * stored Free plan), and a refused set names the active plans that have it.
 */
import type { Entitlements } from '@tunesmith/shared/auth';
import { STEM_SETS, type StemSet } from '@tunesmith/shared/stems';
import type { User } from '../accounts/user';
import { entitlementsFor, isPaidPlan } from '../generations/entitlements';
import type { Plan } from '../plans/plan';

type StemSettings = Pick<Plan, 'stemsFour' | 'stemsSix'>;
type Subscriber = Pick<User, 'planStatus' | 'planEndDate'>;

/** Whether a plan separates into `set`; a plan stored before the setting separates into 4 only. */
export const planAllowsSet = (plan: StemSettings | undefined, set: StemSet): boolean =>
  set === '4' ? (plan?.stemsFour ?? true) : (plan?.stemsSix ?? false);

/**
 * The plan whose stem settings apply: `plan` (the user's subscribed plan)
 * while it is in force, or when it is a free plan given to them; else the
 * stored Free plan among `plans` (undefined when none is stored).
 */
export function stemsPlanInForce(
  user: Subscriber,
  plan: Plan | undefined,
  plans: readonly Plan[],
  now: Date,
): StemSettings | undefined {
  if (plan && (entitlementsFor(user, plan, now).paid || !isPaidPlan(plan))) return plan;
  return plans.find((p) => p.name === 'Free');
}

/** The names of the active plans that separate into `set`, in their order. */
export const plansWithSet = (plans: readonly Plan[], set: StemSet): string[] =>
  plans.filter((p) => p.isActive && planAllowsSet(p, set)).map((p) => p.name);

/**
 * What the user's entitlements say of stems: the sets the plan in force
 * allows, and for each set the plans that have it. `plans` is every plan, by
 * sort order.
 */
export function stemEntitlements(
  user: Subscriber,
  plan: Plan | undefined,
  plans: readonly Plan[],
  now: Date,
): Entitlements['stems'] {
  const inForce = stemsPlanInForce(user, plan, plans, now);
  return {
    sets: STEM_SETS.filter((set) => planAllowsSet(inForce, set)),
    plans: { '4': plansWithSet(plans, '4'), '6': plansWithSet(plans, '6') },
  };
}

/** Everything the plan allows now, stems included (the user's own answer and the admin's view of them). */
export function fullEntitlementsFor(
  user: Subscriber,
  plan: Plan | undefined,
  plans: readonly Plan[],
  now: Date,
): Entitlements {
  return { ...entitlementsFor(user, plan, now), stems: stemEntitlements(user, plan, plans, now) };
}

import { adminMessages, type PlanInput } from '@tunesmith/shared/admin';
import type { AdminUser } from '../accounts/admin';
import { conflict, notFound, validationError } from '../errors';
import type { Plan } from '../plans/plan';
import { audit } from './audit';
import type { AdminDeps } from './ports';

/** The plan the site gives everyone without a subscription. */
export const isTheFreePlan = (plan: Pick<Plan, 'name'>) => plan.name === 'Free';

/** Every plan, inactive ones too, in sort order. */
export const listAllPlans = (deps: Pick<AdminDeps, 'plans'>) => deps.plans.listBySortOrder();

export async function createPlan(
  deps: Pick<AdminDeps, 'plans' | 'audit' | 'clock' | 'newId'>,
  admin: Pick<AdminUser, 'username'>,
  input: PlanInput,
): Promise<Plan> {
  const stamp = deps.clock.now().toISOString();
  const plan: Plan = { id: deps.newId(), ...input, createdAt: stamp, updatedAt: stamp };
  await deps.plans.put(plan);
  await audit(deps, admin, 'plan.create', plan.id, `Created plan ${plan.name}`);
  return plan;
}

export async function updatePlan(
  deps: Pick<AdminDeps, 'plans' | 'audit' | 'clock' | 'newId'>,
  admin: Pick<AdminUser, 'username'>,
  id: string,
  input: PlanInput,
): Promise<Plan> {
  const current = await deps.plans.get(id);
  if (!current) throw notFound(adminMessages.planNotFound);
  if (isTheFreePlan(current) && !input.isActive) {
    throw validationError(adminMessages.freePlanStaysActive, { field: 'isActive' });
  }
  const plan: Plan = { ...current, ...input, id, updatedAt: deps.clock.now().toISOString() };
  await deps.plans.put(plan);
  await audit(deps, admin, 'plan.update', id, `Updated plan ${plan.name}`);
  return plan;
}

/**
 * Deletes a plan no user is on. The Free plan stays; a plan with users is
 * refused with the advice to deactivate it (decision 006), so no profile ever
 * names a plan that does not exist.
 */
export async function deletePlan(
  deps: Pick<AdminDeps, 'plans' | 'directory' | 'audit' | 'clock' | 'newId'>,
  admin: Pick<AdminUser, 'username'>,
  id: string,
): Promise<void> {
  const plan = await deps.plans.get(id);
  if (!plan) throw notFound(adminMessages.planNotFound);
  if (isTheFreePlan(plan)) throw validationError(adminMessages.freePlanUndeletable);
  const members = await deps.directory.countOnPlan(id, 2);
  if (members > 0) throw conflict(adminMessages.planInUse(members));
  await deps.plans.delete(id);
  await audit(deps, admin, 'plan.delete', id, `Deleted plan ${plan.name}`);
}

import type { Plan, PlanRepository } from './plan';

/** The plans offered to visitors: active ones, in sort order. */
export async function listActivePlans(plans: PlanRepository): Promise<Plan[]> {
  const all = await plans.listBySortOrder();
  return all.filter((plan) => plan.isActive);
}

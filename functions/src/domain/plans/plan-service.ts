import type { Plan, PlanRepository } from './plan';

/** The plans offered to visitors: active ones, in sort order. */
export async function listActivePlans(plans: Pick<PlanRepository, 'listBySortOrder'>): Promise<Plan[]> {
  const all = await plans.listBySortOrder();
  return all.filter((plan) => plan.isActive);
}

/** The plan everyone without a paid plan in force is on (the seed's Free; it cannot be deleted). */
export async function findFreePlan(
  plans: Pick<PlanRepository, 'listBySortOrder'>,
): Promise<Plan | undefined> {
  return (await plans.listBySortOrder()).find((plan) => plan.name === 'Free');
}

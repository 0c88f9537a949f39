import type { Plan } from '@tunesmith/shared/plans';

export type { Plan };

/** Storage port for subscription plans. */
export interface PlanRepository {
  /** Every plan, ordered by sortOrder then name. */
  listBySortOrder(): Promise<Plan[]>;
  get(id: string): Promise<Plan | undefined>;
  put(plan: Plan): Promise<void>;
}

/** Field defaults for a new plan (spec 2 section 9). */
export const planDefaults = {
  maxGenerations: 5,
  generationsNumber: 5,
  sortOrder: 0,
  weeklyPrice: 0,
  monthlyPrice: 0,
  yearlyPrice: 0,
  isActive: true,
} as const;

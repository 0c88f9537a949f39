import type { PlanRepository } from './plans/plan';
import { seedPlans } from './plans/seed-plans';
import { type SettingsRepository, seedSettings } from './settings/settings';

export interface SeedResult {
  plansCreated: number;
  settingsCreated: number;
}

/**
 * Puts the starting data of a new installation in place: the three plans when
 * no plan exists yet, and each default setting that has no value yet. Safe to
 * run on every start or deploy: it never overwrites what an admin changed.
 */
export async function seedDefaults(
  deps: { plans: PlanRepository; settings: SettingsRepository },
  now: Date = new Date(),
): Promise<SeedResult> {
  const stamp = now.toISOString();
  let plansCreated = 0;
  if ((await deps.plans.listBySortOrder()).length === 0) {
    for (const plan of seedPlans(stamp)) {
      await deps.plans.put(plan);
      plansCreated++;
    }
  }
  let settingsCreated = 0;
  for (const setting of seedSettings(stamp)) {
    if (await deps.settings.putIfAbsent(setting)) settingsCreated++;
  }
  return { plansCreated, settingsCreated };
}

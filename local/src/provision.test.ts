import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Plan, PlanRepository } from '@tunesmith/functions/domain/plans/plan';
import { seedPlans } from '@tunesmith/functions/domain/plans/seed-plans';
import type { Setting, SettingsRepository } from '@tunesmith/functions/domain/settings/settings';
import { afterEach, describe, expect, it } from 'vitest';
import { definitionHash, readMarker, writeMarker } from './local-state';
import { ensurePlanPrices, ensureSeed, planPricesHash, seedHash } from './provision';

// What a later start may skip: each step runs again when its definitions
// changed, its marker is missing, or what it made is gone.

function memoryPlans(initial: Plan[] = []): PlanRepository & { plans: Map<string, Plan> } {
  const plans = new Map(initial.map((plan) => [plan.id, plan]));
  return {
    plans,
    listBySortOrder: async () => [...plans.values()].sort((a, b) => a.sortOrder - b.sortOrder),
    get: async (id) => plans.get(id),
    put: async (plan) => {
      plans.set(plan.id, plan);
    },
  };
}

function memorySettings(): SettingsRepository & { puts: string[] } {
  const settings = new Map<string, Setting>();
  const puts: string[] = [];
  return {
    puts,
    list: async () => [...settings.values()],
    get: async (key) => settings.get(key),
    put: async (setting) => {
      settings.set(setting.key, setting);
      puts.push(setting.key);
    },
    putIfAbsent: async (setting) => {
      if (settings.has(setting.key)) return false;
      settings.set(setting.key, setting);
      puts.push(setting.key);
      return true;
    },
  };
}

/** Seed plans with a price id for every cycle of the paid ones. */
function pricedPlans(): Plan[] {
  return seedPlans('2026-01-01T00:00:00.000Z').map((plan) =>
    plan.monthlyPrice > 0
      ? {
          ...plan,
          weeklyPriceId: `price_w_${plan.id}`,
          monthlyPriceId: `price_m_${plan.id}`,
          yearlyPriceId: `price_y_${plan.id}`,
        }
      : plan,
  );
}

describe('definitionHash', () => {
  it('is the same whatever the order of keys, and changes with any value', () => {
    expect(definitionHash({ a: 1, b: { c: [1, 2] } })).toBe(definitionHash({ b: { c: [1, 2] }, a: 1 }));
    expect(definitionHash({ a: 1, b: { c: [1, 2] } })).not.toBe(definitionHash({ a: 1, b: { c: [2, 1] } }));
    expect(definitionHash({ a: 1 })).not.toBe(definitionHash({ a: 2 }));
  });
});

describe('the marker file', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  const aDir = () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'tunesmith-marker-'));
    dirs.push(dir);
    return dir;
  };

  it('reads back what was written, and nothing else is left beside it', () => {
    const dir = aDir();
    const file = path.join(dir, 'provisioned.json');
    writeMarker(file, { seed: 's', pools: 'p', prices: 'x' });
    expect(readMarker(file)).toEqual({ seed: 's', pools: 'p', prices: 'x' });
    expect(readdirSync(dir)).toEqual(['provisioned.json']);
  });

  it('is empty when missing or unreadable, so that every step runs', () => {
    const dir = aDir();
    const file = path.join(dir, 'provisioned.json');
    expect(readMarker(file)).toEqual({});
    writeFileSync(file, '{ half-written');
    expect(readMarker(file)).toEqual({});
  });
});

describe('ensureSeed', () => {
  it('seeds a new table', async () => {
    const plans = memoryPlans();
    const result = await ensureSeed(
      { plans, settings: memorySettings() },
      { tableCreated: true, appliedHash: seedHash },
    );
    expect(result).toEqual({ seeded: true, hash: seedHash });
    expect(plans.plans.size).toBe(3);
  });

  it('skips kept data seeded with the same definitions', async () => {
    const plans = memoryPlans();
    const settings = memorySettings();
    const result = await ensureSeed({ plans, settings }, { tableCreated: false, appliedHash: seedHash });
    expect(result.seeded).toBe(false);
    expect(plans.plans.size).toBe(0);
    expect(settings.puts).toEqual([]);
  });

  it('seeds kept data again when the definitions changed or the marker is missing', async () => {
    for (const appliedHash of ['an-older-seed', undefined]) {
      const settings = memorySettings();
      const result = await ensureSeed(
        { plans: memoryPlans(), settings },
        { tableCreated: false, appliedHash },
      );
      expect(result).toEqual({ seeded: true, hash: seedHash });
      expect(settings.puts.length).toBeGreaterThan(0);
    }
  });
});

describe('ensurePlanPrices', () => {
  const everyPrice = { hasActivePrices: () => true };

  it('skips the sync when the plans are those last synced and Stripe has their prices', async () => {
    const plans = memoryPlans(pricedPlans());
    let synced = 0;
    const result = await ensurePlanPrices(
      { plans, stripe: everyPrice, sync: async () => void synced++ },
      planPricesHash(pricedPlans()),
    );
    expect(result).toEqual({ synced: false, hash: planPricesHash(pricedPlans()) });
    expect(synced).toBe(0);
  });

  it('does not count when a plan was last updated', async () => {
    const plans = memoryPlans(
      pricedPlans().map((plan) => ({ ...plan, updatedAt: '2026-06-01T00:00:00.000Z' })),
    );
    let synced = 0;
    await ensurePlanPrices(
      { plans, stripe: everyPrice, sync: async () => void synced++ },
      planPricesHash(pricedPlans()),
    );
    expect(synced).toBe(0);
  });

  it('syncs when a plan price changed, and returns the hash of the plans after the sync', async () => {
    const changed = pricedPlans().map((plan) =>
      plan.id === 'basic' ? { ...plan, monthlyPrice: plan.monthlyPrice + 1 } : plan,
    );
    const plans = memoryPlans(changed);
    const result = await ensurePlanPrices(
      {
        plans,
        stripe: everyPrice,
        // As syncPlanPrices does: a new price for the new amount.
        sync: async () => {
          const basic = plans.plans.get('basic') as Plan;
          await plans.put({ ...basic, monthlyPriceId: 'price_m_basic_2' });
        },
      },
      planPricesHash(pricedPlans()),
    );
    expect(result.synced).toBe(true);
    expect(result.hash).toBe(planPricesHash(await plans.listBySortOrder()));
    expect(result.hash).not.toBe(planPricesHash(changed));
  });

  it('syncs when Stripe lost a price, a paid plan lacks one, or the marker is missing', async () => {
    const withoutYearly = pricedPlans().map((plan) =>
      plan.id === 'premium' ? { ...plan, yearlyPriceId: null } : plan,
    );
    const cases: {
      plans: Plan[];
      stripe: { hasActivePrices(ids: readonly string[]): boolean };
      applied?: string;
    }[] = [
      {
        plans: pricedPlans(),
        stripe: { hasActivePrices: (ids) => !ids.includes('price_y_premium') },
        applied: planPricesHash(pricedPlans()),
      },
      { plans: withoutYearly, stripe: everyPrice, applied: planPricesHash(withoutYearly) },
      { plans: pricedPlans(), stripe: everyPrice, applied: undefined },
    ];
    for (const { plans, stripe, applied } of cases) {
      let synced = 0;
      await ensurePlanPrices({ plans: memoryPlans(plans), stripe, sync: async () => void synced++ }, applied);
      expect(synced).toBe(1);
    }
  });
});

import { describe, expect, it } from 'vitest';
import { aBasicPlan, aPlan } from '../../testing/fixtures';
import { inMemoryPlans } from '../../testing/in-memory';
import { fakeClock } from '../../testing/in-memory-accounts';
import { fakePayments } from '../../testing/in-memory-billing';
import {
  cycleOfInterval,
  hasEveryPrice,
  planForPrice,
  portalOffers,
  reconcilePlanPrices,
  retirePrices,
  syncPlanPrices,
} from './plan-prices';

const basic = aBasicPlan({
  id: 'basic',
  monthlyPriceId: 'price_bm',
  yearlyPriceId: 'price_by',
  yearlyPrice: 90,
});
const premium = aPlan({
  id: 'premium',
  name: 'Premium',
  weeklyPrice: 4.39,
  monthlyPrice: 19,
  yearlyPrice: 190,
  weeklyPriceId: 'price_pw',
  maxGenerations: 100,
});

describe('planForPrice', () => {
  it('finds the plan and cycle that list the price', () => {
    expect(planForPrice([basic, premium], { priceId: 'price_by', priceTags: {} })).toEqual({
      planId: 'basic',
      cycle: 'yearly',
    });
    expect(planForPrice([basic, premium], { priceId: 'price_pw', priceTags: {} })).toEqual({
      planId: 'premium',
      cycle: 'weekly',
    });
  });

  it("falls back to the price's own tags for a price no plan lists any more", () => {
    expect(
      planForPrice([basic, premium], {
        priceId: 'price_old',
        priceTags: { planId: 'premium', cycle: 'monthly' },
      }),
    ).toEqual({ planId: 'premium', cycle: 'monthly' });
  });

  it('gives nothing for an unknown price, or tags naming a plan that does not exist', () => {
    expect(planForPrice([basic], { priceId: 'price_x', priceTags: {} })).toBeUndefined();
    expect(
      planForPrice([basic], { priceId: 'price_x', priceTags: { planId: 'gone', cycle: 'monthly' } }),
    ).toBeUndefined();
  });
});

describe('cycleOfInterval', () => {
  it('maps Stripe intervals to billing cycles', () => {
    expect([cycleOfInterval('week'), cycleOfInterval('month'), cycleOfInterval('year')]).toEqual([
      'weekly',
      'monthly',
      'yearly',
    ]);
    expect(cycleOfInterval('day')).toBeUndefined();
    expect(cycleOfInterval(null)).toBeUndefined();
  });
});

describe('syncPlanPrices', () => {
  const setup = (plans = [aPlan({ id: 'free' }), aBasicPlan({ id: 'basic', yearlyPrice: 90 })]) => {
    const catalog = fakePayments();
    const repo = inMemoryPlans(plans);
    const clock = fakeClock('2026-11-24T10:00:00.000Z');
    return { catalog, repo, run: () => syncPlanPrices({ plans: repo, catalog, clock }) };
  };

  it('creates a price for every cycle of every paid plan that lacks one, and records the ids', async () => {
    const { catalog, repo, run } = setup();
    const results = await run();
    expect(results.map((r) => `${r.planId}/${r.cycle}/${r.action}`)).toEqual([
      'basic/weekly/created',
      'basic/monthly/created',
      'basic/yearly/created',
    ]);
    const stored = repo.all.get('basic');
    expect(stored?.weeklyPriceId).toBe(results[0]?.priceId);
    expect(stored?.yearlyPriceId).toBe(results[2]?.priceId);
    expect(stored?.updatedAt).toBe('2026-11-24T10:00:00.000Z');
    expect(catalog.prices.get(stored?.monthlyPriceId ?? '')).toMatchObject({
      unitAmount: 900,
      interval: 'month',
      productId: 'prod_basic',
    });
    expect(repo.all.get('free')?.weeklyPriceId).toBeNull();
  });

  it('keeps prices the account has at the right amount, and changes nothing the second time', async () => {
    const { repo, run } = setup();
    await run();
    const before = repo.all.get('basic');
    const again = await run();
    expect(again.every((r) => r.action === 'kept')).toBe(true);
    expect(repo.all.get('basic')).toBe(before);
  });

  it('replaces a price id the account lacks, one at another amount, and an archived one', async () => {
    const plan = aBasicPlan({
      id: 'basic',
      yearlyPrice: 90,
      weeklyPriceId: 'price_gone',
      monthlyPriceId: 'price_cheap',
      yearlyPriceId: 'price_archived',
    });
    const { catalog, repo, run } = setup([plan]);
    catalog.addPrice({ id: 'price_cheap', active: true, unitAmount: 500, interval: 'month' });
    catalog.addPrice({ id: 'price_archived', active: false, unitAmount: 9000, interval: 'year' });
    const results = await run();
    expect(results.map((r) => r.action)).toEqual(['created', 'created', 'created']);
    const stored = repo.all.get('basic');
    expect([stored?.weeklyPriceId, stored?.monthlyPriceId, stored?.yearlyPriceId]).not.toContain(
      'price_gone',
    );
    expect(stored?.monthlyPriceId).not.toBe('price_cheap');
    expect(results.map((r) => r.drift)).toEqual(['unknown', 'amount', 'archived']);
    expect(results[1]).toMatchObject({ chargedAmount: 500, archived: 'price_cheap' });
    // The drifted price is archived: its subscribers keep paying it, nobody new can.
    expect(catalog.prices.get('price_cheap')?.active).toBe(false);
  });

  it('makes the portal offer exactly the active paid plans and their current prices', async () => {
    const { catalog, repo, run } = setup([
      aPlan({ id: 'free' }),
      aBasicPlan({ id: 'basic', weeklyPrice: 0, yearlyPrice: 90 }),
      aBasicPlan({ id: 'retired', isActive: false, monthlyPriceId: 'price_old' }),
    ]);
    await run();
    const basic = repo.all.get('basic');
    expect(catalog.portal).toEqual([
      { productId: 'tunesmith_basic', priceIds: [basic?.monthlyPriceId, basic?.yearlyPriceId] },
    ]);
  });

  it('leaves inactive plans and cycles without a price alone', async () => {
    const { repo, run } = setup([
      aBasicPlan({ id: 'basic', weeklyPrice: 0, yearlyPrice: 0 }),
      aBasicPlan({ id: 'retired', isActive: false }),
    ]);
    const results = await run();
    expect(results.map((r) => `${r.planId}/${r.cycle}`)).toEqual(['basic/monthly']);
    expect(repo.all.get('retired')?.monthlyPriceId).toBeNull();
  });
});

describe('reconcilePlanPrices (a price edit)', () => {
  it('creates the new price, archives the old one, and withdraws a cycle the plan stops offering', async () => {
    const catalog = fakePayments();
    catalog.addPrice({ id: 'price_m9', active: true, unitAmount: 900, interval: 'month' });
    catalog.addPrice({ id: 'price_w', active: true, unitAmount: 208, interval: 'week' });
    catalog.addPrice({ id: 'price_y', active: true, unitAmount: 9000, interval: 'year' });
    const before = aBasicPlan({
      id: 'basic',
      weeklyPrice: 0,
      monthlyPrice: 12,
      yearlyPrice: 90,
      weeklyPriceId: 'price_w',
      monthlyPriceId: 'price_m9',
      yearlyPriceId: 'price_y',
    });
    const { plan, results, retire } = await reconcilePlanPrices(catalog, before);
    // Nothing is archived until the plan that no longer names them is stored.
    expect(catalog.prices.get('price_m9')?.active).toBe(true);
    expect(retire).toEqual(['price_w', 'price_m9']);
    await retirePrices(catalog, retire);
    expect(results.map((r) => [r.cycle, r.action, r.drift ?? null])).toEqual([
      ['weekly', 'withdrawn', null],
      ['monthly', 'created', 'amount'],
      ['yearly', 'kept', null],
    ]);
    expect(plan.weeklyPriceId).toBeNull();
    expect(plan.yearlyPriceId).toBe('price_y');
    expect(catalog.prices.get(plan.monthlyPriceId ?? '')).toMatchObject({ unitAmount: 1200, active: true });
    expect(catalog.prices.get('price_m9')?.active).toBe(false);
    expect(catalog.prices.get('price_w')?.active).toBe(false);
    expect(hasEveryPrice(plan)).toBe(true);
    expect(hasEveryPrice({ ...plan, monthlyPriceId: null })).toBe(false);
    expect(portalOffers([plan])).toEqual([
      { productId: 'tunesmith_basic', priceIds: [plan.monthlyPriceId, 'price_y'] },
    ]);
  });
});

import { describe, expect, it } from 'vitest';
import { aBasicPlan, aPlan } from '../../testing/fixtures';
import { inMemoryPlans } from '../../testing/in-memory';
import { fakeClock } from '../../testing/in-memory-accounts';
import { fakePayments } from '../../testing/in-memory-billing';
import { cycleOfInterval, planForPrice, syncPlanPrices } from './plan-prices';

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

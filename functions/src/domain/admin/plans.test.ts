import type { AuditEntry, PlanInput } from '@tunesmith/shared/admin';
import { billingMessages } from '@tunesmith/shared/billing';
import { describe, expect, it } from 'vitest';
import { aBasicPlan, aPlan } from '../../testing/fixtures';
import { inMemoryPlans } from '../../testing/in-memory';
import { fakeClock } from '../../testing/in-memory-accounts';
import { fakePayments } from '../../testing/in-memory-billing';
import { BUILT_PRICING_PAGE, inMemoryPricingPage } from '../../testing/in-memory-pricing-page';
import { PaymentsError } from '../billing/ports';
import { fillPricingPage } from '../plans/pricing-page';
import { createPlan, deletePlan, updatePlan } from './plans';

const admin = { username: 'ops' };

function setup(options: { failPricingPage?: boolean } = {}) {
  const plans = inMemoryPlans([aPlan({ id: 'free' })]);
  const payments = fakePayments();
  const audit: AuditEntry[] = [];
  const pricingPage = inMemoryPricingPage(BUILT_PRICING_PAGE, { failWrite: () => !!options.failPricingPage });
  const warnings: string[] = [];
  let ids = 0;
  const deps = {
    plans: { ...plans, delete: async (id: string) => void plans.all.delete(id) },
    pricingPage,
    log: { warn: (message: string) => void warnings.push(message) },
    payments,
    audit: { record: async (entry: AuditEntry) => void audit.push(entry), recent: async () => audit },
    clock: fakeClock('2026-11-24T10:00:00.000Z'),
    newId: () => `plan-${++ids}`,
    directory: { countOnPlan: async () => 0 },
  };
  return { deps, plans, payments, audit, pricingPage, warnings };
}

const input = (overrides: Partial<PlanInput> = {}): PlanInput => {
  const { id: _id, createdAt: _c, updatedAt: _u, ...rest } = aBasicPlan({ weeklyPrice: 0, yearlyPrice: 90 });
  return { ...rest, ...overrides } as PlanInput;
};

describe('plans and their Stripe prices', () => {
  it('gives a new active paid plan a price for every cycle it offers, and the portal offers them', async () => {
    const { deps, payments } = setup();
    const plan = await createPlan(deps as never, admin, input());
    expect(plan.weeklyPriceId).toBeNull();
    expect(payments.prices.get(plan.monthlyPriceId ?? '')).toMatchObject({ unitAmount: 900, active: true });
    expect(payments.prices.get(plan.yearlyPriceId ?? '')).toMatchObject({ unitAmount: 9000, active: true });
    expect(payments.portal).toEqual([
      { productId: 'tunesmith_plan-1', priceIds: [plan.monthlyPriceId, plan.yearlyPriceId] },
    ]);
  });

  it('stores whether the plan has API access, as the admin set it', async () => {
    const { deps, plans } = setup();
    const before = await createPlan(deps as never, admin, input());
    expect(plans.all.get(before.id)?.apiAccess).toBe(true);
    await updatePlan(deps as never, admin, before.id, input({ apiAccess: false }));
    expect(plans.all.get(before.id)?.apiAccess).toBe(false);
  });

  it('replaces an edited price with a new one, archives the old one after the plan is stored, and says so', async () => {
    const { deps, payments, plans, audit } = setup();
    const before = await createPlan(deps as never, admin, input());
    const after = await updatePlan(deps as never, admin, before.id, input({ monthlyPrice: 12 }));
    expect(after.monthlyPriceId).not.toBe(before.monthlyPriceId);
    expect(after.yearlyPriceId).toBe(before.yearlyPriceId);
    expect(plans.all.get(before.id)?.monthlyPriceId).toBe(after.monthlyPriceId);
    expect(payments.prices.get(before.monthlyPriceId ?? '')?.active).toBe(false);
    expect(payments.prices.get(after.monthlyPriceId ?? '')).toMatchObject({ unitAmount: 1200, active: true });
    expect(payments.portal[0]?.priceIds).toEqual([after.monthlyPriceId, after.yearlyPriceId]);
    expect(audit.at(-1)?.summary).toBe(`Updated plan Basic, new prices: monthly $12.00`);
  });

  it('refuses an active paid plan without Stripe, and stores nothing; an inactive one needs no Stripe', async () => {
    const { deps, payments, plans } = setup();
    payments.failNext(new PaymentsError('not-configured', 'No Stripe secret key is configured'));
    const refused = await createPlan(deps as never, admin, input()).catch((e: unknown) => e);
    expect(refused).toMatchObject({ kind: 'validation', message: billingMessages.stripeNeededForPaidPlan });
    expect(plans.all.size).toBe(1);

    const notConfigured = () => {
      throw new PaymentsError('not-configured', 'No Stripe secret key is configured');
    };
    payments.syncPortal = async () => notConfigured();
    payments.findPrice = async () => notConfigured();
    const draft = await createPlan(deps as never, admin, input({ isActive: false }));
    expect(plans.all.get(draft.id)).toMatchObject({ isActive: false, monthlyPriceId: null });
  });

  it('stores nothing when Stripe fails while the prices are made', async () => {
    const { deps, payments, plans } = setup();
    const before = await createPlan(deps as never, admin, input());
    payments.failNext(new PaymentsError('unavailable', 'connect ECONNREFUSED'));
    const failed = await updatePlan(deps as never, admin, before.id, input({ monthlyPrice: 12 })).catch(
      (e: unknown) => e,
    );
    expect(failed).toMatchObject({ kind: 'unavailable', message: billingMessages.planPricesUnavailable });
    expect(plans.all.get(before.id)).toEqual(before);
  });

  it('leaves the portal with the stored prices when two saves of one plan overlap', async () => {
    const { deps, payments, plans } = setup();
    const plan = await createPlan(deps as never, admin, input());
    // Both saves make their prices and set the portal; the $12 save stores first, the $11 one last.
    let secondStored: () => void = () => {};
    const afterSecond = new Promise<void>((resolve) => {
      secondStored = resolve;
    });
    const put = deps.plans.put;
    deps.plans.put = async (next) => {
      if (next.monthlyPrice === 11) await afterSecond;
      await put(next);
      if (next.monthlyPrice === 12) secondStored();
    };
    await Promise.all([
      updatePlan(deps as never, admin, plan.id, input({ monthlyPrice: 11 })),
      updatePlan(deps as never, admin, plan.id, input({ monthlyPrice: 12 })),
    ]);
    const stored = plans.all.get(plan.id);
    expect(stored?.monthlyPrice).toBe(11);
    expect(payments.portal[0]?.priceIds).toEqual([stored?.monthlyPriceId, stored?.yearlyPriceId]);
  });

  it('takes a deleted plan out of the portal', async () => {
    const { deps, payments } = setup();
    const plan = await createPlan(deps as never, admin, input());
    expect(payments.portal).toHaveLength(1);
    await deletePlan(deps as never, admin, plan.id);
    expect(payments.portal).toEqual([]);
  });
});

describe('the pricing page follows the plans', () => {
  it('shows a created plan, its new price once edited, and no more once deleted', async () => {
    const { deps, plans, pricingPage } = setup();
    const shows = async () => fillPricingPage(BUILT_PRICING_PAGE, await plans.listBySortOrder());

    const plan = await createPlan(deps as never, admin, input());
    expect(pricingPage.html).toBe(await shows());
    expect(pricingPage.html).toContain('Basic');

    await updatePlan(deps as never, admin, plan.id, input({ monthlyPrice: 12 }));
    expect(pricingPage.html).toBe(await shows());
    expect(pricingPage.html).toContain('$12');

    await deletePlan(deps as never, admin, plan.id);
    expect(pricingPage.html).toBe(await shows());
    expect(pricingPage.html).not.toContain('Basic');
  });

  it('keeps a change whose pricing page could not be written, and says so in the log', async () => {
    const { deps, plans, warnings } = setup({ failPricingPage: true });
    const plan = await createPlan(deps as never, admin, input());
    expect(plans.all.get(plan.id)).toBeDefined();
    expect(warnings).toEqual(['pricing page not brought in line with the plans']);
  });
});

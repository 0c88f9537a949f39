import { describe, expect, it } from 'vitest';
import { aBasicPlan, aUser } from '../../testing/fixtures';
import { toCurrentUser } from './user';

// A Tuesday; the week started on Monday 2026-11-23.
const NOW = new Date('2026-11-24T10:00:00.000Z');
const basic = aBasicPlan({ id: 'basic' });

describe('toCurrentUser', () => {
  it("counts this week's generations only, and says when the count resets", () => {
    const thisWeek = aUser({ generationsUsedThisMonth: 3, quotaWindowStart: '2026-11-23T00:00:00.000Z' });
    const lastWeek = aUser({ generationsUsedThisMonth: 5, quotaWindowStart: '2026-11-16T00:00:00.000Z' });
    expect(toCurrentUser(thisWeek, undefined, NOW)).toMatchObject({
      generationsUsedThisMonth: 3,
      quotaResetsAt: '2026-11-30T00:00:00.000Z',
    });
    expect(toCurrentUser(lastWeek, undefined, NOW).generationsUsedThisMonth).toBe(0);
  });

  it('names the plan and gives what it allows, as generation and downloads enforce it', () => {
    const active = aUser({ planStatus: 'active', subscriptionPlanId: 'basic', billingCycle: 'monthly' });
    expect(toCurrentUser(active, basic, NOW)).toMatchObject({
      planName: 'Basic',
      billingCycle: 'monthly',
      entitlements: { paid: true, weeklyLimit: 30, canPrivate: true, canDownload: true },
    });
  });

  it('gives free limits to an inactive subscriber, and paid ones to a cancelled one until the period ends', () => {
    const inactive = aUser({ planStatus: 'inactive', subscriptionPlanId: 'basic' });
    expect(toCurrentUser(inactive, basic, NOW)).toMatchObject({
      planName: 'Basic',
      entitlements: { paid: false, weeklyLimit: 5, canPrivate: false, canDownload: false },
    });
    const cancelled = aUser({
      planStatus: 'cancelled',
      subscriptionPlanId: 'basic',
      planEndDate: '2026-12-01T00:00:00.000Z',
    });
    expect(toCurrentUser(cancelled, basic, NOW).entitlements.paid).toBe(true);
    expect(toCurrentUser(cancelled, basic, new Date('2026-12-02T00:00:00.000Z')).entitlements.paid).toBe(
      false,
    );
  });

  const grantedBasic = { planStatus: 'active', subscriptionPlanId: 'basic' } as const;

  it('says when a plan was granted by the site and whether Stripe knows the user, for Manage Billing', () => {
    const granted = aUser({ planStatus: 'active', subscriptionPlanId: 'basic' });
    expect(toCurrentUser(granted, basic, NOW)).toMatchObject({
      planGrantedBySite: true,
      hasBillingAccount: false,
      entitlements: { paid: true, weeklyLimit: 30 },
    });
    const paying = aUser({
      planStatus: 'active',
      subscriptionPlanId: 'basic',
      stripeCustomerId: 'cus_1',
      stripeSubscriptionId: 'sub_1',
    });
    expect(toCurrentUser(paying, basic, NOW)).toMatchObject({
      planGrantedBySite: false,
      hasBillingAccount: true,
    });
    const ended = aUser({ planStatus: 'expired', stripeCustomerId: 'cus_1' });
    expect(toCurrentUser(ended, undefined, NOW)).toMatchObject({
      planGrantedBySite: false,
      hasBillingAccount: true,
    });
    expect(toCurrentUser(aUser(), undefined, NOW)).toMatchObject({
      planGrantedBySite: false,
      hasBillingAccount: false,
    });
  });

  it('has billing history once Stripe held a subscription, not for a customer left by an unpaid Checkout', () => {
    const abandoned = aUser({ ...grantedBasic, stripeCustomerId: 'cus_1', billingObservedAt: null });
    expect(toCurrentUser(abandoned, basic, NOW)).toMatchObject({
      hasBillingAccount: true,
      hasBillingHistory: false,
    });
    const paidBefore = aUser({
      ...grantedBasic,
      stripeCustomerId: 'cus_1',
      billingObservedAt: '2026-10-01T00:00:00.000Z',
    });
    expect(toCurrentUser(paidBefore, basic, NOW)).toMatchObject({
      planGrantedBySite: true,
      hasBillingHistory: true,
    });
  });

  it('names no plan on the free plan, and keeps server-only fields to the server', () => {
    const view = toCurrentUser(aUser({ stripeCustomerId: 'cus_1', billingObservedAt: 'x' }), undefined, NOW);
    expect(view.planName).toBeNull();
    expect(view).not.toHaveProperty('stripeCustomerId');
    expect(view).not.toHaveProperty('billingObservedAt');
    expect(view).not.toHaveProperty('sessionsValidAfter');
  });
});

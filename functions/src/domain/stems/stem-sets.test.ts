import { describe, expect, it } from 'vitest';
import { aBasicPlan, aPlan } from '../../testing/fixtures';
import type { User } from '../accounts/user';
import { fullEntitlementsFor, stemEntitlements } from './stem-sets';

const NOW = new Date('2026-11-18T12:00:00.000Z');
const free = aPlan();
const basic = aBasicPlan({ stemsSix: true });
const premium = aBasicPlan({ id: 'plan-premium', name: 'Premium', monthlyPrice: 19, stemsSix: true });
const retired = aBasicPlan({ id: 'plan-old', name: 'Studio', stemsSix: true, isActive: false });
const seeded = [free, basic, premium, retired];
const freeUser: Pick<User, 'planStatus' | 'planEndDate'> = { planStatus: 'free', planEndDate: null };
const subscriber: Pick<User, 'planStatus' | 'planEndDate'> = { planStatus: 'active', planEndDate: null };

describe('stemEntitlements', () => {
  it("gives the Free plan's sets to a user without a plan in force, and names the active plans of each set", () => {
    expect(stemEntitlements(freeUser, undefined, seeded, NOW)).toEqual({
      sets: ['4'],
      plans: { '4': ['Free', 'Basic', 'Premium'], '6': ['Basic', 'Premium'] },
    });
  });

  it("gives a subscriber their plan's sets while it is in force, and the Free plan's after", () => {
    expect(stemEntitlements(subscriber, basic, seeded, NOW).sets).toEqual(['4', '6']);
    const lapsed = { planStatus: 'cancelled' as const, planEndDate: '2026-11-01T00:00:00.000Z' };
    expect(stemEntitlements(lapsed, basic, seeded, NOW).sets).toEqual(['4']);
  });

  it('follows the stored settings: a Free plan without stems allows none, one with 6 allows both', () => {
    const noStems = aPlan({ stemsFour: false, stemsSix: false });
    expect(stemEntitlements(freeUser, undefined, [noStems, basic], NOW)).toEqual({
      sets: [],
      plans: { '4': ['Basic'], '6': ['Basic'] },
    });
    const generous = aPlan({ stemsSix: true });
    expect(stemEntitlements(freeUser, undefined, [generous], NOW).sets).toEqual(['4', '6']);
  });

  it('with no plan stored, 4 stems (as a plan stored before the settings reads)', () => {
    expect(stemEntitlements(freeUser, undefined, [], NOW)).toEqual({
      sets: ['4'],
      plans: { '4': [], '6': [] },
    });
  });
});

describe('fullEntitlementsFor', () => {
  it("is the plan's entitlements with its stems", () => {
    expect(fullEntitlementsFor(subscriber, premium, seeded, NOW)).toEqual({
      paid: true,
      weeklyLimit: premium.maxGenerations,
      canPrivate: true,
      canDownload: true,
      stems: { sets: ['4', '6'], plans: { '4': ['Free', 'Basic', 'Premium'], '6': ['Basic', 'Premium'] } },
    });
  });
});

import type { AuditEntry } from '@tunesmith/shared/admin';
import { describe, expect, it } from 'vitest';
import { aBasicPlan, aGeneration, aPlan, aUser } from '../../testing/fixtures';
import { inMemoryPlans, inMemorySettings } from '../../testing/in-memory';
import { fakeClock, fakeIdentityProvider, inMemoryUsers } from '../../testing/in-memory-accounts';
import { aSubscription, fakePayments, inMemoryBillingAccounts } from '../../testing/in-memory-billing';
import { inMemoryGenerationStore } from '../../testing/in-memory-generations';
import { inMemoryPricingPage } from '../../testing/in-memory-pricing-page';
import { inMemorySharePages, shareDeps } from '../../testing/in-memory-share-pages';
import { PaymentsError } from '../billing/ports';
import { entitlementsFor } from '../generations/entitlements';
import { fullEntitlementsFor } from '../stems/stem-sets';
import { zeroDay, zeroTotals } from './counters';
import type { AdminDeps } from './ports';
import { assignPlan, deleteUser, toAdminUserView, updateUser } from './users';

const admin = { username: 'ops' };

function setup() {
  const clock = fakeClock('2026-11-25T10:00:00.000Z');
  const users = inMemoryUsers();
  const plans = inMemoryPlans([
    aPlan({ id: 'free', name: 'Free', maxGenerations: 5 }),
    aBasicPlan({ id: 'basic' }),
    aPlan({ id: 'premium', name: 'Premium', maxGenerations: 100, monthlyPrice: 20 }),
    aPlan({ id: 'old', name: 'Old', monthlyPrice: 3, isActive: false }),
  ]);
  const generations = inMemoryGenerationStore();
  const steps: string[] = [];
  const audit: AuditEntry[] = [];
  const identity = fakeIdentityProvider(clock);
  const cancelled: string[] = [];
  const stripe = fakePayments();
  let id = 0;
  const deps: AdminDeps = {
    counters: { totals: async () => zeroTotals(), day: async () => zeroDay() },
    audit: { record: async (entry) => void audit.push(entry), recent: async () => audit },
    clock,
    newId: () => `id-${++id}`,
    users: {
      ...users,
      rename: async (user, names, updatedAt) => users.update(user.id, { ...names, updatedAt } as never),
      delete: async (user) => {
        steps.push('profile');
        await users.delete(user);
      },
    },
    directory: {
      list: async () => ({ items: [] }),
      search: async () => ({ items: [] }),
      countOnPlan: async () => 0,
    },
    identity: {
      ...identity,
      deleteUser: async (subject) => {
        steps.push('identity');
        await identity.deleteUser(subject);
      },
    },
    accounts: inMemoryBillingAccounts(users),
    payments: {
      ...stripe,
      cancelNow: async (subscriptionId) => {
        steps.push('subscription');
        cancelled.push(subscriptionId);
        throw new PaymentsError('missing', 'already gone');
      },
    },
    unlinkCustomer: async () => void steps.push('customer'),
    exports: { removeAll: async (userId) => void steps.push(`exports ${userId}`) },
    apiKeys: { removeAll: async (userId) => void steps.push(`api keys ${userId}`) },
    webhooks: { removeAll: async (userId) => void steps.push(`webhooks ${userId}`) },
    community: {
      likesAndPlays: { removeUser: async (userId) => void steps.push(`likes and plays ${userId}`) },
      playlists: { removeUser: async (userId) => void steps.push(`playlists ${userId}`) },
      creators: { removeUser: async (userId) => void steps.push(`creators ${userId}`) },
    },
    plans: { ...plans, delete: async (planId) => void plans.all.delete(planId) },
    generations,
    sharePages: shareDeps(generations, inMemorySharePages()),
    pricingPage: inMemoryPricingPage(),
    tracks: { list: async () => ({ items: [] }) },
    uploads: {
      delete: async (key) => void steps.push(`upload ${key}`),
      deletePrefix: async (prefix) => {
        steps.push(`sweep ${prefix}`);
        return 0;
      },
    },
    trackAudio: {
      remove: async (stored) => void steps.push(`audio ${stored}`),
      downloadLink: async (stored) => stored,
      deletePrefix: async (prefix) => {
        steps.push(`sweep ${prefix}`);
        return 0;
      },
    },
    audioLinks: async (stored) => stored,
    settings: inMemorySettings(),
    storedSettings: inMemorySettings(),
    stripeKeyCheck: { checkSecretKey: async () => 'ok' },
  };
  return { stripe, deps, users, plans, generations, steps, audit, cancelled, clock };
}

describe('toAdminUserView', () => {
  it("gives what the plan allows by the profile's rule: an unpaid subscriber keeps the plan's name with free limits", async () => {
    const { plans, clock } = setup();
    const byId = new Map([...plans.all.values()].map((plan) => [plan.id, plan]));
    const pastDue = aUser({
      planStatus: 'inactive',
      subscriptionPlanId: 'basic',
      stripeSubscriptionId: 'sub_1',
    });

    const view = toAdminUserView(pastDue, byId, clock.now());

    expect(view).toMatchObject({
      subscriptionPlan: { name: 'Basic', maxGenerations: 30 },
      hasStripeSubscription: true,
      entitlements: { paid: false, weeklyLimit: 5, canDownload: false },
    });
    expect(view.entitlements).toEqual(
      fullEntitlementsFor(pastDue, byId.get('basic'), [...plans.all.values()], clock.now()),
    );
    const granted = aUser({ planStatus: 'active', subscriptionPlanId: 'premium' });
    expect(toAdminUserView(granted, byId, clock.now())).toMatchObject({
      hasStripeSubscription: false,
      entitlements: { paid: true, weeklyLimit: 100 },
    });
  });

  it('says a user is suspended only while they are', () => {
    const { clock } = setup();
    expect(toAdminUserView(aUser({ suspended: true }), new Map(), clock.now()).suspended).toBe(true);
    expect(toAdminUserView(aUser({ suspended: false }), new Map(), clock.now())).not.toHaveProperty(
      'suspended',
    );
  });
});

describe('assignPlan', () => {
  it('gives a paid plan at once and records who did it', async () => {
    const { deps, users, audit, plans, clock } = setup();
    await users.create(aUser({ id: 'u1', email: 'u1@example.com' }));

    const view = await assignPlan(deps, admin, 'u1', { planId: 'premium', status: 'active' });

    expect(view).toMatchObject({
      planStatus: 'active',
      subscriptionPlan: { name: 'Premium', maxGenerations: 100 },
    });
    const stored = users.all.get('u1');
    expect(stored).toMatchObject({ planStartDate: clock.now().toISOString(), planEndDate: null });
    expect(entitlementsFor(stored as never, plans.all.get('premium'), clock.now()).weeklyLimit).toBe(100);
    expect(audit).toMatchObject([{ actor: 'ops', action: 'user.plan', target: 'u1' }]);
  });

  it('keeps a future end for Cancelled, ends Expired now, and clears everything for Free', async () => {
    const { deps, users, clock } = setup();
    const future = '2026-12-20T00:00:00.000Z';
    await users.create(
      aUser({
        id: 'u1',
        email: 'u1@example.com',
        planStatus: 'active',
        subscriptionPlanId: 'basic',
        planEndDate: future,
      }),
    );
    await assignPlan(deps, admin, 'u1', { planId: 'basic', status: 'cancelled' });
    expect(users.all.get('u1')).toMatchObject({ planStatus: 'cancelled', planEndDate: future });
    await assignPlan(deps, admin, 'u1', { planId: 'basic', status: 'expired' });
    expect(users.all.get('u1')).toMatchObject({
      planStatus: 'expired',
      planEndDate: clock.now().toISOString(),
    });
    await assignPlan(deps, admin, 'u1', { planId: null, status: 'free' });
    expect(users.all.get('u1')).toMatchObject({
      planStatus: 'free',
      subscriptionPlanId: null,
      planStartDate: null,
      planEndDate: null,
    });
  });

  it('refuses inactive plans, unknown plans and users whose plan follows Stripe', async () => {
    const { deps, users } = setup();
    await users.create(aUser({ id: 'u1', email: 'u1@example.com' }));
    await users.create(
      aUser({
        id: 'u2',
        email: 'u2@example.com',
        planStatus: 'active',
        stripeSubscriptionId: 'sub_1',
        subscriptionPlanId: 'basic',
      }),
    );
    await expect(assignPlan(deps, admin, 'u1', { planId: 'old', status: 'active' })).rejects.toThrow(
      'Only active plans can be assigned.',
    );
    await expect(assignPlan(deps, admin, 'u1', { planId: 'nope', status: 'active' })).rejects.toThrow(
      'Plan not found',
    );
    await expect(assignPlan(deps, admin, 'u2', { planId: 'premium', status: 'active' })).rejects.toThrow(
      /pays through Stripe/,
    );
    expect(users.all.get('u2')?.subscriptionPlanId).toBe('basic');
  });

  it("refuses a grant when Stripe holds a live subscription the user's record does not show yet", async () => {
    const { deps, users, stripe } = setup();
    await users.create(aUser({ id: 'u1', email: 'u1@example.com', stripeCustomerId: 'cus_1' }));
    stripe.setSubscription(aSubscription({ customerId: 'cus_1', status: 'active' }));
    await expect(assignPlan(deps, admin, 'u1', { planId: 'premium', status: 'active' })).rejects.toThrow(
      /pays through Stripe/,
    );
    expect(users.all.get('u1')).toMatchObject({ planStatus: 'free', subscriptionPlanId: null });
    // Putting them on Free needs no such question.
    await expect(assignPlan(deps, admin, 'u1', { planId: null, status: 'free' })).resolves.toMatchObject({
      planStatus: 'free',
    });
  });

  it("closes the user's open Checkout page when it grants a plan, and not when nothing is granted", async () => {
    const { deps, users, stripe } = setup();
    await users.create(aUser({ id: 'u1', email: 'u1@example.com', stripeCustomerId: 'cus_1' }));
    const openPage = async () => {
      const page = await stripe.createCheckoutSession({
        customerId: 'cus_1',
        userId: 'u1',
        priceId: 'price_basic_monthly',
        planId: 'basic',
        cycle: 'monthly',
        successUrl: 'https://x.test/ok',
        cancelUrl: 'https://x.test/no',
      });
      await deps.accounts.swapCheckoutSession('u1', page.id);
      return page.id;
    };

    const before = await openPage();
    await assignPlan(deps, admin, 'u1', { planId: null, status: 'free' });
    await assignPlan(deps, admin, 'u1', { planId: 'premium', status: 'expired' });
    expect(stripe.checkouts.find((page) => page.id === before)?.status).toBe('open');

    await assignPlan(deps, admin, 'u1', { planId: 'premium', status: 'active' });
    expect(stripe.checkouts.find((page) => page.id === before)?.status).toBe('expired');
  });

  it('keeps the grant when the open page cannot be closed, and says so in the log', async () => {
    const { deps, users } = setup();
    const warnings: string[] = [];
    await users.create(aUser({ id: 'u1', email: 'u1@example.com' }));
    await deps.accounts.swapCheckoutSession('u1', 'cs_elsewhere');
    deps.payments.expireCheckoutSession = async () => {
      throw new PaymentsError('unavailable', 'connect ECONNREFUSED');
    };
    const view = await assignPlan(
      { ...deps, log: { warn: (message) => warnings.push(message) } },
      admin,
      'u1',
      {
        planId: 'premium',
        status: 'active',
      },
    );
    expect(view).toMatchObject({ planStatus: 'active', subscriptionPlanId: 'premium' });
    expect(warnings).toEqual(['open Checkout page not closed after a grant']);
  });
});

describe('updateUser', () => {
  it('writes only what changed and records nothing when nothing did', async () => {
    const { deps, users, audit } = setup();
    await users.create(aUser({ id: 'u1', email: 'u1@example.com', firstName: 'Ada', lastName: 'L' }));

    await updateUser(deps, admin, 'u1', { firstName: 'Ada', lastName: 'L' });
    expect(audit).toEqual([]);

    const view = await updateUser(deps, admin, 'u1', { lastName: 'Lovelace', emailVerified: false });
    expect(view).toMatchObject({ firstName: 'Ada', lastName: 'Lovelace', emailVerified: false });
    expect(audit.at(-1)?.summary).toBe('Updated u1@example.com: name, unverified');
    await expect(updateUser(deps, admin, 'u1', {})).rejects.toThrow('No changes made');
  });
});

describe('deleteUser', () => {
  it('ends sessions and the subscription first, removes tracks and files, and the profile last', async () => {
    const { deps, users, generations, steps, cancelled, clock, stripe, audit } = setup();
    // Stripe also holds a second live subscription the record does not name (a duplicate): it ends too.
    stripe.setSubscription(aSubscription({ id: 'sub_9', customerId: 'cus_9' }));
    stripe.setSubscription(aSubscription({ id: 'sub_10', customerId: 'cus_9' }));
    stripe.setSubscription(aSubscription({ id: 'sub_old', customerId: 'cus_9', status: 'canceled' }));
    await users.create(
      aUser({
        id: 'u1',
        email: 'u1@example.com',
        planStatus: 'active',
        subscriptionPlanId: 'basic',
        stripeSubscriptionId: 'sub_9',
        stripeCustomerId: 'cus_9',
      }),
    );
    await generations.create(
      aGeneration({
        id: 't1',
        userId: 'u1',
        audioUrl: 's3://tracks/tracks/u1/t1.wav',
        streamAudioUrl: 's3://tracks/tracks/t1.opus',
        peaksUrl: 's3://tracks/tracks/t1.peaks.json',
      }),
    );
    await generations.create(
      aGeneration({ id: 't2', userId: 'u1', audioUrl: null, inputAudioUrl: '/objects/uploads/u1/song.mp3' }),
    );
    await generations.create(aGeneration({ id: 'other', userId: 'u2' }));
    const sessionsBefore = users.all.get('u1')?.sessionsValidAfter ?? 0;

    await deleteUser(deps, admin, 'u1', {
      afterTrack: async () => {
        // Sessions were cut before any track went.
        expect(users.all.get('u1')?.sessionsValidAfter).toBeGreaterThan(sessionsBefore);
        expect(users.all.get('u1')?.sessionsValidAfter).toBeGreaterThan(clock.now().getTime() / 1000);
      },
    });

    expect(cancelled).toEqual(['sub_9', 'sub_10']);
    expect(steps.slice(0, 2)).toEqual(['subscription', 'subscription']);
    expect(steps).toContain('audio s3://tracks/tracks/u1/t1.wav');
    expect(steps).toContain('audio s3://tracks/tracks/t1.opus');
    expect(steps).toContain('audio s3://tracks/tracks/t1.peaks.json');
    expect(steps).toContain('upload uploads/u1/song.mp3');
    expect(steps).toEqual(
      expect.arrayContaining(['sweep uploads/u1/', 'sweep incoming/u1/', 'sweep tracks/u1/']),
    );
    // The data, then the identity, and the profile (with its email claim) last.
    expect(steps.slice(-9)).toEqual([
      'exports u1',
      'api keys u1',
      'webhooks u1',
      'customer',
      'likes and plays u1',
      'playlists u1',
      'creators u1',
      'identity',
      'profile',
    ]);
    expect([...generations.all.keys()]).toEqual(['other']);
    expect(users.all.has('u1')).toBe(false);
    expect(audit).toMatchObject([
      { actor: 'ops', action: 'user.delete', target: 'u1', summary: 'Deleted u1@example.com and their data' },
    ]);
  });

  it('answers not found for a user who does not exist (or is already deleted)', async () => {
    const { deps, audit } = setup();

    await expect(deleteUser(deps, admin, 'nobody')).rejects.toThrow('User not found');
    expect(audit).toEqual([]);
  });
});

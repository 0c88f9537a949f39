import { describe, expect, it } from 'vitest';
import { aSubscription } from '../../testing/in-memory-billing';
import {
  type BillingState,
  currentOf,
  duplicatesOf,
  hasRunningSubscription,
  type LifecycleEvent,
  lifecycleEventOf,
  nextBilling,
  reconcile,
  type SubscriptionSnapshot,
} from './subscription';

// Periods of a monthly Basic subscription `sub_1`: the first, the renewed one, and a yearly one after a change.
const P1 = { start: '2026-11-01T00:00:00.000Z', end: '2026-12-01T00:00:00.000Z' };
const P2 = { start: '2026-12-01T00:00:00.000Z', end: '2027-01-01T00:00:00.000Z' };
const Y1 = { start: '2026-11-20T00:00:00.000Z', end: '2027-11-20T00:00:00.000Z' };

type Billing = Omit<BillingState, 'billingObservedAt'>;

const states = {
  free: {
    planStatus: 'free',
    subscriptionPlanId: null,
    stripeSubscriptionId: null,
    billingCycle: null,
    planStartDate: null,
    planEndDate: null,
  },
  active: {
    planStatus: 'active',
    subscriptionPlanId: 'basic',
    stripeSubscriptionId: 'sub_1',
    billingCycle: 'monthly',
    planStartDate: P1.start,
    planEndDate: P1.end,
  },
  cancelled: {
    planStatus: 'cancelled',
    subscriptionPlanId: 'basic',
    stripeSubscriptionId: 'sub_1',
    billingCycle: 'monthly',
    planStartDate: P1.start,
    planEndDate: P1.end,
  },
  // A renewal failed: Stripe moved the period on and is retrying the payment.
  inactive: {
    planStatus: 'inactive',
    subscriptionPlanId: 'basic',
    stripeSubscriptionId: 'sub_1',
    billingCycle: 'monthly',
    planStartDate: P2.start,
    planEndDate: P2.end,
  },
  expired: {
    planStatus: 'expired',
    subscriptionPlanId: null,
    stripeSubscriptionId: null,
    billingCycle: null,
    planStartDate: P1.start,
    planEndDate: P1.end,
  },
} satisfies Record<string, Billing>;
type StateName = keyof typeof states;

const basic = (period: { start: string; end: string }, subscriptionId = 'sub_1') => ({
  subscriptionId,
  planId: 'basic',
  cycle: 'monthly' as const,
  periodStart: period.start,
  periodEnd: period.end,
});

const events = {
  /** The first payment (or a payment recovered within the same period). */
  paid: { type: 'paid', subscription: basic(P1) },
  /** The period moved on and was paid. */
  renewed: { type: 'paid', subscription: basic(P2) },
  /** Changed to Premium yearly: a new period starts at once. */
  changed: {
    type: 'paid',
    subscription: {
      subscriptionId: 'sub_1',
      planId: 'premium',
      cycle: 'yearly',
      periodStart: Y1.start,
      periodEnd: Y1.end,
    },
  },
  cancelScheduled: { type: 'cancel-scheduled', subscription: basic(P1) },
  paymentFailed: { type: 'payment-failed', subscription: basic(P2) },
  ended: { type: 'ended', subscription: { subscriptionId: 'sub_1', periodStart: P1.start, endedAt: P1.end } },
  /** An older subscription of the same customer ending late. */
  otherEnded: {
    type: 'ended',
    subscription: {
      subscriptionId: 'sub_0',
      periodStart: '2026-09-01T00:00:00.000Z',
      endedAt: '2026-10-01T00:00:00.000Z',
    },
  },
  /** A new subscription (after the old one ended). */
  newSubscription: { type: 'paid', subscription: basic(P2, 'sub_2') },
} satisfies Record<string, LifecycleEvent>;
type EventName = keyof typeof events;

const activeBasic = (period: { start: string; end: string }, subscriptionId = 'sub_1'): Billing => ({
  planStatus: 'active',
  subscriptionPlanId: 'basic',
  stripeSubscriptionId: subscriptionId,
  billingCycle: 'monthly',
  planStartDate: period.start,
  planEndDate: period.end,
});
const premiumYearly: Billing = {
  planStatus: 'active',
  subscriptionPlanId: 'premium',
  stripeSubscriptionId: 'sub_1',
  billingCycle: 'yearly',
  planStartDate: Y1.start,
  planEndDate: Y1.end,
};
const cancelledBasic: Billing = { ...activeBasic(P1), planStatus: 'cancelled' };
const inactiveBasic: Billing = { ...activeBasic(P2), planStatus: 'inactive' };
const expiredAfterP1: Billing = states.expired;
const expiredOld: Billing = {
  ...states.expired,
  planStartDate: '2026-09-01T00:00:00.000Z',
  planEndDate: '2026-10-01T00:00:00.000Z',
};

/** Every event in every state, and the state it leads to. */
const table: [StateName, EventName, Billing][] = [
  ['free', 'paid', activeBasic(P1)],
  ['free', 'renewed', activeBasic(P2)],
  ['free', 'changed', premiumYearly],
  ['free', 'cancelScheduled', cancelledBasic],
  ['free', 'paymentFailed', inactiveBasic],
  ['free', 'ended', expiredAfterP1],
  ['free', 'otherEnded', expiredOld],
  ['free', 'newSubscription', activeBasic(P2, 'sub_2')],

  ['active', 'paid', activeBasic(P1)],
  ['active', 'renewed', activeBasic(P2)],
  ['active', 'changed', premiumYearly],
  ['active', 'cancelScheduled', cancelledBasic],
  ['active', 'paymentFailed', inactiveBasic],
  ['active', 'ended', expiredAfterP1],
  ['active', 'otherEnded', states.active],
  ['active', 'newSubscription', activeBasic(P2, 'sub_2')],

  ['cancelled', 'paid', activeBasic(P1)], // resumed before the end
  ['cancelled', 'renewed', activeBasic(P2)],
  ['cancelled', 'changed', premiumYearly],
  ['cancelled', 'cancelScheduled', cancelledBasic],
  ['cancelled', 'paymentFailed', inactiveBasic],
  ['cancelled', 'ended', expiredAfterP1], // the period is over
  ['cancelled', 'otherEnded', states.cancelled],
  ['cancelled', 'newSubscription', activeBasic(P2, 'sub_2')],

  ['inactive', 'paid', activeBasic(P1)],
  ['inactive', 'renewed', activeBasic(P2)], // paid again
  ['inactive', 'changed', premiumYearly],
  ['inactive', 'cancelScheduled', cancelledBasic],
  ['inactive', 'paymentFailed', inactiveBasic],
  ['inactive', 'ended', expiredAfterP1], // the retries ran out
  ['inactive', 'otherEnded', states.inactive],
  ['inactive', 'newSubscription', activeBasic(P2, 'sub_2')],

  ['expired', 'paid', activeBasic(P1)],
  ['expired', 'renewed', activeBasic(P2)],
  ['expired', 'changed', premiumYearly],
  ['expired', 'cancelScheduled', cancelledBasic],
  ['expired', 'paymentFailed', inactiveBasic],
  ['expired', 'ended', expiredAfterP1],
  ['expired', 'otherEnded', expiredOld],
  ['expired', 'newSubscription', activeBasic(P2, 'sub_2')], // subscribed again
];

describe('nextBilling: the subscription lifecycle', () => {
  it('covers every event in every state', () => {
    const covered = new Set(table.map(([state, event]) => `${state}/${event}`));
    for (const state of Object.keys(states)) {
      for (const event of Object.keys(events))
        expect(covered, `${state}/${event}`).toContain(`${state}/${event}`);
    }
  });

  it.each(table)('%s + %s', (state, event, expected) => {
    expect(nextBilling(states[state], events[event])).toEqual(expected);
  });
});

describe('lifecycleEventOf: what Stripe says, in lifecycle events', () => {
  const plan = { planId: 'basic', cycle: 'monthly' as const };

  it.each([
    ['active', false, 'paid'],
    ['trialing', false, 'paid'],
    ['active', true, 'cancel-scheduled'],
    ['past_due', false, 'payment-failed'],
    ['unpaid', false, 'payment-failed'],
    ['incomplete', false, 'payment-failed'],
    ['paused', false, 'payment-failed'],
    ['past_due', true, 'payment-failed'],
    ['canceled', false, 'ended'],
    ['incomplete_expired', false, 'ended'],
  ] as const)('%s (cancel scheduled: %s) is %s', (status, cancelScheduled, type) => {
    expect(lifecycleEventOf(aSubscription({ status, cancelScheduled }), plan)?.type).toBe(type);
  });

  it('carries the plan, cycle and current period of a running subscription', () => {
    expect(lifecycleEventOf(aSubscription({ id: 'sub_9' }), { planId: 'premium', cycle: 'yearly' })).toEqual({
      type: 'paid',
      subscription: {
        subscriptionId: 'sub_9',
        planId: 'premium',
        cycle: 'yearly',
        periodStart: P1.start,
        periodEnd: P1.end,
      },
    });
  });

  it('ends at the end time Stripe reports, else at the end of the period', () => {
    const ended = lifecycleEventOf(
      aSubscription({ status: 'canceled', endedAt: '2026-11-15T00:00:00.000Z' }),
      plan,
    );
    expect(ended).toMatchObject({ subscription: { endedAt: '2026-11-15T00:00:00.000Z' } });
    const unstamped = lifecycleEventOf(aSubscription({ status: 'canceled' }), undefined);
    expect(unstamped).toMatchObject({ type: 'ended', subscription: { endedAt: P1.end } });
  });

  it('grants nothing for a running subscription whose price belongs to no plan', () => {
    expect(lifecycleEventOf(aSubscription(), undefined)).toBeUndefined();
  });
});

describe('reconcile: readings in any order', () => {
  const at = (minute: number) => `2026-11-24T10:${String(minute).padStart(2, '0')}:00.000Z`;
  const start: BillingState = { ...states.free, billingObservedAt: null };

  it('stamps the state with the reading time', () => {
    expect(reconcile(start, events.paid, at(1))).toEqual({ ...activeBasic(P1), billingObservedAt: at(1) });
  });

  it('never lets an older reading overwrite a newer one', () => {
    const cancelled = reconcile(start, events.cancelScheduled, at(5)) as BillingState;
    expect(reconcile(cancelled, events.paid, at(4))).toBeUndefined();
  });

  it('applies a reading of the same time again without change (repeats are harmless)', () => {
    const once = reconcile(start, events.renewed, at(2)) as BillingState;
    expect(reconcile(once, events.renewed, at(2))).toEqual(once);
  });

  it('ends in the state of the latest reading, whatever order they come in', () => {
    const readings: [LifecycleEvent, string][] = [
      [events.paid, at(1)],
      [events.renewed, at(2)],
      [events.changed, at(3)],
      [events.cancelScheduled, at(4)],
      [
        { type: 'ended', subscription: { subscriptionId: 'sub_1', periodStart: Y1.start, endedAt: Y1.end } },
        at(5),
      ],
    ];
    const apply = (order: [LifecycleEvent, string][]) =>
      order.reduce((state, [event, time]) => reconcile(state, event, time) ?? state, start);
    const expected = apply(readings);
    expect(expected).toEqual({
      ...states.expired,
      planStartDate: Y1.start,
      planEndDate: Y1.end,
      billingObservedAt: at(5),
    });
    expect(apply([...readings].reverse())).toEqual(expected);
    expect(
      apply([readings[2], readings[4], readings[0], readings[3], readings[1]] as typeof readings),
    ).toEqual(expected);
    expect(apply(readings.flatMap((r) => [r, r, r]))).toEqual(expected);
  });
});

describe('hasRunningSubscription', () => {
  it.each([
    ['active', 'sub_1', true],
    ['cancelled', 'sub_1', true],
    ['inactive', 'sub_1', true],
    ['expired', null, false],
    ['free', null, false],
    ['active', null, false],
  ] as const)('%s with subscription %s: %s', (planStatus, stripeSubscriptionId, running) => {
    expect(hasRunningSubscription({ planStatus, stripeSubscriptionId })).toBe(running);
  });
});

describe('duplicatesOf and currentOf', () => {
  const sub = (id: string, createdAt: string, status: SubscriptionSnapshot['status'] = 'active') =>
    aSubscription({ id, createdAt, status });

  it('finds no duplicates while at most one subscription is live', () => {
    const subs = [
      sub('a', '2026-11-01', 'canceled'),
      sub('b', '2026-11-02'),
      sub('c', '2026-11-03', 'canceled'),
    ];
    expect(duplicatesOf(subs)).toBeUndefined();
    expect(currentOf(subs)?.id).toBe('b');
  });

  it('keeps the oldest live subscription that was paid; the others are duplicates', () => {
    const subs = [
      sub('newest', '2026-11-03'),
      sub('owing', '2026-11-02', 'past_due'),
      sub('never-paid', '2026-11-01', 'incomplete'),
    ];
    expect(duplicatesOf(subs)).toEqual({
      keep: subs[1],
      duplicates: [subs[2], subs[0]],
    });
    expect(currentOf(subs)?.id).toBe('owing');
  });

  it("settles two made in the same second by Stripe's order (newest first)", () => {
    const second = '2026-11-24T09:00:00.000Z';
    const listed = [sub('made-second', second), sub('made-first', second)];
    expect(duplicatesOf(listed)?.keep.id).toBe('made-first');
    expect(duplicatesOf([...listed].reverse())?.keep.id).toBe('made-second');
  });

  it('falls back to the newest subscription that ended when none is live, and to nothing without any', () => {
    expect(currentOf([sub('old', '2026-10-01', 'canceled'), sub('new', '2026-11-01', 'canceled')])?.id).toBe(
      'new',
    );
    expect(currentOf([])).toBeUndefined();
  });
});

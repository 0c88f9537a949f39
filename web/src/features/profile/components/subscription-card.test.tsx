import { act, screen, waitFor, within } from '@testing-library/react';
import type { CurrentUser } from '@tunesmith/shared/auth';
import { describe, expect, it, vi } from 'vitest';
import { makeSubscriber, makeUser } from '@/testing/fixtures';
import { deferredResponse, jsonResponse, type MockResponse, mockFetch } from '@/testing/mock-fetch';
import { findToast, renderApp, renderAppAs } from '@/testing/render';
import { subscriptionBadge } from './subscription-card';

/** The profile page with a user whose record the server may change during the test. */
const renderProfile = (
  initial: CurrentUser | null,
  routes: Record<string, MockResponse> = {},
  options: Parameters<typeof renderApp>[1] = {},
) => renderAppAs('/profile', initial, routes, options);

async function subscriptionCard() {
  const heading = await screen.findByRole('heading', { level: 2, name: 'Current Subscription' });
  return within(heading.closest('.rounded-2xl') as HTMLElement);
}

/** The reset day in the reader's time zone: Monday 00:00 UTC is still Sunday west of Greenwich. */
const RESETS = /^Resets on (Sunday, January 7|Monday, January 8)$/;

describe('subscription card', () => {
  it('shows a free user Free, the weekly usage with its reset day and an upgrade link, without billing buttons', async () => {
    renderProfile(makeUser({ generationsUsedThisMonth: 2 }));

    const card = await subscriptionCard();
    expect(card.getByText('Free', { selector: 'span' })).toBeDefined();
    expect(card.queryByText('Inactive')).toBeNull();
    expect(card.getByText('Free', { selector: 'p' })).toBeDefined();
    expect(card.queryByText(/^Billed/)).toBeNull();
    expect(card.getByText('Generations used this week')).toBeDefined();
    expect(card.getByText('2 / 5')).toBeDefined();
    const progress = card.getByRole('progressbar', { name: 'Generations used this week' });
    expect(progress.getAttribute('aria-valuenow')).toBe('2');
    expect(progress.getAttribute('aria-valuemax')).toBe('5');
    expect(card.getByText(RESETS)).toBeDefined();
    expect(card.getByRole('link', { name: 'Upgrade Plan' }).getAttribute('href')).toBe('/pricing');
    expect(card.queryByRole('button', { name: 'Manage Billing' })).toBeNull();
    expect(card.queryByRole('button', { name: 'Cancel Subscription' })).toBeNull();
  });

  it('shows an active subscriber the plan, cycle, renewal date, its quota and the billing buttons', async () => {
    renderProfile(makeSubscriber({ generationsUsedThisMonth: 7 }));

    const card = await subscriptionCard();
    expect(card.getByText('Active')).toBeDefined();
    expect(card.getByText('Basic')).toBeDefined();
    expect(card.getByText('Billed monthly')).toBeDefined();
    expect(card.getByText('Renews on Feb 1, 2024')).toBeDefined();
    expect(card.getByText('7 / 30')).toBeDefined();
    expect(card.getByRole('progressbar').getAttribute('aria-valuemax')).toBe('30');
    expect(card.getByText(RESETS)).toBeDefined();
    expect(card.getByRole('button', { name: 'Manage Billing' })).toBeDefined();
    expect(card.getByRole('button', { name: 'Cancel Subscription' })).toBeDefined();
    expect(card.queryByRole('link', { name: 'Upgrade Plan' })).toBeNull();
  });

  it('shows a cancelled subscriber the end date and that the plan lasts until then, without Cancel', async () => {
    renderProfile(
      makeSubscriber({ planStatus: 'cancelled', subscriptionPlanId: 'premium', billingCycle: 'yearly' }),
    );

    const card = await subscriptionCard();
    expect(card.getByText('Cancelled')).toBeDefined();
    expect(card.getByText('Premium')).toBeDefined();
    expect(card.getByText('Billed yearly')).toBeDefined();
    expect(card.getByText('Ends on Feb 1, 2024')).toBeDefined();
    expect(
      card.getByText('You keep Premium until then. After that your account returns to the Free plan.'),
    ).toBeDefined();
    expect(card.queryByText(/^Renews on/)).toBeNull();
    expect(card.getByText('2 / 100')).toBeDefined();
    expect(card.getByRole('button', { name: 'Manage Billing' })).toBeDefined();
    expect(card.queryByRole('button', { name: 'Cancel Subscription' })).toBeNull();
  });

  it('tells an inactive subscriber the payment failed, with the free limits, Manage Billing and Cancel', async () => {
    renderProfile(makeSubscriber({ planStatus: 'inactive', billingCycle: 'weekly' }));

    const card = await subscriptionCard();
    expect(card.getByText('Inactive')).toBeDefined();
    expect(card.getByText('Basic')).toBeDefined();
    expect(card.getByText('Billed weekly')).toBeDefined();
    expect(
      card.getByText(
        "Your last payment failed, so your account has the Free plan's limits for now. Update your card in Manage Billing to restore Basic.",
      ),
    ).toBeDefined();
    expect(card.getByText('2 / 5')).toBeDefined();
    expect(card.getByRole('button', { name: 'Manage Billing' })).toBeDefined();
    expect(card.getByRole('button', { name: 'Cancel Subscription' })).toBeDefined();
  });

  it('shows a user whose paid plan ended Free, with when it ended, Billing History and an upgrade link', async () => {
    renderProfile(
      makeUser({
        planStatus: 'expired',
        planStartDate: '2024-01-01T12:00:00.000Z',
        planEndDate: '2024-02-01T12:00:00.000Z',
      }),
    );

    const card = await subscriptionCard();
    expect(card.getByText('Free', { selector: 'span' })).toBeDefined();
    expect(card.queryByText('Inactive')).toBeNull();
    expect(card.getByText('Your paid plan ended on Feb 1, 2024. You are on the Free plan.')).toBeDefined();
    expect(card.getByText('2 / 5')).toBeDefined();
    // Nothing runs to manage: the portal has the invoices, and the button says so.
    expect(card.queryByRole('button', { name: 'Manage Billing' })).toBeNull();
    const history = card.getByRole('button', { name: 'Billing History' });
    expect(history.getAttribute('aria-describedby')).toBe(
      card.getByText('Billing History lists the invoices of your earlier subscription.').id,
    );
    expect(card.queryByRole('button', { name: 'Cancel Subscription' })).toBeNull();
    expect(card.getByRole('link', { name: 'Upgrade Plan' })).toBeDefined();
  });

  it('says a plan granted by the site is not billed, with its quota and no billing button that would fail', async () => {
    const { calls } = renderProfile(
      makeUser({
        planStatus: 'active',
        subscriptionPlanId: 'premium',
        planStartDate: '2024-01-01T12:00:00.000Z',
        generationsUsedThisMonth: 4,
        planGrantedBySite: true,
        hasBillingAccount: false,
      }),
    );

    const card = await subscriptionCard();
    expect(card.getByText('Active')).toBeDefined();
    expect(card.getByText('Premium')).toBeDefined();
    expect(card.getByText('Granted by the site: nothing is billed for this plan.')).toBeDefined();
    expect(card.getByText('Paying for a plan on Pricing ends this grant.')).toBeDefined();
    expect(card.queryByText(/^Billed/)).toBeNull();
    expect(card.queryByText(/^Renews on/)).toBeNull();
    expect(card.getByText('4 / 100')).toBeDefined();
    expect(card.queryByRole('button', { name: 'Manage Billing' })).toBeNull();
    expect(card.queryByRole('button', { name: 'Cancel Subscription' })).toBeNull();
    expect(card.queryByRole('link', { name: 'Upgrade Plan' })).toBeNull();
    expect(card.queryAllByRole('button')).toEqual([]);
    expect(calls('POST', '/api/stripe/create-portal-session')).toHaveLength(0);
  });

  it('gives a plan granted by the site until a date its end, and what paying does to it', async () => {
    renderProfile(
      makeUser({
        planStatus: 'cancelled',
        subscriptionPlanId: 'basic',
        planEndDate: '2024-02-01T12:00:00.000Z',
        planGrantedBySite: true,
        hasBillingAccount: true,
      }),
    );

    const card = await subscriptionCard();
    expect(card.getByText('Cancelled')).toBeDefined();
    expect(card.getByText('Granted by the site: nothing is billed for this plan.')).toBeDefined();
    expect(card.getByText('Ends on Feb 1, 2024')).toBeDefined();
    expect(card.getByText('Paying for a plan on Pricing ends this grant.')).toBeDefined();
    expect(card.getByRole('link', { name: 'See Plans' }).getAttribute('href')).toBe('/pricing');
    expect(card.queryByRole('button', { name: 'Cancel Subscription' })).toBeNull();
  });

  it('opens no empty portal for a granted plan: Billing History only after an earlier subscription', async () => {
    const granted = { planStatus: 'active', subscriptionPlanId: 'premium', planGrantedBySite: true } as const;
    // A customer left by an unpaid Checkout: nothing to show there.
    const { unmount } = renderProfile(
      makeUser({ ...granted, hasBillingAccount: true, hasBillingHistory: false }),
    );
    let card = await subscriptionCard();
    expect(card.queryByRole('button', { name: 'Manage Billing' })).toBeNull();
    expect(card.queryByRole('button', { name: 'Billing History' })).toBeNull();
    unmount();

    renderProfile(makeUser({ ...granted, hasBillingAccount: true, hasBillingHistory: true }));
    card = await subscriptionCard();
    expect(card.queryByRole('button', { name: 'Manage Billing' })).toBeNull();
    expect(card.getByRole('button', { name: 'Billing History' })).toBeDefined();
    expect(card.getByText('Billing History lists the invoices of your earlier subscription.')).toBeDefined();
  });

  it('opens the portal at the address the server gives', async () => {
    const assign = vi.spyOn(window.location, 'assign').mockImplementation(() => undefined);
    const portal = deferredResponse(() =>
      jsonResponse({ url: 'https://billing.test/session', destination: 'portal' }),
    );
    const { user, calls } = renderProfile(makeSubscriber(), {
      'POST /api/stripe/create-portal-session': portal.handler,
    });

    const card = await subscriptionCard();
    await user.click(card.getByRole('button', { name: 'Manage Billing' }));

    const opening = await card.findByRole('button', { name: 'Opening...' });
    expect(opening).toHaveProperty('disabled', true);
    portal.respond();
    await waitFor(() => expect(assign).toHaveBeenCalledWith('https://billing.test/session'));
    expect(calls('POST', '/api/stripe/create-portal-session')).toHaveLength(1);
  });

  it("says Failed to open customer portal with the server's message", async () => {
    const { user } = renderProfile(makeSubscriber(), {
      'POST /api/stripe/create-portal-session': jsonResponse(
        { message: 'Payments are not available right now. Please try again in a few minutes.' },
        503,
      ),
    });

    await user.click((await subscriptionCard()).getByRole('button', { name: 'Manage Billing' }));

    const toast = await findToast();
    expect(within(toast).getByText('Failed to open customer portal')).toBeDefined();
    expect(
      within(toast).getByText('Payments are not available right now. Please try again in a few minutes.'),
    ).toBeDefined();
    expect(toast.dataset.variant).toBe('destructive');
  });

  it('asks before cancelling, saying it takes effect at the end of the period; Keep Subscription changes nothing', async () => {
    const { user, calls } = renderProfile(makeSubscriber(), {
      'POST /api/stripe/cancel-subscription': jsonResponse({ message: 'ok', planEndDate: null }),
    });

    await user.click((await subscriptionCard()).getByRole('button', { name: 'Cancel Subscription' }));

    const dialog = screen.getByRole('alertdialog', { name: 'Cancel your subscription?' });
    expect(dialog.textContent).toContain(
      'Cancellation takes effect on Feb 1, 2024, the end of the current billing period. You keep Basic until then; after that your account returns to the Free plan.',
    );
    const keep = within(dialog).getByRole('button', { name: 'Keep Subscription' });
    expect(document.activeElement).toBe(keep);
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('alertdialog')).toBeNull();

    await user.click((await subscriptionCard()).getByRole('button', { name: 'Cancel Subscription' }));
    await user.click(screen.getByRole('button', { name: 'Keep Subscription' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(calls('POST', '/api/stripe/cancel-subscription')).toHaveLength(0);
  });

  it("cancels after confirmation, shows the server's message and polls the user until the webhook has recorded it", async () => {
    const cancelled =
      'Your subscription is cancelled. You keep your plan until Feb 1, 2024, then your account returns to the Free plan.';
    let readsAfterCancel: number | null = null;
    const state = { user: makeSubscriber() as CurrentUser | null };
    const fetchMock = mockFetch({
      'GET /api/auth/user': () => {
        // The webhook lands between the third and fourth read after the cancel.
        if (readsAfterCancel !== null && ++readsAfterCancel === 4) {
          state.user = makeSubscriber({ planStatus: 'cancelled' });
        }
        return jsonResponse(state.user);
      },
      'POST /api/stripe/cancel-subscription': () => {
        readsAfterCancel = 0;
        return jsonResponse({ message: cancelled, planEndDate: '2024-02-01T12:00:00.000Z' });
      },
    });
    const userReads = () => fetchMock.mock.calls.filter(([url]) => url === '/api/auth/user').length;
    const { user } = renderApp('/profile', {
      userEvent: { advanceTimers: (ms) => (vi.isFakeTimers() ? vi.advanceTimersByTime(ms) : undefined) },
    });
    const card = await subscriptionCard();
    vi.useFakeTimers();

    await user.click(card.getByRole('button', { name: 'Cancel Subscription' }));
    await user.click(screen.getByRole('button', { name: 'Yes, Cancel Subscription' }));
    for (let i = 0; i < 20 && readsAfterCancel !== 1; i++) await act(() => vi.advanceTimersByTimeAsync(0));

    const toast = await findToast();
    expect(within(toast).getByText('Subscription Cancelled')).toBeDefined();
    expect(within(toast).getByText(cancelled)).toBeDefined();
    expect(screen.queryByRole('alertdialog')).toBeNull();
    // Still active until the webhook lands; Cancel cannot be asked for twice meanwhile.
    expect(card.getByText('Active')).toBeDefined();
    expect(card.getByRole('button', { name: 'Cancelling...' })).toHaveProperty('disabled', true);

    const before = userReads();
    await act(() => vi.advanceTimersByTimeAsync(1000));
    expect(userReads()).toBe(before + 1);
    await act(() => vi.advanceTimersByTimeAsync(2000));

    expect(await card.findByText('Cancelled')).toBeDefined();
    expect(card.getByText('Ends on Feb 1, 2024')).toBeDefined();
    expect(card.queryByRole('button', { name: /Cancel/ })).toBeNull();
    // Polling stops once the status shows.
    const settled = userReads();
    await act(() => vi.advanceTimersByTimeAsync(10_000));
    expect(userReads()).toBe(settled);
  });

  it('ends an inactive subscription at once: says so before, then shows the Free plan once the webhook lands', async () => {
    const { user, state, calls } = renderProfile(makeSubscriber({ planStatus: 'inactive' }), {
      'POST /api/stripe/cancel-subscription': () => {
        state.user = makeUser({ planStatus: 'expired', planEndDate: '2024-01-20T12:00:00.000Z' });
        return jsonResponse({
          message: 'Your subscription is cancelled.',
          planEndDate: '2024-01-20T12:00:00.000Z',
        });
      },
    });

    await user.click((await subscriptionCard()).getByRole('button', { name: 'Cancel Subscription' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Cancel your subscription?' });
    expect(dialog.textContent).toContain('your subscription ends now, nothing more is charged');
    await user.click(within(dialog).getByRole('button', { name: 'Yes, Cancel Subscription' }));

    expect(calls('POST', '/api/stripe/cancel-subscription')).toHaveLength(1);
    const card = await subscriptionCard();
    expect(
      await card.findByText('Your paid plan ended on Jan 20, 2024. You are on the Free plan.'),
    ).toBeDefined();
    expect(card.queryByRole('button', { name: /Cancel/ })).toBeNull();
  });

  it('stops polling after 10 s when the webhook does not come, and offers Cancel again', async () => {
    const { user, calls } = renderProfile(
      makeSubscriber(),
      { 'POST /api/stripe/cancel-subscription': jsonResponse({ message: 'Cancelled', planEndDate: null }) },
      { userEvent: { advanceTimers: (ms) => (vi.isFakeTimers() ? vi.advanceTimersByTime(ms) : undefined) } },
    );
    const card = await subscriptionCard();
    vi.useFakeTimers();

    await user.click(card.getByRole('button', { name: 'Cancel Subscription' }));
    await user.click(screen.getByRole('button', { name: 'Yes, Cancel Subscription' }));
    for (let i = 0; i < 20 && !card.queryByRole('button', { name: 'Cancelling...' }); i++) {
      await act(() => vi.advanceTimersByTimeAsync(0));
    }
    await act(() => vi.advanceTimersByTimeAsync(10_000));
    const reads = calls('GET', '/api/auth/user').length;
    await act(() => vi.advanceTimersByTimeAsync(5000));

    expect(calls('GET', '/api/auth/user')).toHaveLength(reads);
    expect(card.getByRole('button', { name: 'Cancel Subscription' })).toHaveProperty('disabled', false);
  });

  it("says Failed to cancel subscription with the server's message", async () => {
    const { user } = renderProfile(makeSubscriber(), {
      'POST /api/stripe/cancel-subscription': jsonResponse(
        { message: 'You have no subscription to cancel.' },
        409,
      ),
    });

    await user.click((await subscriptionCard()).getByRole('button', { name: 'Cancel Subscription' }));
    await user.click(screen.getByRole('button', { name: 'Yes, Cancel Subscription' }));

    const toast = await findToast();
    expect(within(toast).getByText('Failed to cancel subscription')).toBeDefined();
    expect(within(toast).getByText('You have no subscription to cancel.')).toBeDefined();
    expect(toast.dataset.variant).toBe('destructive');
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect((await subscriptionCard()).getByText('Active')).toBeDefined();
  });
});

describe('subscriptionBadge', () => {
  it('follows the plan status, with Free for a user on the free plan', () => {
    expect(subscriptionBadge(makeSubscriber())).toBe('Active');
    expect(subscriptionBadge(makeSubscriber({ planStatus: 'cancelled' }))).toBe('Cancelled');
    expect(subscriptionBadge(makeSubscriber({ planStatus: 'inactive' }))).toBe('Inactive');
    expect(subscriptionBadge(makeUser())).toBe('Free');
    expect(subscriptionBadge(makeUser({ planStatus: 'expired' }))).toBe('Free');
  });

  it('is Active only while the server says a paid plan is in force', () => {
    expect(subscriptionBadge(makeUser({ planStatus: 'active' }))).toBe('Free');
  });
});

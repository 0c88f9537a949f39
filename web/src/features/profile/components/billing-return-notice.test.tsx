import { act, screen, within } from '@testing-library/react';
import type { CurrentUser } from '@tunesmith/shared/auth';
import { billingReturnPaths } from '@tunesmith/shared/billing';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { makeSubscriber, makeUser } from '@/testing/fixtures';
import { jsonResponse, mockFetch } from '@/testing/mock-fetch';
import { renderApp } from '@/testing/render';

const CONFIRMING = 'Confirming your payment...';
const TIMED_OUT =
  "We haven't received confirmation from Stripe yet. Your payment may still be processing — refresh this page in a minute.";

/**
 * The profile as Stripe returns the browser to it. `answers` are the users the
 * server gives on each read, the last one repeated: the webhook lands between two reads.
 */
function renderReturn(path: string, answers: CurrentUser[]) {
  let reads = 0;
  mockFetch({
    'GET /api/auth/user': () => jsonResponse(answers[Math.min(reads++, answers.length - 1)]),
  });
  // Fake clocks that also move with real time, so the page loads as usual and tests can jump ahead.
  vi.useFakeTimers({ shouldAdvanceTime: true });
  const rendered = renderApp(path);
  return { ...rendered, reads: () => reads };
}

async function subscriptionCard() {
  const heading = await screen.findByRole('heading', { level: 2, name: 'Current Subscription' });
  return heading.closest('.rounded-2xl') as HTMLElement;
}

const advance = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms));

describe('returning from Stripe to the profile', () => {
  beforeAll(async () => {
    // Load the page's code first: module loading takes real time.
    await import('@/app/routes/profile');
  });

  it('confirms the payment once the webhook has made the plan active, then drops the query parameter', async () => {
    const free = makeUser();
    const { router, reads } = renderReturn(billingReturnPaths.checkoutSuccess('basic'), [
      free,
      free,
      makeSubscriber(),
    ]);

    const status = (await screen.findByText(CONFIRMING)).closest('[role="status"]') as HTMLElement;
    expect(status).not.toBeNull();
    // The card waits instead of showing the Free plan the server still has.
    const card = await subscriptionCard();
    expect(card.getAttribute('aria-busy')).toBe('true');
    expect(within(card).queryByText('Free')).toBeNull();
    expect(within(card).queryByText('Generations used this week')).toBeNull();
    expect(router.location.search).toBe('?checkout=success&plan=basic');

    await advance(1500);
    expect(reads()).toBeGreaterThanOrEqual(2);
    expect(status.textContent).toContain(CONFIRMING);
    await advance(1500);

    expect(await screen.findByText("Payment confirmed. You're on Basic.")).toBeDefined();
    // The same live region, so the change is announced.
    expect(status.textContent).toBe("Payment confirmed. You're on Basic.");
    expect(status.isConnected).toBe(true);
    expect(screen.queryByText(CONFIRMING)).toBeNull();
    expect(card.getAttribute('aria-busy')).toBeNull();
    expect(within(card).getByText('Active')).toBeDefined();
    expect(within(card).getByText('Basic')).toBeDefined();
    expect(router.location.pathname).toBe('/profile');
    expect(router.location.search).toBe('');

    const settled = reads();
    await advance(10_000);
    expect(reads()).toBe(settled);
    expect(screen.getByText("Payment confirmed. You're on Basic.")).toBeDefined();
  });

  it('moves focus to the notice when it appears, and keeps it there as the payment is confirmed', async () => {
    const free = makeUser();
    renderReturn(billingReturnPaths.checkoutSuccess('basic'), [free, free, makeSubscriber()]);

    const status = (await screen.findByText(CONFIRMING)).closest('[role="status"]') as HTMLElement;
    expect(status.getAttribute('tabindex')).toBe('-1');
    expect(document.activeElement).toBe(status);

    await advance(3000);
    expect(await screen.findByText("Payment confirmed. You're on Basic.")).toBeDefined();
    expect(document.activeElement).toBe(status);
  });

  it('moves focus to the alert when confirmation is late', async () => {
    renderReturn(billingReturnPaths.checkoutSuccess('basic'), [makeUser()]);
    await screen.findByText(CONFIRMING);

    await advance(30_000);

    const alert = await screen.findByRole('alert');
    expect(document.activeElement).toBe(alert);
  });

  it('moves focus to the notice after a cancelled checkout', async () => {
    renderReturn(billingReturnPaths.checkoutCancelled, [makeUser()]);

    const notice = await screen.findByText('Checkout cancelled. You have not been charged.');
    expect(document.activeElement).toBe(notice.closest('[role="status"]'));
  });

  it('confirms at once when the webhook came before the browser', async () => {
    const { router, reads } = renderReturn(billingReturnPaths.checkoutSuccess('premium'), [
      makeSubscriber({ subscriptionPlanId: 'premium' }),
    ]);

    const confirmed = await screen.findByText("Payment confirmed. You're on Premium.");
    expect(confirmed.closest('[role="status"]')).not.toBeNull();
    expect(router.location.search).toBe('');
    await advance(5000);
    expect(reads()).toBe(1);
  });

  it('polls every 1.5 s for 30 s at most, then says confirmation is late and keeps the parameter for a reload', async () => {
    const { router, reads } = renderReturn(billingReturnPaths.checkoutSuccess('basic'), [makeUser()]);
    await screen.findByText(CONFIRMING);

    await advance(28_500);
    expect(screen.queryByRole('alert')).toBeNull();
    expect(reads()).toBeGreaterThanOrEqual(19);
    await advance(1500);

    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe(TIMED_OUT);
    expect(screen.queryByText(CONFIRMING)).toBeNull();
    // The card shows what the server says now.
    const card = await subscriptionCard();
    expect(within(card).getByText('Free', { selector: 'p' })).toBeDefined();
    expect(router.location.search).toBe('?checkout=success&plan=basic');

    const stopped = reads();
    await advance(10_000);
    expect(reads()).toBe(stopped);
  });

  it('says a cancelled checkout charged nothing, without polling', async () => {
    const { router, reads } = renderReturn(billingReturnPaths.checkoutCancelled, [makeUser()]);

    const notice = await screen.findByText('Checkout cancelled. You have not been charged.');
    expect(notice.closest('[role="status"]')).not.toBeNull();
    expect(within(await subscriptionCard()).getByText('Free', { selector: 'p' })).toBeDefined();
    expect(router.location.search).toBe('');
    await advance(5000);
    expect(reads()).toBe(1);
  });

  it('reloads the user after the portal for a few seconds, picking up what changed there', async () => {
    const basic = makeSubscriber();
    const { router, reads } = renderReturn(billingReturnPaths.portal, [
      basic,
      basic,
      makeSubscriber({ subscriptionPlanId: 'premium' }),
    ]);

    const card = await subscriptionCard();
    // Read again at once (the page's own load may predate the webhook), then for a few seconds.
    expect(reads()).toBeGreaterThanOrEqual(2);
    expect(await within(card).findByText('Premium')).toBeDefined();
    expect(router.location.search).toBe('');
    expect(screen.queryByRole('alert')).toBeNull();

    await advance(10_000);
    const stopped = reads();
    expect(stopped).toBeLessThanOrEqual(7);
    await advance(10_000);
    expect(reads()).toBe(stopped);
  });

  it('waits for the plan paid for, not the plan the site granted before, and then names it', async () => {
    const grantedPremium = makeUser({
      planStatus: 'active',
      subscriptionPlanId: 'premium',
      planGrantedBySite: true,
    });
    renderReturn(billingReturnPaths.checkoutSuccess('basic'), [
      grantedPremium,
      grantedPremium,
      makeSubscriber(),
    ]);

    const status = (await screen.findByText(CONFIRMING)).closest('[role="status"]') as HTMLElement;
    await advance(1500);
    expect(status.textContent).toBe(CONFIRMING);
    expect(screen.queryByText(/You're on Premium/)).toBeNull();
    await advance(1500);

    expect(await screen.findByText("Payment confirmed. You're on Basic.")).toBeDefined();
  });

  it('never names a plan the user is not on: a page for Premium does not confirm a Basic subscription', async () => {
    renderReturn(billingReturnPaths.checkoutSuccess('premium'), [makeSubscriber()]);
    await screen.findByText(CONFIRMING);

    await advance(30_000);

    expect((await screen.findByRole('alert')).textContent).toBe(TIMED_OUT);
    expect(screen.queryByText(/Payment confirmed/)).toBeNull();
  });

  it("says how to switch to Free after Pricing's Switch to Free, then drops the parameter", async () => {
    const { router } = renderReturn('/profile?switch=free', [makeSubscriber()]);

    const notice = await screen.findByText(
      'To switch to Free, cancel your subscription below: you keep Basic until Feb 1, 2024, then your account returns to the Free plan.',
    );
    expect(document.activeElement).toBe(notice.closest('[role="status"]'));
    expect(router.location.search).toBe('');
    expect(
      within(await subscriptionCard()).getByRole('button', { name: 'Cancel Subscription' }),
    ).toBeDefined();
  });

  it('tells a user whose plan the site granted that there is nothing to cancel', async () => {
    renderReturn('/profile?switch=free', [
      makeUser({ planStatus: 'active', subscriptionPlanId: 'premium', planGrantedBySite: true }),
    ]);

    expect(
      await screen.findByText(
        'Your Premium plan was granted by Tunesmith at no charge: there is nothing to cancel.',
      ),
    ).toBeDefined();
  });

  it('shows no notice on a plain visit', async () => {
    const { reads } = renderReturn('/profile', [makeUser()]);

    await subscriptionCard();
    expect(screen.queryByText(CONFIRMING)).toBeNull();
    expect(screen.queryByRole('alert')).toBeNull();
    await advance(5000);
    expect(reads()).toBe(1);
  });
});

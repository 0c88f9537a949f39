import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { Plan } from '@tunesmith/shared/plans';
import { describe, expect, it, vi } from 'vitest';
import { makeSubscriber, makeUser, seedPlans, signedInUser } from '@/testing/fixtures';
import {
  anonymous,
  deferredResponse,
  jsonResponse,
  type MockResponse,
  mockFetch,
} from '@/testing/mock-fetch';
import { findToast, renderApp } from '@/testing/render';

function renderPricing({
  plans = seedPlans(),
  user,
  checkout = jsonResponse({ url: 'https://checkout.stripe.test/session', destination: 'checkout' }),
}: {
  plans?: Plan[];
  user?: object;
  checkout?: MockResponse;
} = {}) {
  const fetchMock = mockFetch({
    'GET /api/auth/user': user ? jsonResponse(user) : anonymous(),
    'GET /api/plans': jsonResponse(plans),
    'POST /api/stripe/create-checkout-session': checkout,
  });
  const checkoutBodies = () =>
    fetchMock.mock.calls
      .filter(([url]) => url === '/api/stripe/create-checkout-session')
      .map(([, init]) => JSON.parse(String(init?.body)));
  return { fetchMock, checkoutBodies, ...renderApp('/pricing') };
}

/** The seed plans with a Stripe price for every paid plan and cycle. */
function pricedPlans(): Plan[] {
  return seedPlans().map((plan) =>
    plan.monthlyPrice > 0
      ? {
          ...plan,
          weeklyPriceId: `price_${plan.id}_weekly`,
          monthlyPriceId: `price_${plan.id}_monthly`,
          yearlyPriceId: `price_${plan.id}_yearly`,
        }
      : plan,
  );
}

const button = async (plan: string, name: string | RegExp) =>
  (await card(plan)).getByRole('button', { name }) as HTMLButtonElement;

async function card(name: string) {
  const heading = await screen.findByRole('heading', { level: 2, name });
  return within(heading.closest('article') as HTMLElement);
}

describe('pricing page', () => {
  it('shows one card per plan with monthly prices first', async () => {
    renderPricing();

    expect(await screen.findAllByRole('article')).toHaveLength(3);
    expect((await card('Basic')).getByText('$9')).toBeDefined();
    expect((await card('Basic')).getByText('/month')).toBeDefined();
    expect((await card('Premium')).getByText('$19')).toBeDefined();
    expect(screen.getByRole('radio', { name: 'Monthly' }).getAttribute('aria-checked')).toBe('true');
    expect(document.title).toBe('Pricing | Tunesmith');
  });

  it('changes the prices with the billing cycle', async () => {
    const { user } = renderPricing();
    const basic = await card('Basic');
    const premium = await card('Premium');

    await user.click(screen.getByRole('radio', { name: 'Weekly' }));
    expect(basic.getByText('$2.08')).toBeDefined();
    expect(basic.getByText('/week')).toBeDefined();
    expect(premium.getByText('$4.39')).toBeDefined();

    await user.click(screen.getByRole('radio', { name: 'Yearly' }));
    expect(basic.getByText('$90')).toBeDefined();
    expect(basic.getByText('/year')).toBeDefined();
    expect(premium.getByText('$190')).toBeDefined();
  });

  it('shows savings by the spec formulas for the seed prices', async () => {
    const { user } = renderPricing();
    await card('Basic');

    // Monthly against 4 weeks: $9 vs $8.32 and $19 vs $17.56 save nothing.
    expect(screen.queryByText(/^Save \d+%$/)).toBeNull();

    // Yearly against 12 months: 1 - 90/108 and 1 - 190/228 round to 17%.
    await user.click(screen.getByRole('radio', { name: 'Yearly' }));
    expect((await card('Basic')).getByText('Save 17%')).toBeDefined();
    expect((await card('Premium')).getByText('Save 17%')).toBeDefined();
    expect((await card('Free')).queryByText(/^Save/)).toBeNull();

    await user.click(screen.getByRole('radio', { name: 'Weekly' }));
    expect(screen.queryByText(/^Save \d+%$/)).toBeNull();
  });

  it('compares monthly with 4 weeks and yearly with 12 months', async () => {
    const [, basic] = seedPlans();
    const studio = {
      ...(basic as Plan),
      id: 'studio',
      name: 'Studio',
      weeklyPrice: 5,
      monthlyPrice: 15,
      yearlyPrice: 144,
    };
    const { user } = renderPricing({ plans: [studio] });

    expect((await card('Studio')).getByText('Save 25%')).toBeDefined();
    await user.click(screen.getByRole('radio', { name: 'Yearly' }));
    expect((await card('Studio')).getByText('Save 20%')).toBeDefined();
  });

  it('badges Basic as Most Popular and shows Free for the free plan', async () => {
    renderPricing();

    expect((await card('Basic')).getByText('Most Popular')).toBeDefined();
    expect(screen.getAllByText('Most Popular')).toHaveLength(1);
    const free = await card('Free');
    expect(free.getByText('Free', { selector: 'span' })).toBeDefined();
    expect(free.queryByText(/\$/)).toBeNull();
  });

  it('uses the first description line as the tagline', async () => {
    renderPricing();

    const basic = await card('Basic');
    expect(basic.getByText('For regular creators.')).toBeDefined();
    expect(screen.queryByText(/Private or public tracks and downloads/)).toBeNull();
  });

  it('reads features from an array, a JSON list and a newline-separated string', async () => {
    renderPricing();

    const features = async (name: string) =>
      (await card(name)).getByRole('list', { name: `${name} features` }).querySelectorAll('li');
    expect([...(await features('Free'))].map((li) => li.textContent)).toEqual([
      '5 songs a week',
      'Public sharing only',
    ]);
    expect([...(await features('Basic'))].map((li) => li.textContent)).toEqual([
      '30 songs a week',
      'Download your tracks',
    ]);
    expect([...(await features('Premium'))].map((li) => li.textContent)).toEqual([
      '100 songs a week',
      'Priority generation',
      'Commercial license',
    ]);
  });

  it('sends a visitor who chooses a paid plan to /auth', async () => {
    const { router, user, fetchMock } = renderPricing();

    await user.click((await card('Basic')).getByRole('button', { name: 'Choose Basic' }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/auth'));
    expect(fetchMock.mock.calls.some(([url]) => String(url).includes('checkout'))).toBe(false);
  });

  it('tells a signed-in user when the chosen cycle has no price id', async () => {
    const { user, fetchMock } = renderPricing({ user: signedInUser });

    await user.click((await card('Basic')).getByRole('button', { name: 'Choose Basic' }));

    const toast = await findToast();
    expect(within(toast).getByText('Configuration Error')).toBeDefined();
    expect(
      within(toast).getByText('This plan is not configured for monthly billing. Please contact support.'),
    ).toBeDefined();
    expect(toast.dataset.variant).toBe('destructive');
    expect(fetchMock.mock.calls.some(([url]) => String(url).includes('checkout'))).toBe(false);
  });

  it('starts checkout for a signed-in user and goes to the returned address', async () => {
    const assign = vi.spyOn(window.location, 'assign').mockImplementation(() => undefined);
    const plans = seedPlans().map((plan) =>
      plan.id === 'basic' ? { ...plan, yearlyPriceId: 'price_basic_yearly' } : plan,
    );
    const { user, fetchMock } = renderPricing({ plans, user: signedInUser });

    await user.click(await screen.findByRole('radio', { name: 'Yearly' }));
    await user.click((await card('Basic')).getByRole('button', { name: 'Choose Basic' }));

    await waitFor(() => expect(assign).toHaveBeenCalledWith('https://checkout.stripe.test/session'));
    const checkout = fetchMock.mock.calls.find(([url]) => url === '/api/stripe/create-checkout-session');
    expect(checkout?.[1]?.body).toBe(JSON.stringify({ planId: 'basic', billingCycle: 'yearly' }));
  });

  it('shows the server message when checkout fails', async () => {
    const plans = seedPlans().map((plan) =>
      plan.id === 'basic' ? { ...plan, monthlyPriceId: 'price_basic_monthly' } : plan,
    );
    mockFetch({
      'GET /api/auth/user': jsonResponse(signedInUser),
      'GET /api/plans': jsonResponse(plans),
      'POST /api/stripe/create-checkout-session': jsonResponse({ message: 'Not implemented yet' }, 501),
    });
    const { user } = renderApp('/pricing');

    await user.click((await card('Basic')).getByRole('button', { name: 'Choose Basic' }));

    const toast = await findToast();
    expect(within(toast).getByText('Not implemented yet')).toBeDefined();
    expect(toast.dataset.variant).toBe('destructive');
  });

  it('shows an error with a retry when the plans cannot be loaded', async () => {
    let available = false;
    mockFetch({
      'GET /api/auth/user': anonymous(),
      'GET /api/plans': () =>
        available ? jsonResponse(seedPlans()) : jsonResponse({ message: 'boom' }, 500),
    });
    const { user } = renderApp('/pricing');

    expect(await screen.findByText("We couldn't load the plans.")).toBeDefined();
    available = true;
    await user.click(screen.getByRole('button', { name: 'Try again' }));

    expect(await screen.findByRole('heading', { level: 2, name: 'Basic' })).toBeDefined();
  });

  it('marks the Free plan as the current plan of a free user and offers the paid plans', async () => {
    renderPricing({ user: makeUser() });

    expect(await button('Free', 'Current Plan')).toHaveProperty('disabled', true);
    expect(await button('Basic', 'Choose Basic')).toHaveProperty('disabled', false);
    expect(await button('Premium', 'Choose Premium')).toHaveProperty('disabled', false);
    expect(screen.getAllByRole('button', { name: 'Current Plan' })).toHaveLength(1);
  });

  it("shows a subscriber their plan at the cycle they pay by, and sends a switch through the server's redirect", async () => {
    const assign = vi.spyOn(window.location, 'assign').mockImplementation(() => undefined);
    const { user, checkoutBodies } = renderPricing({
      plans: pricedPlans(),
      user: makeSubscriber({ billingCycle: 'yearly' }),
      checkout: jsonResponse({ url: 'https://billing.stripe.test/portal', destination: 'portal' }),
    });

    expect((await screen.findByRole('radio', { name: 'Yearly' })).getAttribute('aria-checked')).toBe('true');
    expect(await button('Basic', 'Current Plan')).toHaveProperty('disabled', true);
    expect(await button('Free', 'Switch to Free')).toBeDefined();
    await user.click(await button('Premium', 'Switch to Premium'));

    await waitFor(() => expect(assign).toHaveBeenCalledWith('https://billing.stripe.test/portal'));
    expect(checkoutBodies()).toEqual([{ planId: 'premium', billingCycle: 'yearly' }]);
  });

  it('offers a subscriber their own plan at another cycle as a switch', async () => {
    const { user } = renderPricing({ plans: pricedPlans(), user: makeSubscriber() });

    expect(await button('Basic', 'Current Plan')).toBeDefined();
    await user.click(screen.getByRole('radio', { name: 'Weekly' }));

    expect(await button('Basic', 'Switch to Weekly')).toHaveProperty('disabled', false);
    expect(screen.queryByRole('button', { name: 'Current Plan' })).toBeNull();
  });

  it('keeps a cancelled plan current until it ends', async () => {
    renderPricing({ user: makeSubscriber({ planStatus: 'cancelled' }) });
    expect(await button('Basic', 'Current Plan')).toBeDefined();
  });

  it.each([
    ['expired', makeUser({ planStatus: 'expired' }), 'Choose Basic'],
    ['inactive', makeSubscriber({ planStatus: 'inactive' }), 'Reactivate Basic'],
  ])('marks the Free plan as current for an %s user', async (_status, current, basicLabel) => {
    renderPricing({ user: current });

    expect(await button('Free', 'Current Plan')).toHaveProperty('disabled', true);
    expect(await button('Basic', basicLabel)).toBeDefined();
  });

  it('shows a pending state and starts checkout only once, however often the button is pressed', async () => {
    const assign = vi.spyOn(window.location, 'assign').mockImplementation(() => undefined);
    const answer = deferredResponse(() =>
      jsonResponse({ url: 'https://checkout.stripe.test/session', destination: 'checkout' }),
    );
    const { user, checkoutBodies } = renderPricing({
      plans: pricedPlans(),
      user: makeUser(),
      checkout: answer.handler,
    });

    const choose = await button('Basic', 'Choose Basic');
    // Two presses before the screen has re-rendered, then one after.
    fireEvent.click(choose);
    fireEvent.click(choose);
    await user.click(choose);

    expect(await button('Basic', 'Redirecting...')).toHaveProperty('disabled', true);
    expect(choose.getAttribute('aria-busy')).toBe('true');
    expect(await button('Premium', 'Choose Premium')).toHaveProperty('disabled', true);
    answer.respond();
    await waitFor(() => expect(assign).toHaveBeenCalledTimes(1));
    // Still leaving: nothing can start a second session.
    expect(await button('Basic', 'Redirecting...')).toHaveProperty('disabled', true);
    expect(checkoutBodies()).toEqual([{ planId: 'basic', billingCycle: 'monthly' }]);
  });

  it('is usable again when Back restores the page from the browser cache', async () => {
    vi.spyOn(window.location, 'assign').mockImplementation(() => undefined);
    const { user } = renderPricing({ plans: pricedPlans(), user: makeUser() });

    await user.click(await button('Basic', 'Choose Basic'));
    expect(await button('Basic', 'Redirecting...')).toHaveProperty('disabled', true);
    act(() => {
      window.dispatchEvent(Object.assign(new Event('pageshow'), { persisted: true }));
    });

    expect(await button('Basic', 'Choose Basic')).toHaveProperty('disabled', false);
  });

  it.each([
    ['no address comes back', jsonResponse({}), 'No checkout URL received from server'],
    ['the server gives no reason', new Response('', { status: 500 }), 'Failed to create checkout session'],
    [
      'payments are unavailable',
      jsonResponse(
        { message: 'Payments are not available right now. Please try again in a few minutes.' },
        503,
      ),
      'Payments are not available right now. Please try again in a few minutes.',
    ],
  ])('says so when %s, and lets the user try again', async (_case, checkout, text) => {
    const assign = vi.spyOn(window.location, 'assign').mockImplementation(() => undefined);
    const { user } = renderPricing({ plans: pricedPlans(), user: makeUser(), checkout });

    await user.click(await button('Basic', 'Choose Basic'));

    const toast = await findToast();
    expect(within(toast).getByText(text)).toBeDefined();
    expect(toast.dataset.variant).toBe('destructive');
    expect(assign).not.toHaveBeenCalled();
    await waitFor(async () =>
      expect(await button('Basic', 'Choose Basic')).toHaveProperty('disabled', false),
    );
  });

  it("titles the server's missing-price refusal Configuration Error", async () => {
    const text = 'This plan is not configured for monthly billing. Please contact support.';
    const { user } = renderPricing({
      plans: pricedPlans(),
      user: makeUser(),
      checkout: jsonResponse({ message: text }, 400),
    });

    await user.click(await button('Basic', 'Choose Basic'));

    const toast = await findToast();
    expect(within(toast).getByText('Configuration Error')).toBeDefined();
    expect(within(toast).getByText(text)).toBeDefined();
  });
});

import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { Plan } from '@tunesmith/shared/plans';
import { describe, expect, it, vi } from 'vitest';
import { makeSubscriber, makeUser, paidStems, seedPlans, seedStems, signedInUser } from '@/testing/fixtures';
import {
  anonymous,
  deferredResponse,
  jsonResponse,
  type MockResponse,
  mockFetch,
} from '@/testing/mock-fetch';
import { findToast, renderApp } from '@/testing/render';

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

/** The seed plans with only the Stripe prices named, as `basic_weekly`. */
function plansPricedFor(...priced: string[]): Plan[] {
  const priceId = (plan: Plan, cycle: string) =>
    priced.includes(`${plan.id}_${cycle}`) ? `price_${plan.id}_${cycle}` : null;
  return seedPlans().map((plan) => ({
    ...plan,
    weeklyPriceId: priceId(plan, 'weekly'),
    monthlyPriceId: priceId(plan, 'monthly'),
    yearlyPriceId: priceId(plan, 'yearly'),
  }));
}

function renderPricing({
  plans = pricedPlans(),
  user,
  checkout = jsonResponse({ url: 'https://checkout.stripe.test/session', destination: 'checkout' }),
  portal = jsonResponse({ url: 'https://billing.stripe.test/portal/confirm', destination: 'portal' }),
  path = '/pricing',
}: {
  plans?: Plan[];
  user?: object;
  checkout?: MockResponse;
  portal?: MockResponse;
  path?: string;
} = {}) {
  const fetchMock = mockFetch({
    'GET /api/auth/user': user ? jsonResponse(user) : anonymous(),
    'GET /api/plans': jsonResponse(plans),
    'POST /api/stripe/create-checkout-session': checkout,
    'POST /api/stripe/create-portal-session': portal,
  });
  const bodiesTo = (path: string) =>
    fetchMock.mock.calls.filter(([url]) => url === path).map(([, init]) => JSON.parse(String(init?.body)));
  return {
    fetchMock,
    checkoutBodies: () => bodiesTo('/api/stripe/create-checkout-session'),
    portalBodies: () => bodiesTo('/api/stripe/create-portal-session'),
    userReads: () => fetchMock.mock.calls.filter(([url]) => url === '/api/auth/user').length,
    ...renderApp(path),
  };
}

const button = async (plan: string, name: string | RegExp) =>
  (await card(plan)).getByRole('button', { name }) as HTMLButtonElement;

async function card(name: string) {
  const heading = await screen.findByRole('heading', { level: 2, name });
  return within(heading.closest('article') as HTMLElement);
}

describe('pricing page', () => {
  it("shows its heading at once and holds the plans' place with three skeleton cards until they answer", async () => {
    const plans = deferredResponse(() => jsonResponse(pricedPlans()));
    mockFetch({ 'GET /api/auth/user': anonymous(), 'GET /api/plans': plans.handler });
    renderApp('/pricing');

    expect(await screen.findByRole('heading', { level: 1, name: 'Choose Your Plan' })).toBeDefined();
    const skeleton = screen.getByRole('status', { name: '' }).parentElement as HTMLElement;
    expect(screen.getByText('Loading plans')).toBeDefined();
    expect(skeleton.getAttribute('aria-busy')).toBe('true');
    expect(screen.queryAllByRole('article')).toHaveLength(0);

    plans.respond();
    expect(await screen.findAllByRole('article')).toHaveLength(3);
    expect(screen.queryByText('Loading plans')).toBeNull();
  });

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
    const [, basic] = pricedPlans();
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

  it('names a commercial license only on plans whose tracks get one, and only once', async () => {
    const plans = pricedPlans().map((plan) =>
      plan.name === 'Basic'
        ? { ...plan, commercialUse: true }
        : plan.name === 'Free'
          ? { ...plan, features: ['5 songs a week', 'Commercial license'] }
          : plan,
    );
    renderPricing({ plans });

    const features = async (name: string) =>
      [...(await card(name)).getByRole('list', { name: `${name} features` }).querySelectorAll('li')].map(
        (li) => li.textContent,
      );
    expect(await features('Free')).toEqual(['5 songs a week']);
    expect(await features('Basic')).toEqual([
      '30 songs a week',
      'Download your tracks',
      'Commercial license',
    ]);
    expect((await features('Premium')).filter((f) => f === 'Commercial license')).toHaveLength(1);
  });

  it('sends a visitor who chooses a paid plan to /auth, carrying the plan and cycle', async () => {
    const { router, user, fetchMock } = renderPricing();

    await user.click(await screen.findByRole('radio', { name: 'Yearly' }));
    await user.click(await button('Premium', 'Choose Premium'));

    await waitFor(() => expect(router.location.pathname).toBe('/auth'));
    const next = new URLSearchParams(router.location.search).get('next');
    expect(next).toBe('/pricing?subscribe=premium&cycle=yearly');
    expect(fetchMock.mock.calls.some(([url]) => String(url).includes('/api/stripe/'))).toBe(false);
  });

  it('sends a visitor who chooses Free to /auth with nothing to carry', async () => {
    const { router, user } = renderPricing();

    await user.click(await button('Free', 'Start for Free'));

    await waitFor(() => expect(router.location.pathname).toBe('/auth'));
    expect(router.location.search).toBe('');
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

  it("shows a subscriber their plan at the cycle they pay by, and opens the portal's confirm step for a switch", async () => {
    const assign = vi.spyOn(window.location, 'assign').mockImplementation(() => undefined);
    const { user, checkoutBodies, portalBodies, fetchMock } = renderPricing({
      user: makeSubscriber({ billingCycle: 'yearly' }),
    });

    expect((await screen.findByRole('radio', { name: 'Yearly' })).getAttribute('aria-checked')).toBe('true');
    expect(await button('Basic', 'Current Plan')).toHaveProperty('disabled', true);
    expect(await button('Free', 'Switch to Free')).toBeDefined();
    await user.click(await button('Premium', 'Switch to Premium'));

    await waitFor(() => expect(assign).toHaveBeenCalledWith('https://billing.stripe.test/portal/confirm'));
    expect(portalBodies()).toEqual([{ planId: 'premium', billingCycle: 'yearly' }]);
    const init = fetchMock.mock.calls.find(([url]) => url === '/api/stripe/create-portal-session')?.[1];
    expect(new Headers(init?.headers).get('Content-Type')).toBe('application/json');
    expect(checkoutBodies()).toEqual([]);
  });

  it('switches a subscriber to another cycle of their plan through the portal', async () => {
    vi.spyOn(window.location, 'assign').mockImplementation(() => undefined);
    const { user, portalBodies, checkoutBodies } = renderPricing({ user: makeSubscriber() });

    expect(await button('Basic', 'Current Plan')).toBeDefined();
    await user.click(screen.getByRole('radio', { name: 'Weekly' }));

    expect(screen.queryByRole('button', { name: 'Current Plan' })).toBeNull();
    await user.click(await button('Basic', 'Switch to Weekly'));

    await waitFor(() => expect(portalBodies()).toEqual([{ planId: 'basic', billingCycle: 'weekly' }]));
    expect(checkoutBodies()).toEqual([]);
  });

  it('reactivates the plan of a subscriber whose payment failed through the portal', async () => {
    vi.spyOn(window.location, 'assign').mockImplementation(() => undefined);
    const { user, portalBodies, checkoutBodies } = renderPricing({
      user: makeSubscriber({ planStatus: 'inactive' }),
    });

    await user.click(await button('Basic', 'Reactivate Basic'));

    await waitFor(() => expect(portalBodies()).toEqual([{ planId: 'basic', billingCycle: 'monthly' }]));
    expect(checkoutBodies()).toEqual([]);
  });

  it.each([
    [
      'the subscription has ended meanwhile',
      jsonResponse({ message: 'You have no subscription to change. Choose a plan to subscribe.' }, 409),
      'You have no subscription to change. Choose a plan to subscribe.',
    ],
    [
      'it is already the plan and cycle',
      jsonResponse({ message: 'You are already on this plan and billing cycle.' }, 400),
      'You are already on this plan and billing cycle.',
    ],
  ])('says so when the portal refuses because %s, and reads the user again', async (_case, portal, text) => {
    const assign = vi.spyOn(window.location, 'assign').mockImplementation(() => undefined);
    const { user, userReads } = renderPricing({ user: makeSubscriber(), portal });
    const switchToPremium = await button('Premium', 'Switch to Premium');
    const before = userReads();

    await user.click(switchToPremium);

    const toast = await findToast();
    expect(within(toast).getByText('Failed to open customer portal')).toBeDefined();
    expect(within(toast).getByText(text)).toBeDefined();
    expect(toast.dataset.variant).toBe('destructive');
    await waitFor(() => expect(userReads()).toBeGreaterThan(before));
    expect(assign).not.toHaveBeenCalled();
  });

  it("titles the portal's missing-price refusal Configuration Error", async () => {
    const text = 'This plan is not configured for monthly billing. Please contact support.';
    const { user } = renderPricing({ user: makeSubscriber(), portal: jsonResponse({ message: text }, 400) });

    await user.click(await button('Premium', 'Switch to Premium'));

    const toast = await findToast();
    expect(within(toast).getByText('Configuration Error')).toBeDefined();
    expect(within(toast).getByText(text)).toBeDefined();
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

  describe('billing cycles', () => {
    it('offers only the cycles that some paid plan has a price for', async () => {
      renderPricing({ plans: plansPricedFor('basic_monthly', 'premium_monthly', 'premium_yearly') });

      const toggle = await screen.findByRole('radiogroup', { name: 'Billing cycle' });
      expect(
        within(toggle)
          .getAllByRole('radio')
          .map((radio) => radio.textContent),
      ).toEqual(['Monthly', 'Yearly']);
    });

    it('says a plan without a price for the cycle is not offered on it, with no button but a way to its prices', async () => {
      const { user, fetchMock } = renderPricing({
        plans: plansPricedFor('basic_monthly', 'premium_monthly', 'premium_yearly'),
        user: makeUser(),
      });

      await user.click(await screen.findByRole('radio', { name: 'Yearly' }));

      const basic = await card('Basic');
      expect(basic.getByText('Not offered on yearly billing')).toBeDefined();
      expect(basic.queryByText('$90')).toBeNull();
      expect(basic.queryByText(/^Save/)).toBeNull();
      expect(basic.queryByRole('button', { name: /Choose|Configuration/ })).toBeNull();
      expect((await card('Premium')).getByText('$190')).toBeDefined();
      expect(screen.queryByText(/contact support/)).toBeNull();

      await user.click(basic.getByRole('button', { name: 'See Monthly Prices' }));

      expect(screen.getByRole('radio', { name: 'Monthly' }).getAttribute('aria-checked')).toBe('true');
      expect(await button('Basic', 'Choose Basic')).toHaveProperty('disabled', false);
      expect(fetchMock.mock.calls.some(([url]) => String(url).includes('/api/stripe/'))).toBe(false);
    });

    it('shows the first offered cycle when monthly has no price', async () => {
      renderPricing({ plans: plansPricedFor('basic_yearly', 'premium_yearly') });

      expect((await screen.findByRole('radio', { name: 'Yearly' })).getAttribute('aria-checked')).toBe(
        'true',
      );
      expect(screen.queryByRole('radio', { name: 'Monthly' })).toBeNull();
      expect((await card('Basic')).getByText('$90')).toBeDefined();
    });

    it('offers no cycle and no paid button when no plan has a price', async () => {
      renderPricing({ plans: seedPlans(), user: makeUser() });

      expect((await card('Basic')).getByText('Not offered on monthly billing')).toBeDefined();
      expect(screen.queryByRole('radiogroup', { name: 'Billing cycle' })).toBeNull();
      expect(screen.queryByRole('radio')).toBeNull();
      expect((await card('Basic')).queryByRole('button')).toBeNull();
      expect((await card('Premium')).queryByRole('button')).toBeNull();
      expect(await button('Free', 'Current Plan')).toBeDefined();
    });
  });

  describe('a user whose plan the site granted', () => {
    const grantedPremium = () =>
      makeUser({ planStatus: 'active', subscriptionPlanId: 'premium', planGrantedBySite: true });
    const premiumEnds =
      'Your Premium plan was granted by Tunesmith at no charge. Paying for Basic ends it now: ' +
      'your weekly limit goes from 100 to 30, and new tracks no longer come with a commercial license.';

    it('says what paying ends and asks before Checkout; keeping the plan starts nothing', async () => {
      const assign = vi.spyOn(window.location, 'assign').mockImplementation(() => undefined);
      const { user, checkoutBodies } = renderPricing({ user: grantedPremium() });

      expect(await button('Premium', 'Current Plan')).toHaveProperty('disabled', true);
      const choose = await button('Basic', 'Choose Basic');
      await user.click(choose);

      const dialog = await screen.findByRole('alertdialog', { name: 'End your Premium plan?' });
      expect(within(dialog).getByText(premiumEnds)).toBeDefined();
      expect(dialog.getAttribute('aria-describedby')).toBe(within(dialog).getByText(premiumEnds).id);
      // Keeping is the safe answer, so it has focus: Enter or Escape changes nothing.
      expect(document.activeElement).toBe(within(dialog).getByRole('button', { name: 'Keep Premium' }));
      expect(checkoutBodies()).toEqual([]);

      await user.keyboard('{Escape}');
      await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
      expect(document.activeElement).toBe(choose);
      expect(checkoutBodies()).toEqual([]);
      expect(assign).not.toHaveBeenCalled();
    });

    it('pays once the person agrees, naming the grant that ends', async () => {
      const assign = vi.spyOn(window.location, 'assign').mockImplementation(() => undefined);
      const { user, checkoutBodies } = renderPricing({ user: grantedPremium() });

      await user.click(await button('Basic', 'Choose Basic'));
      const dialog = await screen.findByRole('alertdialog');
      await user.click(within(dialog).getByRole('button', { name: 'Pay for Basic' }));

      await waitFor(() => expect(assign).toHaveBeenCalledWith('https://checkout.stripe.test/session'));
      expect(checkoutBodies()).toEqual([
        { planId: 'basic', billingCycle: 'monthly', endsGrantedPlan: 'premium' },
      ]);
    });

    it("asks in the server's words when a plan was granted after the page was read", async () => {
      const assign = vi.spyOn(window.location, 'assign').mockImplementation(() => undefined);
      const serverSays =
        'Your Premium plan was granted by Harbour Radio at no charge. Paying for Basic ends it now: your weekly limit goes from 100 to 30.';
      const { user, checkoutBodies, userReads } = renderPricing({
        user: makeUser(),
        checkout: async (request) =>
          (await request.json()).endsGrantedPlan === 'premium'
            ? jsonResponse({ url: 'https://checkout.stripe.test/session', destination: 'checkout' })
            : jsonResponse(
                { message: serverSays, grantedPlanId: 'premium', grantedPlanName: 'Premium' },
                409,
              ),
      });
      const before = userReads();

      await user.click(await button('Basic', 'Choose Basic'));

      const dialog = await screen.findByRole('alertdialog', { name: 'End your Premium plan?' });
      expect(within(dialog).getByText(serverSays)).toBeDefined();
      await waitFor(() => expect(userReads()).toBeGreaterThan(before));
      expect(assign).not.toHaveBeenCalled();
      await user.click(within(dialog).getByRole('button', { name: 'Pay for Basic' }));

      await waitFor(() => expect(assign).toHaveBeenCalledWith('https://checkout.stripe.test/session'));
      expect(checkoutBodies()).toEqual([
        { planId: 'basic', billingCycle: 'monthly' },
        { planId: 'basic', billingCycle: 'monthly', endsGrantedPlan: 'premium' },
      ]);
    });

    it('offers no Switch to Free, saying there is nothing to cancel and when the grant ends', async () => {
      renderPricing({
        user: makeUser({
          planStatus: 'cancelled',
          subscriptionPlanId: 'premium',
          planEndDate: '2024-02-01T12:00:00.000Z',
          planGrantedBySite: true,
          entitlements: {
            paid: true,
            weeklyLimit: 100,
            canPrivate: true,
            canDownload: true,
            stems: paidStems(),
          },
        }),
      });

      const free = await card('Free');
      expect(free.queryByRole('button')).toBeNull();
      expect(
        free.getByText(
          'Your Premium plan was granted by Tunesmith at no charge: there is nothing to cancel. You return to Free on Feb 1, 2024.',
        ),
      ).toBeDefined();
    });

    it('treats a grant that has ended as the Free plan, with nothing to ask', async () => {
      vi.spyOn(window.location, 'assign').mockImplementation(() => undefined);
      const { user, checkoutBodies } = renderPricing({
        user: makeUser({
          planStatus: 'cancelled',
          subscriptionPlanId: 'premium',
          planEndDate: '2024-01-01T00:00:00.000Z',
          planGrantedBySite: true,
          entitlements: {
            paid: false,
            weeklyLimit: 5,
            canPrivate: false,
            canDownload: false,
            stems: seedStems(),
          },
        }),
      });

      expect(await button('Free', 'Current Plan')).toBeDefined();
      await user.click(await button('Basic', 'Choose Basic'));
      await waitFor(() => expect(checkoutBodies()).toEqual([{ planId: 'basic', billingCycle: 'monthly' }]));
      expect(screen.queryByRole('alertdialog')).toBeNull();
    });
  });

  it("sends a subscriber's Switch to Free to the profile's word on how (cancelling)", async () => {
    const { user, router } = renderPricing({ user: makeSubscriber() });

    await user.click(await button('Free', 'Switch to Free'));

    await waitFor(() => expect(router.location.pathname).toBe('/profile'));
    expect(router.location.search).toBe('?switch=free');
  });

  describe('a user who already has a subscription', () => {
    const alreadySubscribed =
      'You already have a subscription. To change or cancel it, open Manage Billing on your profile.';

    it("shows Checkout's refusal with the way to Manage Billing, and reads the user again", async () => {
      const assign = vi.spyOn(window.location, 'assign').mockImplementation(() => undefined);
      const { user, router, userReads } = renderPricing({
        user: makeUser(),
        checkout: jsonResponse({ message: alreadySubscribed, manageUrl: '/profile' }, 409),
      });
      const choose = await button('Basic', 'Choose Basic');
      const before = userReads();

      await user.click(choose);

      const alert = await screen.findByRole('alert');
      expect(within(alert).getByText(alreadySubscribed)).toBeDefined();
      expect(document.activeElement).toBe(alert);
      await waitFor(() => expect(userReads()).toBeGreaterThan(before));
      expect(assign).not.toHaveBeenCalled();

      await user.click(within(alert).getByRole('link', { name: 'Go to Manage Billing' }));
      await waitFor(() => expect(router.location.pathname).toBe('/profile'));
    });

    it('links to the profile when the refusal names a place off this site', async () => {
      const { user } = renderPricing({
        user: makeUser(),
        checkout: jsonResponse({ message: alreadySubscribed, manageUrl: 'https://evil.example/' }, 409),
      });

      await user.click(await button('Basic', 'Choose Basic'));

      const link = within(await screen.findByRole('alert')).getByRole('link', {
        name: 'Go to Manage Billing',
      });
      expect(link.getAttribute('href')).toBe('/profile');
    });

    it('clears the refusal when another plan is chosen', async () => {
      vi.spyOn(window.location, 'assign').mockImplementation(() => undefined);
      let refuse = true;
      const { user } = renderPricing({
        user: makeUser(),
        checkout: () =>
          refuse
            ? jsonResponse({ message: alreadySubscribed, manageUrl: '/profile' }, 409)
            : jsonResponse({ url: 'https://checkout.stripe.test/session', destination: 'checkout' }),
      });

      await user.click(await button('Basic', 'Choose Basic'));
      await screen.findByRole('alert');
      refuse = false;
      await user.click(await button('Premium', 'Choose Premium'));

      await waitFor(() => expect(screen.queryByText(alreadySubscribed)).toBeNull());
    });
  });

  describe('a plan chosen before signing in', () => {
    const intentPath = '/pricing?subscribe=premium&cycle=yearly';

    it('starts Checkout for it once the user is signed in, once, and drops it from the address', async () => {
      const assign = vi.spyOn(window.location, 'assign').mockImplementation(() => undefined);
      const { router, checkoutBodies } = renderPricing({ user: makeUser(), path: intentPath });

      await waitFor(() => expect(assign).toHaveBeenCalledWith('https://checkout.stripe.test/session'));
      expect(checkoutBodies()).toEqual([{ planId: 'premium', billingCycle: 'yearly' }]);
      expect(screen.getByRole('radio', { name: 'Yearly' }).getAttribute('aria-checked')).toBe('true');
      expect(router.location.pathname).toBe('/pricing');
      expect(router.location.search).toBe('');
      expect(await button('Premium', 'Redirecting...')).toHaveProperty('disabled', true);
      expect(checkoutBodies()).toHaveLength(1);
    });

    it("opens the portal's confirm step for it when the user has a subscription", async () => {
      vi.spyOn(window.location, 'assign').mockImplementation(() => undefined);
      const { portalBodies, checkoutBodies } = renderPricing({ user: makeSubscriber(), path: intentPath });

      await waitFor(() => expect(portalBodies()).toEqual([{ planId: 'premium', billingCycle: 'yearly' }]));
      expect(checkoutBodies()).toEqual([]);
    });

    it('starts nothing when it is the plan and cycle the user already has', async () => {
      const { router, fetchMock } = renderPricing({
        user: makeSubscriber({ subscriptionPlanId: 'premium', billingCycle: 'yearly' }),
        path: intentPath,
      });

      await waitFor(() => expect(router.location.search).toBe(''));
      expect(await button('Premium', 'Current Plan')).toHaveProperty('disabled', true);
      expect(fetchMock.mock.calls.some(([url]) => String(url).includes('/api/stripe/'))).toBe(false);
    });

    it('starts nothing when the plan has no price for the cycle', async () => {
      const { router, fetchMock } = renderPricing({
        user: makeUser(),
        plans: plansPricedFor('basic_yearly', 'premium_monthly'),
        path: intentPath,
      });

      await waitFor(() => expect(router.location.search).toBe(''));
      expect((await card('Premium')).getByText('Not offered on yearly billing')).toBeDefined();
      expect(fetchMock.mock.calls.some(([url]) => String(url).includes('/api/stripe/'))).toBe(false);
    });

    it('shows a visitor its cycle and starts nothing', async () => {
      const { router, fetchMock } = renderPricing({ path: intentPath });

      expect((await screen.findByRole('radio', { name: 'Yearly' })).getAttribute('aria-checked')).toBe(
        'true',
      );
      expect(await button('Premium', 'Choose Premium')).toHaveProperty('disabled', false);
      expect(router.location.search).toBe('?subscribe=premium&cycle=yearly');
      expect(fetchMock.mock.calls.some(([url]) => String(url).includes('/api/stripe/'))).toBe(false);
    });
  });
});

import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, type MockResponse, mockFetch } from '@/testing/mock-fetch';
import { findToast, renderApp } from '@/testing/render';

const plan = (overrides: Record<string, unknown> = {}) => ({
  id: 'premium',
  name: 'Premium',
  description: 'For power users',
  weeklyPrice: 6,
  monthlyPrice: 20,
  yearlyPrice: 200,
  weeklyPriceId: 'price_w',
  monthlyPriceId: 'price_m',
  yearlyPriceId: null,
  maxGenerations: 100,
  generationsNumber: 5,
  features: ['Private tracks', 'Downloads'],
  isActive: true,
  commercialUse: true,
  stemsFour: true,
  stemsSix: true,
  sortOrder: 2,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  ...overrides,
});

function renderPlans(routes: Record<string, MockResponse> = {}) {
  const fetchMock = mockFetch({
    'GET /api/admin/user': jsonResponse({ username: 'root', role: 'admin' }),
    'GET /api/admin/plans': jsonResponse([
      plan(),
      plan({ id: 'old', name: 'Old', isActive: false, commercialUse: false }),
    ]),
    ...routes,
  });
  const bodies = (method: string, path: string) =>
    fetchMock.mock.calls
      .filter(([u, init]) => String(u) === path && init?.method === method)
      .map(([, init]) => JSON.parse(String(init?.body)));
  return { ...renderApp('/admin/plans'), fetchMock, bodies };
}

afterEach(() => vi.unstubAllGlobals());

describe('Subscription Plans', () => {
  it('shows every plan with prices, quotas, features, price ids and whether it is active', async () => {
    renderPlans();
    const premium = within(await screen.findByRole('article', { name: 'Premium' }));
    expect(premium.getByText('Active')).toBeDefined();
    expect(premium.getByText('Sort order: 2')).toBeDefined();
    expect(premium.getByText('$20')).toBeDefined();
    expect(premium.getByText('100')).toBeDefined();
    expect(premium.getByText('Downloads')).toBeDefined();
    expect(premium.getByText('price_m')).toBeDefined();
    expect(premium.getByText('not set')).toBeDefined();
    expect(within(screen.getByRole('article', { name: 'Old' })).getByText('Inactive')).toBeDefined();
  });

  it('says whether tracks made on each plan may be used commercially', async () => {
    renderPlans();
    const commercialUse = (name: string) =>
      within(screen.getByRole('article', { name })).getByText('Commercial use', { selector: 'dt' })
        .nextElementSibling?.textContent;

    await screen.findByRole('article', { name: 'Premium' });

    expect(commercialUse('Premium')).toBe('Allowed');
    expect(commercialUse('Old')).toBe('Personal use only');
  });

  it('saves the Commercial use switch: off for a new plan until turned on, as the plan has it on an edit', async () => {
    const { user, bodies } = renderPlans({
      'POST /api/admin/plans': jsonResponse(plan({ id: 'new', name: 'Label' }), 201),
      'PUT /api/admin/plans/premium': jsonResponse(plan({ commercialUse: false })),
    });
    await screen.findByRole('article', { name: 'Premium' });

    await user.click(screen.getByRole('button', { name: 'Create Plan' }));
    const create = within(screen.getByRole('dialog', { name: 'Create Plan' }));
    const newSwitch = create.getByRole('switch', { name: 'Commercial use' });
    expect(newSwitch.getAttribute('aria-checked')).toBe('false');
    expect(newSwitch.getAttribute('aria-describedby')).toBeTruthy();
    await user.type(create.getByLabelText('Name'), 'Label');
    await user.click(newSwitch);
    await user.click(create.getByRole('button', { name: 'Create Plan' }));
    expect(within(await findToast()).getByText('Plan Created')).toBeDefined();
    expect(bodies('POST', '/api/admin/plans')[0]).toMatchObject({ name: 'Label', commercialUse: true });

    await user.click(screen.getByRole('button', { name: 'Edit Premium' }));
    const edit = within(screen.getByRole('dialog', { name: 'Edit Plan' }));
    const editSwitch = edit.getByRole('switch', { name: 'Commercial use' });
    expect(editSwitch.getAttribute('aria-checked')).toBe('true');
    await user.click(editSwitch);
    await user.click(edit.getByRole('button', { name: 'Update Plan' }));
    expect(await screen.findByText('Plan Updated')).toBeDefined();
    expect(bodies('PUT', '/api/admin/plans/premium')[0]).toMatchObject({
      name: 'Premium',
      commercialUse: false,
    });
  });

  it('saves the Stems switches: 4 stems on and 6 off for a new plan, as the plan has them on an edit', async () => {
    const { user, bodies } = renderPlans({
      'POST /api/admin/plans': jsonResponse(plan({ id: 'new', name: 'Label' }), 201),
      'PUT /api/admin/plans/premium': jsonResponse(plan()),
    });
    await screen.findByRole('article', { name: 'Premium' });

    await user.click(screen.getByRole('button', { name: 'Create Plan' }));
    const create = within(screen.getByRole('dialog', { name: 'Create Plan' }));
    const stems = within(create.getByRole('group', { name: 'Stems' }));
    expect(stems.getByRole('switch', { name: /^4 stems/ }).getAttribute('aria-checked')).toBe('true');
    expect(stems.getByRole('switch', { name: /^6 stems/ }).getAttribute('aria-checked')).toBe('false');
    await user.type(create.getByLabelText('Name'), 'Label');
    await user.click(stems.getByRole('switch', { name: /^6 stems/ }));
    await user.click(create.getByRole('button', { name: 'Create Plan' }));
    expect(within(await findToast()).getByText('Plan Created')).toBeDefined();
    expect(bodies('POST', '/api/admin/plans')[0]).toMatchObject({ stemsFour: true, stemsSix: true });

    await user.click(screen.getByRole('button', { name: 'Edit Premium' }));
    const edit = within(screen.getByRole('dialog', { name: 'Edit Plan' }));
    const editStems = within(edit.getByRole('group', { name: 'Stems' }));
    expect(editStems.getByRole('switch', { name: /^6 stems/ }).getAttribute('aria-checked')).toBe('true');
    await user.click(editStems.getByRole('switch', { name: /^4 stems/ }));
    await user.click(edit.getByRole('button', { name: 'Update Plan' }));
    expect(await screen.findByText('Plan Updated')).toBeDefined();
    expect(bodies('PUT', '/api/admin/plans/premium')[0]).toMatchObject({ stemsFour: false, stemsSix: true });
  });

  it('shows and saves API access: on for a new plan and for a plan stored without the setting, off as the plan has it', async () => {
    const { user, bodies } = renderPlans({
      'GET /api/admin/plans': jsonResponse([plan(), plan({ id: 'old', name: 'Old', apiAccess: false })]),
      'POST /api/admin/plans': jsonResponse(plan({ id: 'new', name: 'Label' }), 201),
      'PUT /api/admin/plans/old': jsonResponse(plan({ id: 'old', name: 'Old', apiAccess: true })),
    });
    const apiAccess = (name: string) =>
      within(screen.getByRole('article', { name })).getByText('API access', { selector: 'dt' })
        .nextElementSibling?.textContent;
    await screen.findByRole('article', { name: 'Premium' });
    // Premium's record has no apiAccess (stored before the setting): it reads as on.
    expect(apiAccess('Premium')).toBe('Included');
    expect(apiAccess('Old')).toBe('Not included');

    await user.click(screen.getByRole('button', { name: 'Create Plan' }));
    const create = within(screen.getByRole('dialog', { name: 'Create Plan' }));
    const newSwitch = create.getByRole('switch', { name: 'API access' });
    expect(newSwitch.getAttribute('aria-checked')).toBe('true');
    await user.type(create.getByLabelText('Name'), 'Label');
    await user.click(newSwitch);
    await user.click(create.getByRole('button', { name: 'Create Plan' }));
    expect(within(await findToast()).getByText('Plan Created')).toBeDefined();
    expect(bodies('POST', '/api/admin/plans')[0]).toMatchObject({ name: 'Label', apiAccess: false });

    await user.click(screen.getByRole('button', { name: 'Edit Old' }));
    const edit = within(screen.getByRole('dialog', { name: 'Edit Plan' }));
    const editSwitch = edit.getByRole('switch', { name: 'API access' });
    expect(editSwitch.getAttribute('aria-checked')).toBe('false');
    await user.click(editSwitch);
    await user.click(edit.getByRole('button', { name: 'Update Plan' }));
    expect(await screen.findByText('Plan Updated')).toBeDefined();
    expect(bodies('PUT', '/api/admin/plans/old')[0]).toMatchObject({ name: 'Old', apiAccess: true });
  });

  it("writes each plan's figures as a valid description list (a term and its value in a div of the list)", async () => {
    renderPlans();
    const premium = await screen.findByRole('article', { name: 'Premium' });

    const items = premium.querySelectorAll('dt, dd');
    expect(items.length).toBeGreaterThan(0);
    for (const item of items) {
      const parent = item.parentElement;
      const list = parent?.tagName === 'DL' ? parent : parent?.parentElement;
      expect([item.textContent, list?.tagName]).toEqual([item.textContent, 'DL']);
    }
  });

  it('shows the empty state with a create button', async () => {
    renderPlans({ 'GET /api/admin/plans': jsonResponse([]) });
    expect(await screen.findByText('No subscription plans')).toBeDefined();
    expect(screen.getAllByRole('button', { name: 'Create Plan' }).length).toBeGreaterThan(0);
  });

  it('creates a plan with the form defaults and the placeholders of the spec', async () => {
    const { user, bodies } = renderPlans({
      'POST /api/admin/plans': jsonResponse(plan({ id: 'new', name: 'Studio' }), 201),
    });
    await screen.findByRole('article', { name: 'Premium' });
    await user.click(screen.getByRole('button', { name: 'Create Plan' }));
    const dialog = within(screen.getByRole('dialog', { name: 'Create Plan' }));
    expect(dialog.getByLabelText('Weekly Price ($)').getAttribute('placeholder')).toBe('2.99');
    expect(dialog.getByLabelText('Monthly Price ($)').getAttribute('placeholder')).toBe('9.99');
    expect(dialog.getByLabelText('Yearly Price ($)').getAttribute('placeholder')).toBe('99.99');

    await user.click(dialog.getByRole('button', { name: 'Create Plan' }));
    expect(await dialog.findByText('Name is required')).toBeDefined();
    await user.type(dialog.getByLabelText('Name'), 'Studio');
    await user.type(dialog.getByLabelText('Monthly Price ($)'), '9.999');
    await user.click(dialog.getByRole('button', { name: 'Create Plan' }));
    expect(
      await dialog.findByText('Prices must be numbers of at most 10 digits with 2 decimals.'),
    ).toBeDefined();
    await user.clear(dialog.getByLabelText('Monthly Price ($)'));
    await user.type(dialog.getByLabelText('Monthly Price ($)'), '9.99');
    await user.type(dialog.getByLabelText('Features (one per line)'), 'Stems{Enter}Priority');
    await user.click(dialog.getByRole('button', { name: 'Create Plan' }));

    expect(within(await findToast()).getByText('Plan Created')).toBeDefined();
    expect(bodies('POST', '/api/admin/plans')[0]).toMatchObject({
      name: 'Studio',
      monthlyPrice: 9.99,
      weeklyPrice: 0,
      maxGenerations: 5,
      generationsNumber: 5,
      sortOrder: 0,
      features: ['Stems', 'Priority'],
      isActive: true,
      commercialUse: false,
    });
  });

  it('says before saving a price edit that new subscribers pay it and existing ones keep theirs; price ids are not typed', async () => {
    const { user } = renderPlans({
      'PUT /api/admin/plans/premium': jsonResponse(plan({ monthlyPrice: 24, monthlyPriceId: 'price_m2' })),
    });
    await screen.findByRole('article', { name: 'Premium' });
    await user.click(screen.getByRole('button', { name: 'Edit Premium' }));
    const dialog = within(screen.getByRole('dialog', { name: 'Edit Plan' }));
    expect(dialog.queryByRole('status')).toBeNull();
    expect(dialog.getByLabelText('Monthly Price ID').hasAttribute('readonly')).toBe(true);

    await user.clear(dialog.getByLabelText('Monthly Price ($)'));
    await user.type(dialog.getByLabelText('Monthly Price ($)'), '24');
    expect(dialog.getByRole('status').textContent).toBe(
      'New subscribers pay $24 per month. Existing subscribers keep the price they pay now until they change plan.',
    );
    await user.clear(dialog.getByLabelText('Monthly Price ($)'));
    await user.type(dialog.getByLabelText('Monthly Price ($)'), '20');
    expect(dialog.queryByRole('status')).toBeNull();
  });

  it('deletes after the browser confirm and shows the server refusal', async () => {
    const confirm = vi.fn().mockReturnValueOnce(false).mockReturnValueOnce(true);
    vi.stubGlobal('confirm', confirm);
    const { user, fetchMock } = renderPlans({
      'DELETE /api/admin/plans/premium': jsonResponse({ message: 'A user is on this plan.' }, 409),
    });
    await user.click(await screen.findByRole('button', { name: 'Delete Premium' }));
    expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'DELETE')).toBe(false);
    await user.click(screen.getByRole('button', { name: 'Delete Premium' }));
    const toast = within(await findToast());
    expect(toast.getByText('Error')).toBeDefined();
    expect(toast.getByText('A user is on this plan.')).toBeDefined();
    expect(confirm).toHaveBeenCalledTimes(2);
  });
});

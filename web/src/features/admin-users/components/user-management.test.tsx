import { screen, waitFor, within } from '@testing-library/react';
import type { AdminUserView } from '@tunesmith/shared/admin';
import { afterEach, describe, expect, it } from 'vitest';
import { paidStems, seedStems } from '@/testing/fixtures';
import { jsonResponse, type MockResponse, mockFetch } from '@/testing/mock-fetch';
import { findToast, renderApp } from '@/testing/render';
import { DEFAULT_WINDOW_WIDTH, setWindowWidth } from '@/testing/viewport';

const admin = { username: 'root', role: 'admin' };

const aUser = (overrides: Partial<AdminUserView> = {}): AdminUserView => ({
  id: 'u1',
  email: 'ada@example.com',
  firstName: 'Ada',
  lastName: 'Lovelace',
  emailVerified: true,
  planStatus: 'free',
  subscriptionPlanId: null,
  subscriptionPlan: null,
  generationCount: 2,
  planStartDate: null,
  planEndDate: null,
  hasStripeSubscription: false,
  entitlements: { paid: false, weeklyLimit: 5, canPrivate: false, canDownload: false, stems: seedStems() },
  createdAt: '2026-03-15T12:00:00.000Z',
  ...overrides,
});

const premiumLimits = {
  paid: true,
  weeklyLimit: 100,
  canPrivate: true,
  canDownload: true,
  stems: paidStems(),
};

const plans = [
  { id: 'free', name: 'Free', isActive: true },
  { id: 'premium', name: 'Premium', isActive: true },
  { id: 'old', name: 'Old', isActive: false },
].map((p) => ({
  description: null,
  weeklyPrice: p.id === 'free' ? 0 : 5,
  monthlyPrice: p.id === 'free' ? 0 : 20,
  yearlyPrice: p.id === 'free' ? 0 : 200,
  weeklyPriceId: null,
  monthlyPriceId: null,
  yearlyPriceId: null,
  maxGenerations: p.id === 'premium' ? 100 : 5,
  generationsNumber: 5,
  features: [],
  sortOrder: 0,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  ...p,
}));

function renderUsers(routes: Record<string, MockResponse> = {}) {
  const fetchMock = mockFetch({
    'GET /api/admin/user': jsonResponse(admin),
    'GET /api/admin/regular-users': jsonResponse({
      users: [
        aUser(),
        aUser({
          id: 'u2',
          email: 'grace@example.com',
          firstName: 'Grace',
          lastName: 'Hopper',
          emailVerified: false,
          planStatus: 'active',
          subscriptionPlanId: 'premium',
          subscriptionPlan: { name: 'Premium', maxGenerations: 100 },
          entitlements: premiumLimits,
          generationCount: 7,
        }),
        aUser({
          id: 'u3',
          email: 'joan@example.com',
          firstName: 'Joan',
          lastName: 'Clarke',
          planStatus: 'inactive',
          subscriptionPlanId: 'premium',
          subscriptionPlan: { name: 'Premium', maxGenerations: 100 },
          hasStripeSubscription: true,
          generationCount: 0,
          suspended: true,
        }),
      ],
      total: 3,
      nextCursor: null,
    }),
    'GET /api/admin/plans': jsonResponse(plans),
    ...routes,
  });
  const bodies = (method: string, path: string) =>
    fetchMock.mock.calls
      .filter(([u, init]) => String(u).startsWith(path) && (init?.method ?? 'GET') === method)
      .map(([, init]) => JSON.parse(String(init?.body ?? '{}')));
  return { ...renderApp('/admin/users'), fetchMock, bodies };
}

const row = async (name: string) => {
  const cell = await screen.findByText(name);
  return within(cell.closest('tr') as HTMLElement);
};

afterEach(() => setWindowWidth(DEFAULT_WINDOW_WIDTH));

describe('User Management', () => {
  it('shows each user with verification, plan, usage and join date, and the total', async () => {
    renderUsers();
    const ada = await row('Ada Lovelace');
    expect(ada.getByText('ada@example.com')).toBeDefined();
    expect(ada.getByText('Verified')).toBeDefined();
    expect(ada.getByText('Free Plan')).toBeDefined();
    expect(ada.getByText('2')).toBeDefined();
    expect(ada.getByText('Mar 15, 2026')).toBeDefined();
    const grace = await row('Grace Hopper');
    expect(grace.getByText('Unverified')).toBeDefined();
    expect(grace.getByText('Premium')).toBeDefined();
    expect(grace.getByText('Active')).toBeDefined();
    expect(grace.getByText('7/100')).toBeDefined();
    expect(screen.getByLabelText('3 users in total')).toBeDefined();
  });

  it("counts a past-due subscriber's quota as their profile does: the plan's name with the free limits", async () => {
    renderUsers();
    const joan = await row('Joan Clarke');
    expect(joan.getByText('Premium')).toBeDefined();
    expect(joan.getByText('Inactive')).toBeDefined();
    expect(joan.getByText('0/5')).toBeDefined();
    expect(joan.queryByText('0/100')).toBeNull();
  });

  it('marks a suspended user, with the way to the Reports page where it is lifted', async () => {
    const { user, router } = renderUsers({ 'GET /api/admin/reports': jsonResponse({ reports: [] }) });
    const joan = await row('Joan Clarke');
    expect((await row('Ada Lovelace')).queryByText('Suspended (see Reports)')).toBeNull();
    await user.click(joan.getByRole('link', { name: 'Suspended (see Reports)' }));
    await waitFor(() => expect(router.location.pathname).toBe('/admin/reports'));
  });

  it('shows the plan of a user who pays through Stripe with the reason it cannot be changed here, and sends nothing', async () => {
    const { user, bodies } = renderUsers();
    await user.click((await row('Joan Clarke')).getByRole('button', { name: 'Manage plan of Joan Clarke' }));
    const dialog = within(screen.getByRole('dialog', { name: 'Manage Plan' }));

    const reason = dialog.getByText(
      'This user pays through Stripe. Their plan follows the subscription: change or cancel it in Stripe first.',
    );
    const select = dialog.getByLabelText('Plan') as HTMLSelectElement;
    await waitFor(() => expect(select.value).toBe('premium'));
    expect(select.disabled).toBe(true);
    expect(select.getAttribute('aria-describedby')?.split(' ')).toContain(reason.id);
    expect(dialog.getByText(/^Status: Inactive/)).toBeDefined();
    expect(dialog.queryByRole('radio')).toBeNull();
    const update = dialog.getByRole('button', { name: 'Update Plan' }) as HTMLButtonElement;
    expect(update.disabled).toBe(true);

    await user.click(update);
    await user.click(dialog.getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(bodies('PUT', '/api/admin/regular-users/u3/plan')).toEqual([]);
  });

  it('says when no user matches, and searches on the server', async () => {
    const { fetchMock } = renderUsers({
      'GET /api/admin/regular-users': (request) =>
        jsonResponse({
          users: new URL(request.url).searchParams.get('q') ? [] : [aUser()],
          total: 1,
          nextCursor: null,
        }),
    });
    const { user } = { user: (await import('@testing-library/user-event')).default.setup() };
    await row('Ada Lovelace');
    await user.type(screen.getByLabelText('Search users by name or email'), 'zed');
    expect(await screen.findByText('No users found')).toBeDefined();
    expect(fetchMock.mock.calls.some(([u]) => String(u).includes('q=zed'))).toBe(true);
  });

  it('sends only the changed fields from the edit dialog, and closes without a call when nothing changed', async () => {
    const { user, bodies } = renderUsers({
      'PUT /api/admin/regular-users/u1': jsonResponse(aUser({ lastName: 'King' })),
    });
    await user.click((await row('Ada Lovelace')).getByRole('button', { name: 'Edit Ada Lovelace' }));
    let dialog = within(screen.getByRole('dialog', { name: 'Edit User' }));
    await user.click(dialog.getByRole('button', { name: 'Save Changes' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(bodies('PUT', '/api/admin/regular-users/u1')).toEqual([]);

    await user.click((await row('Ada Lovelace')).getByRole('button', { name: 'Edit Ada Lovelace' }));
    dialog = within(screen.getByRole('dialog', { name: 'Edit User' }));
    await user.clear(dialog.getByLabelText('First Name'));
    await user.click(dialog.getByRole('button', { name: 'Save Changes' }));
    expect(await dialog.findByText('First name is required')).toBeDefined();
    await user.type(dialog.getByLabelText('First Name'), 'Ada');
    await user.clear(dialog.getByLabelText('Last Name'));
    await user.type(dialog.getByLabelText('Last Name'), 'King');
    await user.click(dialog.getByRole('button', { name: 'Save Changes' }));

    expect(within(await findToast()).getByText('User Updated')).toBeDefined();
    expect(bodies('PUT', '/api/admin/regular-users/u1')).toEqual([{ lastName: 'King' }]);
  });

  it('toggles verification and says when it fails', async () => {
    const { user, bodies } = renderUsers({
      'PUT /api/admin/regular-users/u2': () => new Response('', { status: 500 }),
    });
    await user.click(
      (await row('Grace Hopper')).getByRole('switch', { name: 'Email verified for Grace Hopper' }),
    );
    const toast = within(await findToast());
    expect(toast.getByText('Update Failed')).toBeDefined();
    expect(toast.getByText('Failed to update email verification status')).toBeDefined();
    expect(bodies('PUT', '/api/admin/regular-users/u2')).toEqual([{ emailVerified: true }]);
  });

  it('prefills the plan dialog, offers only active plans, and sends Free Plan as no plan', async () => {
    const { user, bodies } = renderUsers({
      'PUT /api/admin/regular-users/u2/plan': jsonResponse(aUser({ id: 'u2' })),
    });
    await user.click(
      (await row('Grace Hopper')).getByRole('button', { name: 'Manage plan of Grace Hopper' }),
    );
    const dialog = within(screen.getByRole('dialog', { name: 'Manage Plan' }));
    const select = dialog.getByLabelText('Plan') as HTMLSelectElement;
    await waitFor(() => expect(select.value).toBe('premium'));
    expect([...select.options].map((o) => o.textContent)).toEqual(['Free Plan', 'Premium']);
    expect(dialog.getByRole('radio', { name: 'Active' }).getAttribute('aria-checked')).toBe('true');

    await user.selectOptions(select, 'Free Plan');
    await user.click(dialog.getByRole('button', { name: 'Update Plan' }));
    expect(within(await findToast()).getByText('Plan Updated')).toBeDefined();
    expect(bodies('PUT', '/api/admin/regular-users/u2/plan')).toEqual([{ planId: null, status: 'free' }]);
  });

  it('deletes only after confirmation', async () => {
    const { user, fetchMock } = renderUsers({
      'DELETE /api/admin/regular-users/u1': () => new Response(null, { status: 204 }),
    });
    await user.click((await row('Ada Lovelace')).getByRole('button', { name: 'Delete Ada Lovelace' }));
    const dialog = within(screen.getByRole('alertdialog', { name: 'Delete this user?' }));
    await user.click(dialog.getByRole('button', { name: 'Cancel' }));
    expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'DELETE')).toBe(false);

    await user.click((await row('Ada Lovelace')).getByRole('button', { name: 'Delete Ada Lovelace' }));
    await user.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Delete User' }));
    expect(within(await findToast()).getByText('User Deleted')).toBeDefined();
  });

  it('on a phone, shows each user as a card with every field and every action, and no table', async () => {
    setWindowWidth(390);
    const { user } = renderUsers({
      'PUT /api/admin/regular-users/u2': jsonResponse(
        aUser({ id: 'u2', email: 'grace@example.com', firstName: 'Grace', lastName: 'Hopper' }),
      ),
    });

    const card = within(await screen.findByRole('article', { name: 'Grace Hopper' }));
    expect(screen.queryByRole('table')).toBeNull();
    expect(screen.getAllByRole('article').map((article) => article.getAttribute('aria-label'))).toEqual([
      'Ada Lovelace',
      'Grace Hopper',
      'Joan Clarke',
    ]);
    expect(card.getByText('grace@example.com')).toBeDefined();
    const field = (label: string) =>
      card.getByText(label, { selector: 'dt' }).nextElementSibling as HTMLElement;
    expect(within(field('Email Status')).getByText('Unverified')).toBeDefined();
    expect(within(field('Subscription')).getByText('Premium')).toBeDefined();
    expect(within(field('Subscription')).getByText('Active')).toBeDefined();
    expect(field('Generations').textContent).toBe('7/100');
    expect(field('Joined').textContent).toBe('Mar 15, 2026');

    await user.click(card.getByRole('switch', { name: 'Email verified for Grace Hopper' }));
    expect(within(await findToast()).getByText('Email Status Updated')).toBeDefined();
    await user.click(card.getByRole('button', { name: 'Edit Grace Hopper' }));
    expect(screen.getByRole('dialog', { name: 'Edit User' })).toBeDefined();
    await user.keyboard('{Escape}');
    await user.click(card.getByRole('button', { name: 'Manage plan of Grace Hopper' }));
    expect(screen.getByRole('dialog', { name: 'Manage Plan' })).toBeDefined();
    await user.keyboard('{Escape}');
    await user.click(card.getByRole('button', { name: 'Delete Grace Hopper' }));
    expect(screen.getByRole('alertdialog', { name: 'Delete this user?' })).toBeDefined();
  });
});

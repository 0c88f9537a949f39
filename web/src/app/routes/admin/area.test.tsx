import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { deferredResponse, jsonResponse, type MockResponse, mockFetch } from '@/testing/mock-fetch';
import { findToast, renderApp } from '@/testing/render';

const admin = { username: 'root', role: 'admin' };
const signedOut = () => jsonResponse({ message: 'Unauthorized' }, 401);

function renderAdmin(path: string, routes: Record<string, MockResponse> = {}) {
  const fetchMock = mockFetch({ 'GET /api/admin/user': jsonResponse(admin), ...routes });
  const calls = (method: string, url: string) =>
    fetchMock.mock.calls.filter(([u, init]) => String(u) === url && (init?.method ?? 'GET') === method);
  return { ...renderApp(path), fetchMock, calls };
}

describe('admin area guard', () => {
  it.each(['/admin', '/admin/users', '/admin/settings'])(
    'sends a visitor at %s to /admin/login',
    async (path) => {
      const { router } = renderAdmin(path, { 'GET /api/admin/user': signedOut() });

      await waitFor(() => expect(router.location.pathname).toBe('/admin/login'));
      expect(await screen.findByRole('heading', { name: 'Admin Sign In' })).toBeDefined();
    },
  );

  it('shows a loading state while the session is checked, asking once without retrying', async () => {
    const answer = deferredResponse(() => signedOut());
    const { router, calls } = renderAdmin('/admin', { 'GET /api/admin/user': answer.handler });

    expect(await screen.findByText('Checking admin session')).toBeDefined();
    expect(router.location.pathname).toBe('/admin');
    answer.respond();

    await waitFor(() => expect(router.location.pathname).toBe('/admin/login'));
    expect(calls('GET', '/api/admin/user')).toHaveLength(1);
  });
});

describe('admin layout', () => {
  it('has the sections, the admin name and role, and no public header or footer', async () => {
    renderAdmin('/admin');

    const nav = within(await screen.findByRole('navigation', { name: 'Admin' }));
    const sections = nav.getAllByRole('link').map((link) => [link.textContent, link.getAttribute('href')]);
    expect(sections).toEqual([
      ['Dashboard', '/admin'],
      ['User Management', '/admin/users'],
      ['Subscription Plans', '/admin/plans'],
      ['Models', '/admin/models'],
      ['Music Tracks', '/admin/tracks'],
      ['Reports', '/admin/reports'],
      ['Site Settings', '/admin/settings'],
    ]);
    expect(nav.getByRole('link', { name: 'Dashboard' }).getAttribute('aria-current')).toBe('page');
    expect(screen.getByTestId('admin-username').textContent).toBe('root');
    expect(screen.getByTestId('admin-role').textContent).toBe('admin');
    expect(screen.queryByRole('banner')).toBeNull();
    expect(screen.queryByRole('contentinfo')).toBeNull();
    expect(await screen.findByRole('heading', { level: 1, name: 'Dashboard' })).toBeDefined();
  });

  it.each([
    ['/admin/users', 'User Management'],
    ['/admin/plans', 'Subscription Plans'],
    ['/admin/tracks', 'Music Tracks'],
    ['/admin/reports', 'Reports'],
    ['/admin/models', 'Models'],
    ['/admin/anything-else', 'Dashboard'],
  ])('shows %s as %s', async (path, title) => {
    renderAdmin(path);

    expect(await screen.findByRole('heading', { level: 1, name: title })).toBeDefined();
  });

  it('toggles the mobile menu', async () => {
    const { user } = renderAdmin('/admin');
    const toggle = await screen.findByRole('button', { name: 'Open menu' });

    await user.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    expect(screen.getByRole('complementary', { name: 'Admin sidebar' }).className).toContain('flex');

    await user.keyboard('{Escape}');
    expect(screen.getByRole('button', { name: 'Open menu' }).getAttribute('aria-expanded')).toBe('false');
  });

  it('signs out, forgets cached data and goes to /admin/login', async () => {
    const { user, router, calls, queryClient } = renderAdmin('/admin', {
      'POST /api/admin/logout': jsonResponse({ message: 'Logged out' }),
    });
    queryClient.setQueryData(['admin', 'users'], [{ id: 'u1' }]);

    await user.click(await screen.findByRole('button', { name: 'Sign Out' }));

    await waitFor(() => expect(router.location.pathname).toBe('/admin/login'));
    expect(await screen.findByRole('heading', { name: 'Admin Sign In' })).toBeDefined();
    expect(calls('POST', '/api/admin/logout')).toHaveLength(1);
    const init = calls('POST', '/api/admin/logout')[0]?.[1];
    expect(new Headers(init?.headers).get('Content-Type')).toBe('application/json');
    expect(queryClient.getQueryData(['admin', 'users'])).toBeUndefined();
    expect(queryClient.getQueryData(['admin', 'session'])).toBeNull();
  });

  it('says when signing out fails', async () => {
    const { user, router } = renderAdmin('/admin', {
      'POST /api/admin/logout': jsonResponse({ message: 'Something went wrong. Please try again.' }, 500),
    });

    await user.click(await screen.findByRole('button', { name: 'Sign Out' }));

    expect(within(await findToast()).getByText('Logout failed')).toBeDefined();
    expect(router.location.pathname).toBe('/admin');
  });
});

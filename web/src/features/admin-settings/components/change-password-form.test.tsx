import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { jsonResponse, type MockResponse, mockFetch } from '@/testing/mock-fetch';
import { findToast, renderApp } from '@/testing/render';

const admin = { username: 'root', role: 'admin' };

function renderSecurity(routes: Record<string, MockResponse> = {}) {
  const fetchMock = mockFetch({ 'GET /api/admin/user': jsonResponse(admin), ...routes });
  const calls = (method: string, url: string) =>
    fetchMock.mock.calls.filter(([u, init]) => String(u) === url && (init?.method ?? 'GET') === method);
  return { ...renderApp('/admin/settings?tab=security'), fetchMock, calls };
}

async function securityForm() {
  return within(await screen.findByRole('form', { name: 'Change admin password' }));
}

async function submit(
  user: ReturnType<typeof renderApp>['user'],
  values: { current?: string; next?: string; confirm?: string },
) {
  const form = await securityForm();
  if (values.current) await user.type(form.getByLabelText('Current Password'), values.current);
  if (values.next) await user.type(form.getByLabelText('New Password'), values.next);
  if (values.confirm) await user.type(form.getByLabelText('Confirm New Password'), values.confirm);
  await user.click(form.getByRole('button', { name: 'Update Password' }));
  return form;
}

describe('site settings', () => {
  it('opens on General and switches to Security by its tab', async () => {
    mockFetch({ 'GET /api/admin/user': jsonResponse(admin), 'GET /api/admin/settings': jsonResponse([]) });
    const { user, router } = renderApp('/admin/settings');

    const general = await screen.findByRole('tab', { name: 'General' });
    expect(general.getAttribute('aria-selected')).toBe('true');

    await user.click(screen.getByRole('tab', { name: 'Security' }));
    expect(await screen.findByRole('form', { name: 'Change admin password' })).toBeDefined();
    expect(router.location.search).toBe('?tab=security');
  });
});

describe('change admin password', () => {
  it('warns that every session ends and marks the inputs required with 12 characters', async () => {
    renderSecurity();
    const form = await securityForm();

    expect(form.getByText(/logs out all active sessions/)).toBeDefined();
    expect(form.getByLabelText('Current Password').hasAttribute('required')).toBe(true);
    for (const label of ['New Password', 'Confirm New Password']) {
      expect(form.getByLabelText(label).hasAttribute('required')).toBe(true);
      expect(form.getByLabelText(label).getAttribute('minlength')).toBe('12');
    }
  });

  it('has a show/hide toggle for each field', async () => {
    const { user } = renderSecurity();
    const form = await securityForm();

    for (const [toggle, label] of [
      ['Show current password', 'Current Password'],
      ['Show new password', 'New Password'],
      ['Show confirm password', 'Confirm New Password'],
    ] as const) {
      await user.click(form.getByRole('button', { name: toggle }));
      expect(form.getByLabelText(label).getAttribute('type')).toBe('text');
    }
  });

  it('requires 12 characters and a matching confirmation', async () => {
    const { user, calls } = renderSecurity();

    const form = await submit(user, { current: 'old-secret', next: 'eleven-char', confirm: 'abd' });

    expect(form.getByText('New password must be at least 12 characters')).toBeDefined();
    expect(form.getByText('New passwords do not match')).toBeDefined();
    expect(calls('PUT', '/api/admin/change-password')).toHaveLength(0);
  });

  it('changes the password, forgets the session and goes to /admin/login', async () => {
    const { user, router, calls, queryClient } = renderSecurity({
      'PUT /api/admin/change-password': jsonResponse({
        message: 'Password changed. All admin sessions have been signed out.',
      }),
    });

    await submit(user, { current: 'old-secret', next: 'new-secret-long', confirm: 'new-secret-long' });

    await waitFor(() => expect(router.location.pathname).toBe('/admin/login'));
    expect(await screen.findByRole('heading', { name: 'Admin Sign In' })).toBeDefined();
    const toast = await findToast();
    expect(
      within(toast).getByText('Password changed. All admin sessions have been signed out.'),
    ).toBeDefined();
    expect(JSON.parse(String(calls('PUT', '/api/admin/change-password')[0]?.[1]?.body))).toEqual({
      currentPassword: 'old-secret',
      newPassword: 'new-secret-long',
      confirmPassword: 'new-secret-long',
    });
    expect(queryClient.getQueryData(['admin', 'session'])).toBeNull();
  });

  it('shows Failed to update password with the server message', async () => {
    const { user, router } = renderSecurity({
      'PUT /api/admin/change-password': jsonResponse({ message: 'Current password is incorrect' }, 400),
    });

    await submit(user, { current: 'wrong', next: 'new-secret-long', confirm: 'new-secret-long' });

    const toast = await findToast();
    expect(within(toast).getByText('Failed to update password')).toBeDefined();
    expect(within(toast).getByText('Current password is incorrect')).toBeDefined();
    expect(router.location.pathname).toBe('/admin/settings');
  });

  it('sends an admin whose session ended to /admin/login, having forgotten the session', async () => {
    const { user, router, queryClient } = renderSecurity({
      'PUT /api/admin/change-password': jsonResponse({ message: 'Unauthorized' }, 401),
    });

    await submit(user, { current: 'old-secret', next: 'new-secret-long', confirm: 'new-secret-long' });

    const toast = await findToast();
    expect(within(toast).getByText('Unauthorized')).toBeDefined();
    expect(router.location.pathname).toBe('/admin/settings');
    await waitFor(() => expect(router.location.pathname).toBe('/admin/login'));
    expect(await screen.findByRole('heading', { name: 'Admin Sign In' })).toBeDefined();
    expect(queryClient.getQueryData(['admin', 'session'])).toBeNull();
  });
});

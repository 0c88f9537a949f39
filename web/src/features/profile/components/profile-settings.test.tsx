import { act, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { User } from '@/lib/auth';
import { makeUser } from '@/testing/fixtures';
import { jsonResponse, type MockResponse } from '@/testing/mock-fetch';
import { findToast, type renderApp, renderAppAs } from '@/testing/render';

/** The profile page with a user whose record the server may change during the test. */
const renderProfile = (
  initial: User | null = makeUser(),
  routes: Record<string, MockResponse> = {},
  options: Parameters<typeof renderApp>[1] = {},
) => renderAppAs('/profile', initial, routes, options);

const main = () => within(screen.getByRole('main'));
const card = (title: string) =>
  within(screen.getByRole('heading', { level: 2, name: title }).closest('.rounded-2xl') as HTMLElement);

describe('profile page', () => {
  it('asks a visitor to sign in', async () => {
    renderProfile(null);

    expect(await main().findByText('Please sign in to access your profile')).toBeDefined();
    expect(main().getByRole('link', { name: 'Sign In' }).getAttribute('href')).toBe('/auth');
    expect(screen.queryByRole('form', { name: 'Update email' })).toBeNull();
  });

  it('shows the profile read-only', async () => {
    renderProfile();

    expect(await screen.findByRole('heading', { level: 1, name: 'Account Settings' })).toBeDefined();
    const info = card('Profile Information');
    for (const [label, value] of [
      ['First Name', 'Ada'],
      ['Last Name', 'Lovelace'],
      ['Current Email', 'ada@example.com'],
    ] as const) {
      const input = info.getByLabelText(label) as HTMLInputElement;
      expect(input.value).toBe(value);
      expect(input.readOnly).toBe(true);
    }
  });

  describe('update email', () => {
    it('requires a valid address and refuses the current one without a call', async () => {
      const { user, calls } = renderProfile();
      const form = within(await screen.findByRole('form', { name: 'Update email' }));

      await user.click(form.getByRole('button', { name: 'Update Email' }));
      expect(form.getByText('Please enter a valid email address')).toBeDefined();

      await user.type(form.getByLabelText('New Email'), ' ADA@example.com ');
      await user.type(form.getByLabelText('Current Password'), 'analytical-engine');
      await user.click(form.getByRole('button', { name: 'Update Email' }));
      expect(form.getByText('No changes made')).toBeDefined();
      expect(calls('PUT', '/api/user/email')).toHaveLength(0);
    });

    it('asks for the current password, then says a link went to the new address', async () => {
      const sent =
        'We sent a confirmation link to countess@example.com. Your email changes when you follow it; until then you sign in with your current address.';
      const { user, calls } = renderProfile(makeUser(), {
        'PUT /api/user/email': jsonResponse({ message: sent }, 202),
      });
      const form = within(await screen.findByRole('form', { name: 'Update email' }));
      expect(screen.getByText(/We send a confirmation link to the new address/)).toBeDefined();

      await user.type(form.getByLabelText('New Email'), 'countess@example.com');
      await user.click(form.getByRole('button', { name: 'Update Email' }));
      expect(form.getByText('Current password is required')).toBeDefined();
      expect(calls('PUT', '/api/user/email')).toHaveLength(0);

      await user.type(form.getByLabelText('Current Password'), 'analytical-engine');
      await user.click(form.getByRole('button', { name: 'Update Email' }));

      const toast = within(await findToast());
      expect(toast.getByText('Check your new inbox')).toBeDefined();
      expect(toast.getByText(sent)).toBeDefined();
      expect(JSON.parse(String(calls('PUT', '/api/user/email')[0]?.[1]?.body))).toEqual({
        newEmail: 'countess@example.com',
        currentPassword: 'analytical-engine',
      });
      // Nothing has changed yet: the profile still shows the current address.
      expect((card('Profile Information').getByLabelText('Current Email') as HTMLInputElement).value).toBe(
        makeUser().email,
      );
      expect((form.getByLabelText('New Email') as HTMLInputElement).value).toBe('');
      expect((form.getByLabelText('Current Password') as HTMLInputElement).value).toBe('');
    });

    it('shows Failed to update email with the server message', async () => {
      const { user } = renderProfile(makeUser(), {
        'PUT /api/user/email': jsonResponse({ message: 'An account with this email already exists.' }, 409),
      });
      const form = within(await screen.findByRole('form', { name: 'Update email' }));

      await user.type(form.getByLabelText('New Email'), 'taken@example.com');
      await user.type(form.getByLabelText('Current Password'), 'analytical-engine');
      await user.click(form.getByRole('button', { name: 'Update Email' }));

      const toast = await findToast();
      expect(within(toast).getByText('Failed to update email')).toBeDefined();
      expect(within(toast).getByText('An account with this email already exists.')).toBeDefined();
    });
  });

  describe('update password', () => {
    async function submitPasswords(
      user: ReturnType<typeof renderApp>['user'],
      current: string,
      next: string,
      confirm: string,
    ) {
      const form = within(await screen.findByRole('form', { name: 'Update password' }));
      if (current) await user.type(form.getByLabelText('Current Password'), current);
      if (next) await user.type(form.getByLabelText('New Password'), next);
      if (confirm) await user.type(form.getByLabelText('Confirm New Password'), confirm);
      await user.click(form.getByRole('button', { name: 'Update Password' }));
      return form;
    }

    it('requires all three fields', async () => {
      const { user, calls } = renderProfile();

      const form = await submitPasswords(user, '', '', '');

      expect(form.getByText('Current password is required')).toBeDefined();
      expect(form.getByText('Password too short')).toBeDefined();
      expect(form.getByText('Please confirm your password')).toBeDefined();
      expect(calls('PUT', '/api/user/password')).toHaveLength(0);
    });

    it('says Password mismatch when the confirmation differs', async () => {
      const { user, calls } = renderProfile();

      const form = await submitPasswords(user, 'old password', 'new password 1', 'new password 2');

      expect(form.getByText('Password mismatch')).toBeDefined();
      expect(form.queryByText('Password too short')).toBeNull();
      expect(calls('PUT', '/api/user/password')).toHaveLength(0);
    });

    it('says Password too short under 8 characters', async () => {
      const { user, calls } = renderProfile();

      const form = await submitPasswords(user, 'old password', 'short', 'short');

      expect(form.getByText('Password too short')).toBeDefined();
      expect(form.queryByText('Password mismatch')).toBeNull();
      expect(calls('PUT', '/api/user/password')).toHaveLength(0);
    });

    it('changes the password, confirms and clears the form', async () => {
      const { user, calls } = renderProfile(makeUser(), {
        'PUT /api/user/password': jsonResponse({ message: 'Password updated successfully' }),
      });

      const form = await submitPasswords(user, 'old password', 'new password', 'new password');

      expect(within(await findToast()).getByText('Password updated successfully')).toBeDefined();
      expect(JSON.parse(String(calls('PUT', '/api/user/password')[0]?.[1]?.body))).toEqual({
        currentPassword: 'old password',
        newPassword: 'new password',
      });
      for (const label of ['Current Password', 'New Password', 'Confirm New Password']) {
        expect((form.getByLabelText(label) as HTMLInputElement).value).toBe('');
      }
    });

    it('shows Failed to update password with the server message', async () => {
      const { user } = renderProfile(makeUser(), {
        'PUT /api/user/password': jsonResponse({ message: 'Current password is incorrect' }, 400),
      });

      const form = await submitPasswords(user, 'wrong password', 'new password', 'new password');

      const toast = await findToast();
      expect(within(toast).getByText('Failed to update password')).toBeDefined();
      expect(within(toast).getByText('Current password is incorrect')).toBeDefined();
      expect((form.getByLabelText('Current Password') as HTMLInputElement).value).toBe('wrong password');
    });
  });

  it('shows View Sessions as not available yet', async () => {
    renderProfile();

    const button = (await screen.findByRole('button', { name: 'View Sessions' })) as HTMLButtonElement;
    expect(button.disabled).toBe(true);
    expect(screen.getByText('Session management is coming soon').id).toBe(
      button.getAttribute('aria-describedby'),
    );
  });

  it('says the session ended and goes to /auth after 0.5 s when a call answers 401', async () => {
    // Load the sign-in page's code first: module loading takes real time.
    await import('@/app/routes/auth');
    const { user, router } = renderProfile(
      makeUser(),
      { 'PUT /api/user/password': jsonResponse({ message: 'Unauthorized' }, 401) },
      { userEvent: { advanceTimers: (ms) => (vi.isFakeTimers() ? vi.advanceTimersByTime(ms) : undefined) } },
    );
    const form = within(await screen.findByRole('form', { name: 'Update password' }));
    vi.useFakeTimers();
    await user.type(form.getByLabelText('Current Password'), 'old password');
    await user.type(form.getByLabelText('New Password'), 'new password');
    await user.type(form.getByLabelText('Confirm New Password'), 'new password');

    const started = Date.now();
    await user.click(form.getByRole('button', { name: 'Update Password' }));
    const region = screen.getByRole('region', { name: 'Notifications (F8)' });
    for (let i = 0; i < 20 && !within(region).queryByRole('status'); i++) {
      await act(() => vi.advanceTimersByTimeAsync(0));
    }
    expect(Date.now() - started).toBe(0);

    const toast = within(region).getByRole('status');
    expect(within(toast).getByText('Unauthorized')).toBeDefined();
    expect(within(toast).getByText('You are logged out. Logging in again...')).toBeDefined();

    await act(() => vi.advanceTimersByTimeAsync(499));
    expect(router.location.pathname).toBe('/profile');

    await act(() => vi.advanceTimersByTimeAsync(1));
    expect(router.location.pathname).toBe('/auth');
    // The session is forgotten, so the sign-in page stays instead of sending the user home.
    expect(await screen.findByRole('heading', { name: 'Get Started' })).toBeDefined();
    expect(router.location.pathname).toBe('/auth');
  });
});

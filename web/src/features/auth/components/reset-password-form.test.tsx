import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { anonymous, jsonResponse, type MockResponse, mockFetch } from '@/testing/mock-fetch';
import { findToast, renderApp } from '@/testing/render';

const TOKEN = 'Zm9vYmFyYmF6cXV4LXRva2VuX3ZhbHVlMTIzNDU2';

function openResetLink(token: string, routes: Record<string, MockResponse> = {}) {
  const fetchMock = mockFetch({ 'GET /api/auth/user': anonymous(), ...routes });
  return { ...renderApp(`/reset-password/${token}`), fetchMock };
}

const resetCalls = (fetchMock: ReturnType<typeof mockFetch>) =>
  fetchMock.mock.calls.filter(([url]) => String(url) === '/api/auth/reset-password');

async function fill(user: ReturnType<typeof renderApp>['user'], password: string, confirm: string) {
  const form = within(await screen.findByRole('form', { name: 'Set a new password' }));
  if (password) await user.type(form.getByLabelText('New Password'), password);
  if (confirm) await user.type(form.getByLabelText('Confirm Password'), confirm);
  await user.click(form.getByRole('button', { name: 'Reset Password' }));
  return form;
}

describe('reset-password page', () => {
  it('validates the new password and its confirmation', async () => {
    const { user, fetchMock } = openResetLink(TOKEN);

    const form = await fill(user, '', '');
    // The first check waits for the form's resolver code, asked for as the form mounted.
    expect(await form.findByText('Password must be at least 8 characters')).toBeDefined();
    expect(form.getByText('Please confirm your password')).toBeDefined();

    await user.type(form.getByLabelText('New Password'), 'long enough');
    await user.type(form.getByLabelText('Confirm Password'), 'different');
    await user.click(form.getByRole('button', { name: 'Reset Password' }));
    expect(form.getByText("Passwords don't match")).toBeDefined();
    expect(resetCalls(fetchMock)).toHaveLength(0);
  });

  it('has show/hide toggles for both fields', async () => {
    const { user } = openResetLink(TOKEN);
    const form = within(await screen.findByRole('form', { name: 'Set a new password' }));

    await user.click(form.getByRole('button', { name: 'Show new password' }));
    expect(form.getByLabelText('New Password').getAttribute('type')).toBe('text');
    expect(form.getByLabelText('Confirm Password').getAttribute('type')).toBe('password');
    await user.click(form.getByRole('button', { name: 'Show confirm password' }));
    expect(form.getByLabelText('Confirm Password').getAttribute('type')).toBe('text');
  });

  it.each(['short', 'has spaces in it and is long', 'abc$def%ghi^jkl&mno*pqr'])(
    'sends a malformed link (%s) back to /auth with a toast',
    async (token) => {
      const { router } = openResetLink(encodeURIComponent(token));

      await waitFor(() => expect(router.location.pathname).toBe('/auth'));
      const toast = await findToast();
      expect(within(toast).getByText('Invalid Reset Link')).toBeDefined();
      expect(within(toast).getByText('This password reset link is invalid or malformed.')).toBeDefined();
    },
  );

  it('sends the token and new password, then shows Password Reset Complete', async () => {
    const { user, fetchMock } = openResetLink(TOKEN, {
      'POST /api/auth/reset-password': jsonResponse({ message: 'Your password has been reset.' }),
    });
    expect((await screen.findByRole('link', { name: 'Back to Sign In' })).getAttribute('href')).toBe('/auth');

    await fill(user, 'brand new pass', 'brand new pass');

    expect(await screen.findByRole('heading', { level: 1, name: 'Password Reset Complete' })).toBeDefined();
    expect(screen.getByRole('link', { name: 'Go to Sign In' }).getAttribute('href')).toBe('/auth');
    expect(JSON.parse(String(resetCalls(fetchMock)[0]?.[1]?.body))).toEqual({
      token: TOKEN,
      newPassword: 'brand new pass',
    });
  });

  it.each([
    [
      jsonResponse({ message: 'This password reset link is invalid or has expired.' }, 400),
      'This password reset link is invalid or has expired.',
    ],
    [
      new Response('', { status: 500, statusText: 'Server Error' }),
      'Failed to reset password. The link may be expired.',
    ],
  ])('shows Reset Failed with the server message or the default', async (answer, text) => {
    const { user } = openResetLink(TOKEN, { 'POST /api/auth/reset-password': answer });

    await fill(user, 'brand new pass', 'brand new pass');

    const toast = await findToast();
    expect(within(toast).getByText('Reset Failed')).toBeDefined();
    expect(within(toast).getByText(text)).toBeDefined();
    expect(screen.queryByRole('heading', { name: 'Password Reset Complete' })).toBeNull();
  });
});

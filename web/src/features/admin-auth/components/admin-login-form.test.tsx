import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { deferredResponse, jsonResponse, type MockResponse, mockFetch } from '@/testing/mock-fetch';
import { findToast, renderApp } from '@/testing/render';

const admin = { username: 'root', role: 'admin' };
const signedOut = () => jsonResponse({ message: 'Unauthorized' }, 401);

function renderAdmin(path: string, routes: Record<string, MockResponse> = {}) {
  const fetchMock = mockFetch({ 'GET /api/admin/user': signedOut(), ...routes });
  const calls = (method: string, url: string) =>
    fetchMock.mock.calls.filter(([u, init]) => String(u) === url && (init?.method ?? 'GET') === method);
  return { ...renderApp(path), fetchMock, calls };
}

async function loginForm() {
  return within(await screen.findByRole('form', { name: 'Admin sign in' }));
}

const setupStep = {
  secondFactor: 'setup',
  secret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
  otpauthUri: 'otpauth://totp/Tunesmith:root?secret=JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP&issuer=Tunesmith',
};

/** Signs in with the password; the answer (`login`) decides the next step. */
async function passwordStep(user: ReturnType<typeof renderAdmin>['user']) {
  const form = await loginForm();
  await user.type(form.getByLabelText('Username'), 'root');
  await user.type(form.getByLabelText('Password'), 'a long secret');
  await user.click(form.getByRole('button', { name: 'Sign In' }));
}

const codeBody = (calls: ReturnType<typeof renderAdmin>['calls']) =>
  calls('POST', '/api/admin/login/code').map(([, init]) => JSON.parse(String(init?.body)));

describe('admin login', () => {
  it('shows the form without the public header and footer', async () => {
    renderAdmin('/admin/login');

    expect(await screen.findByRole('heading', { level: 1, name: 'Admin Sign In' })).toBeDefined();
    expect(screen.queryByRole('banner')).toBeNull();
    expect(screen.queryByRole('contentinfo')).toBeNull();
  });

  it('requires a username and a password', async () => {
    const { user, calls } = renderAdmin('/admin/login');
    const form = await loginForm();

    await user.click(form.getByRole('button', { name: 'Sign In' }));

    expect(form.getByText('Username is required')).toBeDefined();
    expect(form.getByText('Password is required')).toBeDefined();
    expect(calls('POST', '/api/admin/login')).toHaveLength(0);
  });

  it('shows and hides the password', async () => {
    const { user } = renderAdmin('/admin/login');
    const form = await loginForm();

    await user.click(form.getByRole('button', { name: 'Show password' }));
    expect(form.getByLabelText('Password').getAttribute('type')).toBe('text');
  });

  it('sets up an authenticator at the first sign-in: QR code, key in groups, then its code', async () => {
    const answer = deferredResponse(() => jsonResponse(admin));
    const { user, router, calls } = renderAdmin('/admin/login', {
      'POST /api/admin/login': jsonResponse(setupStep),
      'POST /api/admin/login/code': answer.handler,
    });

    await passwordStep(user);

    const heading = await screen.findByRole('heading', {
      level: 1,
      name: 'Set Up Two-Factor Authentication',
    });
    await waitFor(() => expect(document.activeElement).toBe(heading));
    expect(JSON.parse(String(calls('POST', '/api/admin/login')[0]?.[1]?.body))).toEqual({
      username: 'root',
      password: 'a long secret',
    });
    const qr = await screen.findByRole('img', { name: 'QR code of your authenticator key' });
    expect(qr.querySelector('path')?.getAttribute('d')).toMatch(/^M\d+ \d+h1v1h-1z/);
    expect(screen.getByText('JBSW Y3DP EHPK 3PXP JBSW Y3DP EHPK 3PXP')).toBeDefined();
    expect(
      screen.getByRole('link', { name: 'Open in an authenticator app on this device' }).getAttribute('href'),
    ).toBe(setupStep.otpauthUri);
    const step = within(screen.getByRole('form', { name: 'Set Up Two-Factor Authentication' }));
    const code = step.getByLabelText('Authentication Code');
    expect(code.getAttribute('autocomplete')).toBe('one-time-code');
    expect(code.getAttribute('inputmode')).toBe('numeric');
    expect(code.hasAttribute('required')).toBe(true);

    await user.type(code, '123 456');
    await user.click(step.getByRole('button', { name: 'Verify' }));
    expect(await step.findByRole('button', { name: 'Verifying...' })).toBeDefined();
    answer.respond();

    await waitFor(() => expect(router.location.pathname).toBe('/admin'));
    const toast = await findToast();
    expect(within(toast).getByText('Login successful')).toBeDefined();
    expect(within(toast).getByText('Welcome to the admin dashboard')).toBeDefined();
    expect(await screen.findByRole('heading', { level: 1, name: 'Dashboard' })).toBeDefined();
    // Typed as the app shows it, sent as six digits.
    expect(codeBody(calls)).toEqual([{ code: '123456' }]);
    // The stored admin opens the area without asking the server again.
    expect(calls('GET', '/api/admin/user')).toHaveLength(1);
  });

  it('asks an admin with an authenticator for its code, focused, and says when it is wrong', async () => {
    let tries = 0;
    const { user, router, calls } = renderAdmin('/admin/login', {
      'POST /api/admin/login': jsonResponse({ secondFactor: 'code' }),
      'POST /api/admin/login/code': () =>
        ++tries === 1 ? jsonResponse({ message: 'Invalid code' }, 400) : jsonResponse(admin),
    });

    await passwordStep(user);

    expect(await screen.findByRole('heading', { level: 1, name: 'Two-Factor Authentication' })).toBeDefined();
    expect(screen.getByText('Enter the 6-digit code from your authenticator app.')).toBeDefined();
    expect(screen.queryByRole('img')).toBeNull();
    const step = within(screen.getByRole('form', { name: 'Two-Factor Authentication' }));
    const code = step.getByLabelText('Authentication Code');
    await waitFor(() => expect(document.activeElement).toBe(code));

    await user.type(code, '000000');
    await user.click(step.getByRole('button', { name: 'Verify' }));

    const toast = await findToast();
    expect(toast.dataset.variant).toBe('destructive');
    expect(within(toast).getByText('Login failed')).toBeDefined();
    expect(within(toast).getByText('Invalid code')).toBeDefined();
    await waitFor(() => expect(step.getByText('Invalid code')).toBeDefined());
    expect(code.getAttribute('aria-invalid')).toBe('true');
    expect(code.getAttribute('aria-describedby')).toBe(step.getByText('Invalid code').id);
    expect((code as HTMLInputElement).value).toBe('');
    expect(document.activeElement).toBe(code);
    expect(router.location.pathname).toBe('/admin/login');

    await user.type(code, '654321');
    await user.click(step.getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(router.location.pathname).toBe('/admin'));
    expect(codeBody(calls)).toEqual([{ code: '000000' }, { code: '654321' }]);
  });

  it('checks the code is six digits before sending it', async () => {
    const { user, calls } = renderAdmin('/admin/login', {
      'POST /api/admin/login': jsonResponse({ secondFactor: 'code' }),
    });
    await passwordStep(user);
    const step = within(await screen.findByRole('form', { name: 'Two-Factor Authentication' }));

    await user.click(step.getByRole('button', { name: 'Verify' }));
    expect(await step.findByText('Code is required')).toBeDefined();
    await user.type(step.getByLabelText('Authentication Code'), '12a45');
    await user.click(step.getByRole('button', { name: 'Verify' }));
    expect(await step.findByText('Enter the 6-digit code from your authenticator app')).toBeDefined();
    expect(calls('POST', '/api/admin/login/code')).toHaveLength(0);
  });

  it('goes back to the password when the sign-in expired, or on Back to Sign In', async () => {
    const { user, router } = renderAdmin('/admin/login', {
      'POST /api/admin/login': jsonResponse(setupStep),
      'POST /api/admin/login/code': jsonResponse(
        { message: 'Your sign-in has expired. Please sign in again.' },
        401,
      ),
    });
    await passwordStep(user);
    const step = within(await screen.findByRole('form', { name: 'Set Up Two-Factor Authentication' }));

    await user.type(step.getByLabelText('Authentication Code'), '123456');
    await user.click(step.getByRole('button', { name: 'Verify' }));

    const toast = await findToast();
    expect(within(toast).getByText('Your sign-in has expired. Please sign in again.')).toBeDefined();
    const heading = await screen.findByRole('heading', { level: 1, name: 'Admin Sign In' });
    await waitFor(() => expect(document.activeElement).toBe(heading));
    expect(router.location.pathname).toBe('/admin/login');

    await passwordStep(user);
    await user.click(await screen.findByRole('button', { name: 'Back to Sign In' }));
    expect(await screen.findByRole('form', { name: 'Admin sign in' })).toBeDefined();
  });

  it.each([
    [jsonResponse({ message: 'Invalid credentials' }, 401), 'Invalid credentials'],
    [
      jsonResponse({ message: 'Too many attempts. Please wait a few minutes and try again.' }, 429),
      'Too many attempts. Please wait a few minutes and try again.',
    ],
    [new Response('', { status: 500, statusText: 'Server Error' }), 'Invalid credentials'],
  ])('shows Login failed with the server message or the default', async (answer, text) => {
    const { user, router } = renderAdmin('/admin/login', { 'POST /api/admin/login': answer });
    const form = await loginForm();

    await user.type(form.getByLabelText('Username'), 'root');
    await user.type(form.getByLabelText('Password'), 'wrong');
    await user.click(form.getByRole('button', { name: 'Sign In' }));

    const toast = await findToast();
    expect(toast.dataset.variant).toBe('destructive');
    expect(within(toast).getByText('Login failed')).toBeDefined();
    expect(within(toast).getByText(text)).toBeDefined();
    expect(router.location.pathname).toBe('/admin/login');
  });

  it('sends a signed-in admin to /admin', async () => {
    const { router } = renderAdmin('/admin/login', { 'GET /api/admin/user': jsonResponse(admin) });

    await waitFor(() => expect(router.location.pathname).toBe('/admin'));
  });
});

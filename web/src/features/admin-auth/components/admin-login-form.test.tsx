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

  it('signs in, welcomes and opens the admin area', async () => {
    const answer = deferredResponse(() => jsonResponse(admin));
    const { user, router, calls } = renderAdmin('/admin/login', { 'POST /api/admin/login': answer.handler });
    const form = await loginForm();

    await user.type(form.getByLabelText('Username'), 'root');
    await user.type(form.getByLabelText('Password'), 'secret1');
    await user.click(form.getByRole('button', { name: 'Sign In' }));
    expect(await form.findByRole('button', { name: 'Signing In...' })).toBeDefined();
    answer.respond();

    await waitFor(() => expect(router.location.pathname).toBe('/admin'));
    const toast = await findToast();
    expect(within(toast).getByText('Login successful')).toBeDefined();
    expect(within(toast).getByText('Welcome to the admin dashboard')).toBeDefined();
    expect(await screen.findByRole('heading', { level: 1, name: 'Dashboard' })).toBeDefined();
    expect(JSON.parse(String(calls('POST', '/api/admin/login')[0]?.[1]?.body))).toEqual({
      username: 'root',
      password: 'secret1',
    });
    // The stored admin opens the area without asking the server again.
    expect(calls('GET', '/api/admin/user')).toHaveLength(1);
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

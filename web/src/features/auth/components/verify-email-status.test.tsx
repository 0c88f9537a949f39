import { render, screen } from '@testing-library/react';
import { StrictMode } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { AppProvider } from '@/app/provider';
import { AppPages } from '@/app/router';
import { createQueryClient } from '@/lib/query-client';
import {
  anonymous,
  deferredResponse,
  jsonResponse,
  type MockResponse,
  mockFetch,
} from '@/testing/mock-fetch';
import { memoryHistory, renderApp, renderWithProviders } from '@/testing/render';
import { recordLocalStorage } from '@/testing/storage';
import { VerifyEmailStatus } from './verify-email-status';

const TOKEN = 'tok_abcdefghijklmnopqrstuvwxyz012345';
const VERIFY_PATH = `/api/auth/verify-email/${TOKEN}`;

/** The whole app at the link, under StrictMode as in development. */
function openLink(answer: MockResponse) {
  const fetchMock = mockFetch({ 'GET /api/auth/user': anonymous(), [`GET ${VERIFY_PATH}`]: answer });
  const queryClient = createQueryClient();
  const { history, router } = memoryHistory(`/verify-email/${TOKEN}`);
  render(
    <StrictMode>
      <AppProvider queryClient={queryClient}>
        <AppPages history={history} />
      </AppProvider>
    </StrictMode>,
  );
  const verifyCalls = () => fetchMock.mock.calls.filter(([url]) => String(url) === VERIFY_PATH);
  return { fetchMock, router, verifyCalls };
}

describe('verify-email page', () => {
  it('shows a loading state, then welcomes by first name, calling the server once', async () => {
    const answer = deferredResponse(() =>
      jsonResponse({
        message: 'Your email has been verified. You can now sign in.',
        user: { firstName: 'Grace' },
      }),
    );
    const { verifyCalls } = openLink(answer.handler);

    expect(await screen.findByText('Verifying your email...')).toBeDefined();
    answer.respond();

    expect(await screen.findByRole('heading', { level: 1, name: 'Email Verified!' })).toBeDefined();
    expect(screen.getByText('Welcome, Grace!')).toBeDefined();
    expect(screen.getByText('Your email has been verified. You can now sign in.')).toBeDefined();
    expect(screen.getByRole('link', { name: 'Continue to Login' }).getAttribute('href')).toBe('/auth');
    expect(verifyCalls()).toHaveLength(1);
  });

  it('carries a plan chosen before signing up to the sign-in page, then forgets it', async () => {
    const next = '/pricing?subscribe=basic&cycle=monthly';
    const storage = recordLocalStorage({ pendingVerificationNext: next });
    openLink(jsonResponse({ message: 'Your email has been verified.', user: { firstName: 'Grace' } }));

    const link = await screen.findByRole('link', { name: 'Continue to Login' });
    expect(link.getAttribute('href')).toBe(`/auth?next=${encodeURIComponent(next)}`);
    expect(storage.data.has('pendingVerificationNext')).toBe(false);
  });

  it('ignores a saved return path that leaves the site', async () => {
    recordLocalStorage({ pendingVerificationNext: '//evil.example/pricing' });
    openLink(jsonResponse({ message: 'Your email has been verified.', user: { firstName: 'Grace' } }));

    expect((await screen.findByRole('link', { name: 'Continue to Login' })).getAttribute('href')).toBe(
      '/auth',
    );
  });

  it('keeps the return path when the link has expired, for the next mail', async () => {
    const storage = recordLocalStorage({ pendingVerificationNext: '/pricing?subscribe=basic&cycle=monthly' });
    openLink(jsonResponse({ expired: true }, 400));

    expect(await screen.findByRole('heading', { level: 1, name: 'Link Expired' })).toBeDefined();
    expect(storage.data.get('pendingVerificationNext')).toBe('/pricing?subscribe=basic&cycle=monthly');
  });

  it('offers a new email for an expired link, with the server message', async () => {
    const { verifyCalls } = openLink(
      jsonResponse(
        { message: 'This verification link has expired or is no longer valid.', expired: true },
        400,
      ),
    );

    expect(await screen.findByRole('heading', { level: 1, name: 'Link Expired' })).toBeDefined();
    expect(screen.getByText('This verification link has expired or is no longer valid.')).toBeDefined();
    expect(screen.getByRole('link', { name: 'Request New Verification Email' }).getAttribute('href')).toBe(
      '/check-email',
    );
    expect(verifyCalls()).toHaveLength(1);
  });

  it('uses the default expired text when the server gives none', async () => {
    openLink(jsonResponse({ expired: true }, 400));

    expect(
      await screen.findByText('This verification link has expired or is no longer valid.'),
    ).toBeDefined();
  });

  it('shows the default error for a failure without a message', async () => {
    openLink(new Response('', { status: 500, statusText: 'Internal Server Error' }));

    expect(await screen.findByRole('heading', { level: 1, name: 'Verification Failed' })).toBeDefined();
    expect(screen.getByText('Something went wrong during email verification.')).toBeDefined();
    expect(screen.getByRole('link', { name: 'Request New Verification Email' }).getAttribute('href')).toBe(
      '/check-email',
    );
    expect(screen.getByRole('link', { name: 'Back to Home' }).getAttribute('href')).toBe('/');
  });

  it('explains a network error', async () => {
    mockFetch({ 'GET /api/auth/user': anonymous() });
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: RequestInfo | URL) => {
        if (String(input).startsWith('/api/auth/verify-email/')) throw new TypeError('Failed to fetch');
        return anonymous();
      }),
    );
    renderApp(`/verify-email/${TOKEN}`);

    expect(await screen.findByText('An error occurred during verification. Please try again.')).toBeDefined();
  });

  it('explains a missing token without calling the server', () => {
    const fetchMock = mockFetch({});
    renderWithProviders(<VerifyEmailStatus token={undefined} />);

    expect(
      screen.getByText('Invalid verification link. Please check your email for the correct link.'),
    ).toBeDefined();
    expect(screen.getByRole('link', { name: 'Back to Home' })).toBeDefined();
    expect(fetchMock).not.toHaveBeenCalled();
  });
});

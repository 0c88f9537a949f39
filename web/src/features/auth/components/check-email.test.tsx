import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { anonymous, jsonResponse, type MockResponse, mockFetch } from '@/testing/mock-fetch';
import { findToast, renderApp } from '@/testing/render';
import { recordLocalStorage } from '@/testing/storage';

function renderCheckEmail(routes: Record<string, MockResponse> = {}) {
  const fetchMock = mockFetch({ 'GET /api/auth/user': anonymous(), ...routes });
  return { ...renderApp('/check-email'), fetchMock };
}

const resendCalls = (fetchMock: ReturnType<typeof mockFetch>) =>
  fetchMock.mock.calls.filter(([url]) => String(url) === '/api/auth/resend-verification');

async function resendForm() {
  return within(await screen.findByRole('form', { name: 'Resend verification email' }));
}

describe('check-email page', () => {
  it('greets by first name, shows the address and the hints, then removes both entries', async () => {
    const storage = recordLocalStorage({
      pendingVerificationEmail: 'grace@example.com',
      pendingVerificationFirstName: 'Grace',
    });
    const { user } = renderCheckEmail();

    expect(await screen.findByRole('heading', { level: 1, name: 'Check Your Email' })).toBeDefined();
    expect(screen.getByText(/Hi Grace/)).toBeDefined();
    expect(screen.getByText('grace@example.com')).toBeDefined();
    expect(screen.getByText(/Click the link/)).toBeDefined();
    expect(screen.getByText(/spam/)).toBeDefined();
    expect(screen.getByText(/expires in 24 hours/)).toBeDefined();
    const form = await resendForm();
    expect((form.getByLabelText('Email') as HTMLInputElement).value).toBe('grace@example.com');
    expect(screen.getByRole('link', { name: 'Back to Home' }).getAttribute('href')).toBe('/');

    expect(storage.data.has('pendingVerificationEmail')).toBe(false);
    expect(storage.data.has('pendingVerificationFirstName')).toBe(false);

    // Re-rendering (typing) keeps what was read.
    await user.type(form.getByLabelText('Email'), 'x');
    expect(screen.getByText(/Hi Grace/)).toBeDefined();
    expect(screen.getByText('grace@example.com')).toBeDefined();
  });

  it('leaves a plan chosen before signing up for the verify-email page, and Go to Sign In carries it', async () => {
    const next = '/pricing?subscribe=premium&cycle=yearly';
    const storage = recordLocalStorage({
      pendingVerificationEmail: 'grace@example.com',
      pendingVerificationNext: next,
    });
    renderCheckEmail();

    const signIn = await screen.findByRole('link', { name: 'Go to Sign In' });
    expect(signIn.getAttribute('href')).toBe(`/auth?next=${encodeURIComponent(next)}`);
    expect(storage.data.has('pendingVerificationEmail')).toBe(false);
    expect(storage.data.get('pendingVerificationNext')).toBe(next);
  });

  it('says "there" when nothing was saved', async () => {
    recordLocalStorage();
    renderCheckEmail();

    expect(await screen.findByText(/Hi there/)).toBeDefined();
    expect(((await resendForm()).getByLabelText('Email') as HTMLInputElement).value).toBe('');
  });

  it('asks for an address before resending', async () => {
    recordLocalStorage();
    const { user, fetchMock } = renderCheckEmail();
    const form = await resendForm();

    await user.click(form.getByRole('button', { name: 'Resend Verification Email' }));

    const toast = await findToast();
    expect(within(toast).getByText('Email Required')).toBeDefined();
    expect(within(toast).getByText('Please enter your email address to resend verification.')).toBeDefined();
    expect(resendCalls(fetchMock)).toHaveLength(0);
  });

  it('resends to the address in the field and confirms', async () => {
    recordLocalStorage({ pendingVerificationEmail: 'grace@example.com' });
    const { user, fetchMock } = renderCheckEmail({
      'POST /api/auth/resend-verification': jsonResponse({ message: 'ok' }),
    });
    const form = await resendForm();

    await user.click(form.getByRole('button', { name: 'Resend Verification Email' }));

    const toast = await findToast();
    expect(within(toast).getByText('Email Sent')).toBeDefined();
    expect(
      within(toast).getByText('A new verification email has been sent. Check your inbox.'),
    ).toBeDefined();
    expect(JSON.parse(String(resendCalls(fetchMock)[0]?.[1]?.body))).toEqual({ email: 'grace@example.com' });
  });

  it.each([
    [
      jsonResponse({ message: 'Too many attempts. Please wait a few minutes and try again.' }, 429),
      'Too many attempts. Please wait a few minutes and try again.',
    ],
    [
      new Response('', { status: 500, statusText: 'Server Error' }),
      'Could not send verification email. Please try again.',
    ],
  ])('shows Failed to Send Email with the server message or the default', async (answer, text) => {
    recordLocalStorage({ pendingVerificationEmail: 'grace@example.com' });
    const { user } = renderCheckEmail({ 'POST /api/auth/resend-verification': answer });
    const form = await resendForm();

    await user.click(form.getByRole('button', { name: 'Resend Verification Email' }));

    const toast = await findToast();
    expect(toast.dataset.variant).toBe('destructive');
    expect(within(toast).getByText('Failed to Send Email')).toBeDefined();
    expect(within(toast).getByText(text)).toBeDefined();
  });
});

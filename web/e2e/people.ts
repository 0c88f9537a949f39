import type { Page } from 'playwright-core';
import { expect } from 'vitest';

/** The toast region's message with exactly this text. */
export const toast = (page: Page, text: string) =>
  page.getByRole('region', { name: /Notifications/ }).getByText(text, { exact: true });

/**
 * A verified account made through the API and the local mailbox (the sign-up
 * screens have a journey of their own); returns the new user's id.
 */
export async function verifiedUser(
  baseUrl: string,
  account: { email: string; password: string; firstName?: string; lastName?: string },
): Promise<string> {
  const api = (path: string, body: unknown) =>
    fetch(`${baseUrl}${path}`, {
      method: 'POST',
      headers: { origin: baseUrl, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  const registered = await api('/api/auth/register', {
    firstName: account.firstName ?? 'Nina',
    lastName: account.lastName ?? 'Simone',
    email: account.email,
    password: account.password,
    confirmPassword: account.password,
  });
  expect(registered.status).toBe(201);
  let token: string | undefined;
  for (let attempt = 0; attempt < 50 && !token; attempt++) {
    const mailbox = await fetch(`${baseUrl}/_dev/mail?to=${encodeURIComponent(account.email)}`, {
      headers: { accept: 'application/json' },
    });
    token = (await mailbox.text()).match(/\/verify-email\/([A-Za-z0-9_-]+)/)?.[1];
    if (!token) await new Promise((r) => setTimeout(r, 100));
  }
  expect(token).toBeDefined();
  expect((await fetch(`${baseUrl}/api/auth/verify-email/${token}`)).status).toBe(200);
  const login = await api('/api/auth/login', { email: account.email, password: account.password });
  expect(login.status).toBe(200);
  return ((await login.json()) as { id: string }).id;
}

/** Signs in on the auth screen and waits for the signed-in home (the Create page). */
export async function signIn(page: Page, baseUrl: string, email: string, password: string): Promise<void> {
  await page.goto(`${baseUrl}/auth`);
  const form = page.getByRole('form', { name: 'Sign in' });
  await form.getByLabel('Email', { exact: true }).fill(email);
  await form.getByLabel('Password', { exact: true }).fill(password);
  await form.getByRole('button', { name: 'Sign In' }).click();
  await page.waitForURL(`${baseUrl}/`);
  await page.getByRole('tab', { name: 'Text to Music' }).waitFor();
}

import { expect } from 'vitest';
import { Browser, mailedToken, uniqueEmail } from './http';

export const testPassword = 'correct horse battery';

/** Registers, verifies through the mailed link and signs in; returns the signed-in browser and the user's id. */
export async function signedInUser(
  email = uniqueEmail(),
): Promise<{ browser: Browser; email: string; id: string }> {
  const browser = new Browser();
  const register = await browser.post('/api/auth/register', {
    firstName: 'Ada',
    lastName: 'Lovelace',
    email,
    password: testPassword,
    confirmPassword: testPassword,
  });
  expect(register.status).toBe(201);
  const { token } = await mailedToken(email, '/verify-email/');
  expect((await browser.get(`/api/auth/verify-email/${token}`)).status).toBe(200);
  const login = await browser.post('/api/auth/login', { email, password: testPassword });
  expect(login.status).toBe(200);
  return { browser, email, id: String(login.body.id) };
}

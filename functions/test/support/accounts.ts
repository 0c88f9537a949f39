import { randomBytes } from 'node:crypto';
import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { expect } from 'vitest';
import { keys } from '../../src/data/keys';
import { type AdminUser, createAdmin } from '../../src/domain/accounts/admin';
import { authenticatorCode } from './authenticator';
import type { direct } from './direct';
import { type ApiResponse, Browser, mailedToken, uniqueEmail } from './http';

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

/**
 * A password for a test administrator, new on every run: a stage keeps what a
 * run leaves behind, and an admin with a password written in this repository
 * would be a way in.
 */
export const adminTestPassword = (): string => `adm-${randomBytes(12).toString('base64url')}`;

/** The authenticator key each test administrator set up in this run, by username. */
const authenticatorKeys = new Map<string, string>();

/** The key `username` set up (read from the setup step, as a person types it into an app). */
export const authenticatorKeyOf = (username: string): string | undefined => authenticatorKeys.get(username);

/**
 * Signs an administrator in through the API as the sign-in screen does: the
 * password, then the second factor, setting the authenticator up with the
 * key the setup step shows the first time. Answers the last call's response
 * (a refused password, or the code step's).
 */
export async function adminSignIn(
  browser: Browser,
  username: string,
  password: string,
): Promise<ApiResponse> {
  const login = await browser.post('/api/admin/login', { username, password });
  if (login.status !== 200) return login;
  if (login.body.secondFactor === 'setup') authenticatorKeys.set(username, String(login.body.secret));
  const secret = authenticatorKeys.get(username);
  if (!secret) throw new Error(`${username} has an authenticator this run did not set up`);
  return browser.post('/api/admin/login/code', { code: await authenticatorCode(secret) });
}

/** Creates a test administrator (identity and profile) as `npm run admin:create` does. */
export function createTestAdmin(
  store: ReturnType<typeof direct>,
  username: string,
  password: string,
): Promise<AdminUser> {
  return createAdmin(
    { admins: store.admins, identity: store.adminIdentity, clock: { now: () => new Date() } },
    { username, password },
  );
}

/** Removes a test administrator's identity and profile (after the run, so none stays on a stage). */
export async function removeTestAdmin(store: ReturnType<typeof direct>, admin: AdminUser | undefined) {
  if (!admin) return;
  await store.adminIdentity.deleteUser(admin.id);
  await store.documents.send(
    new DeleteCommand({ TableName: store.tableName, Key: keys.admin(admin.username) }),
  );
}

/**
 * A test administrator for one file's tests, created and signed in (the
 * authenticator set up): its browser, and `remove` for the file's afterAll.
 */
export async function signedInTestAdmin(
  store: ReturnType<typeof direct>,
  prefix: string,
): Promise<{ browser: Browser; remove: () => Promise<void> }> {
  const username = `${prefix}-${Date.now().toString(36)}`;
  const password = adminTestPassword();
  const admin = await createTestAdmin(store, username, password);
  const browser = new Browser();
  expect((await adminSignIn(browser, username, password)).status).toBe(200);
  return { browser, remove: () => removeTestAdmin(store, admin) };
}

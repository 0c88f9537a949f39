import { createHash } from 'node:crypto';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keys } from '../src/data/keys';
import type { AdminUser } from '../src/domain/accounts/admin';
import { adminSignIn, adminTestPassword, createTestAdmin, removeTestAdmin } from './support/accounts';
import { authenticatorCode, authenticatorCodeAt } from './support/authenticator';
import { direct } from './support/direct';
import { Browser, cookieName, mailedToken, uniqueEmail } from './support/http';

// Administrator sign-in (the password, then the authenticator's code, set up
// at the first sign-in), identity, password change and sign-out through the
// HTTP API against the admin pool (cognito-local behind the proxy, or a
// stage's) and the table.

const store = direct();
const created: AdminUser[] = [];

/** A new administrator of this file's own (each sets up an authenticator at its first sign-in). */
async function newAdmin(label: string) {
  const username = `${label}-${Date.now().toString(36)}-${created.length}`;
  const password = adminTestPassword();
  created.push(await createTestAdmin(store, username, password));
  return { username, password };
}

let main: { username: string; password: string };
/** `main` signed in once for the tests that only need a session. */
let mainBrowser: Browser;

beforeAll(async () => {
  main = await newAdmin('admin');
  mainBrowser = new Browser();
  expect((await adminSignIn(mainBrowser, main.username, main.password)).status).toBe(200);
});
afterAll(async () => {
  for (const admin of created) await removeTestAdmin(store, admin);
  store.close();
});

const challengeCookie = () => cookieName('ts_admin_challenge');

describe('admin sign-in with a second factor', () => {
  it('sets up an authenticator at the first sign-in, then asks for its code', async () => {
    const { username, password } = await newAdmin('setup');
    const browser = new Browser();

    const login = await browser.post('/api/admin/login', { username, password });
    expect(login.status).toBe(200);
    expect(login.body).toEqual({
      secondFactor: 'setup',
      secret: expect.any(String),
      otpauthUri: expect.any(String),
    });
    const secret = String(login.body.secret);
    expect(secret).toMatch(/^[A-Z2-7]{32,}$/);
    const site = String((await new Browser().get('/api/site')).body.name);
    const issuer = encodeURIComponent(site);
    expect(login.body.otpauthUri).toBe(
      `otpauth://totp/${issuer}:${encodeURIComponent(username)}?secret=${secret}&issuer=${issuer}`,
    );
    expect(login.headers.get('cache-control')).toBe('no-store');
    // Only the challenge's cookie: HttpOnly, for the ten minutes the second factor may take; no session yet.
    expect(login.setCookies).toEqual([expect.stringMatching(new RegExp(`^${challengeCookie()}=`))]);
    expect(login.setCookies[0]).toMatch(/HttpOnly; SameSite=Lax; Max-Age=(599|600)/);
    expect((await browser.get('/api/admin/user')).status).toBe(401);

    const malformed = await browser.post('/api/admin/login/code', { code: '12 34 5' });
    expect([malformed.status, malformed.body.message]).toEqual([
      400,
      'Enter the 6-digit code from your authenticator app',
    ]);
    const wrong = await browser.post('/api/admin/login/code', {
      code: authenticatorCodeAt(secret, Date.now() - 10 * 60_000),
    });
    expect([wrong.status, wrong.body.message]).toEqual([400, 'Invalid code']);
    expect(browser.cookies.has(challengeCookie())).toBe(true);

    const code = await authenticatorCode(secret);
    const signedIn = await browser.post('/api/admin/login/code', {
      code: `${code.slice(0, 3)} ${code.slice(3)}`,
    });
    expect(signedIn.status).toBe(200);
    expect(signedIn.body).toEqual({ username, role: 'admin' });
    expect(signedIn.setCookies.some((c) => c.startsWith(`${cookieName('ts_admin_session')}=`))).toBe(true);
    for (const cookie of signedIn.setCookies) expect(cookie).toMatch(/HttpOnly; SameSite=Lax/);
    expect(browser.cookies.has(challengeCookie())).toBe(false);
    expect((await browser.get('/api/admin/user')).body).toEqual({ username, role: 'admin' });
    expect((await store.admins.getByUsername(username))?.lastLoginAt).not.toBeNull();
    // The challenge is spent.
    expect((await browser.post('/api/admin/login/code', { code: '123456' })).status).toBe(401);

    const other = new Browser();
    const next = await other.post('/api/admin/login', { username, password });
    expect(next.body).toEqual({ secondFactor: 'code' });
    const used = await other.post('/api/admin/login/code', { code });
    expect([used.status, used.body.message]).toEqual([
      400,
      'This code has already been used. Wait for the next one and try again.',
    ]);
    const again = await other.post('/api/admin/login/code', { code: await authenticatorCode(secret) });
    expect([again.status, again.body]).toEqual([200, { username, role: 'admin' }]);
  });

  it('refuses wrong credentials and missing fields with the spec messages', async () => {
    const wrong = await new Browser().post('/api/admin/login', {
      username: main.username,
      password: 'nope-nope',
    });
    expect([wrong.status, wrong.body.message]).toEqual([401, 'Invalid credentials']);
    expect(wrong.setCookies).toEqual([]);
    const unknown = await new Browser().post('/api/admin/login', {
      username: 'nobody-here',
      password: main.password,
    });
    expect([unknown.status, unknown.body.message]).toEqual([401, 'Invalid credentials']);
    const empty = await new Browser().post('/api/admin/login', { username: '', password: '' });
    expect([empty.status, empty.body.message]).toEqual([400, 'Username is required']);
    const noCode = await new Browser().post('/api/admin/login/code', {});
    expect([noCode.status, noCode.body.message]).toEqual([400, 'Code is required']);
  });

  it('asks to sign in again without a challenge, with a made-up one, or after it expired, and clears it', async () => {
    const expired = [401, 'Your sign-in has expired. Please sign in again.'];
    const none = await new Browser().post('/api/admin/login/code', { code: '123456' });
    expect([none.status, none.body.message]).toEqual(expired);

    const madeUp = new Browser();
    madeUp.cookies.set(challengeCookie(), 'made-up');
    const refused = await madeUp.post('/api/admin/login/code', { code: '123456' });
    expect([refused.status, refused.body.message]).toEqual(expired);
    expect(madeUp.cookies.has(challengeCookie())).toBe(false);

    const browser = new Browser();
    expect((await browser.post('/api/admin/login', main)).body).toEqual({ secondFactor: 'code' });
    const token = decodeURIComponent(browser.cookies.get(challengeCookie()) as string);
    const hash = createHash('sha256').update(token).digest('hex');
    await store.documents.send(
      new UpdateCommand({
        TableName: store.tableName,
        Key: keys.pendingAdminSignIn(hash),
        UpdateExpression: 'SET expiresAt = :past',
        ExpressionAttributeValues: { ':past': Math.floor(Date.now() / 1000) - 1 },
        ConditionExpression: 'attribute_exists(pk)',
      }),
    );
    const late = await browser.post('/api/admin/login/code', { code: '123456' });
    expect([late.status, late.body.message]).toEqual(expired);
    expect(browser.cookies.has(challengeCookie())).toBe(false);
  });
});

describe('admin sessions', () => {
  it('answers the admin data calls through the middleware stack, uncached', async () => {
    const response = await mainBrowser.get('/api/admin/dashboard/stats');

    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.body).toHaveProperty('totalUsers');
  });

  it('keeps the two kinds of session apart', async () => {
    expect((await new Browser().get('/api/admin/user')).status).toBe(401);

    // A signed-in user is not an admin.
    const email = uniqueEmail('not-admin');
    const user = new Browser();
    await user.post('/api/auth/register', {
      firstName: 'Not',
      lastName: 'Admin',
      email,
      password: 'user password 1',
      confirmPassword: 'user password 1',
    });
    await user.get(`/api/auth/verify-email/${(await mailedToken(email, '/verify-email/')).token}`);
    expect((await user.post('/api/auth/login', { email, password: 'user password 1' })).status).toBe(200);
    expect((await user.get('/api/admin/user')).status).toBe(401);

    // A user token placed in the admin cookie is refused too (other pool, other client).
    const forged = new Browser();
    forged.cookies.set(cookieName('ts_admin_session'), user.cookies.get(cookieName('ts_session')) ?? '');
    expect((await forged.get('/api/admin/user')).status).toBe(401);

    // And an admin is not a user.
    expect((await mainBrowser.get('/api/auth/user')).status).toBe(401);
  });

  it('changes the password after checking it; every admin session ends, this one included', async () => {
    const { username, password } = await newAdmin('password');
    const nextPassword = adminTestPassword();
    const browser = new Browser();
    const other = new Browser();
    expect((await adminSignIn(browser, username, password)).status).toBe(200);
    expect((await adminSignIn(other, username, password)).status).toBe(200);

    const wrong = await browser.put('/api/admin/change-password', {
      currentPassword: 'wrong-one',
      newPassword: nextPassword,
      confirmPassword: nextPassword,
    });
    expect([wrong.status, wrong.body.message]).toEqual([400, 'Current password is incorrect']);
    const short = await browser.put('/api/admin/change-password', {
      currentPassword: password,
      newPassword: '12345678901',
      confirmPassword: '12345678901',
    });
    expect([short.status, short.body.message]).toEqual([400, 'New password must be at least 12 characters']);
    const mismatch = await browser.put('/api/admin/change-password', {
      currentPassword: password,
      newPassword: nextPassword,
      confirmPassword: 'other-pass-other',
    });
    expect([mismatch.status, mismatch.body.message]).toEqual([400, 'New passwords do not match']);

    const ok = await browser.put('/api/admin/change-password', {
      currentPassword: password,
      newPassword: nextPassword,
      confirmPassword: nextPassword,
    });
    expect(ok.status).toBe(200);
    expect(browser.cookies.size).toBe(0);
    expect((await other.get('/api/admin/user')).status).toBe(401);
    // Even the refresh token of the other session can no longer mint a session.
    other.cookies.delete(cookieName('ts_admin_session'));
    expect((await other.get('/api/admin/user')).status).toBe(401);

    expect((await new Browser().post('/api/admin/login', { username, password })).status).toBe(401);
    // The new password leads on to the authenticator's code, which the change kept.
    expect((await new Browser().post('/api/admin/login', { username, password: nextPassword })).body).toEqual(
      {
        secondFactor: 'code',
      },
    );
  });

  it('refuses admin sign-out and password change from another site', async () => {
    const evil = new Browser('https://evil.example');
    for (const [k, v] of mainBrowser.cookies) evil.cookies.set(k, v);
    expect((await evil.post('/api/admin/logout')).status).toBe(403);
    expect((await evil.post('/api/admin/login/code', { code: '123456' })).status).toBe(403);
    expect((await mainBrowser.get('/api/admin/user')).status).toBe(200);
  });

  it('signs out: cookies cleared and the refresh token revoked', async () => {
    const copy = mainBrowser.clone();
    copy.cookies.delete(cookieName('ts_admin_session'));
    const out = await mainBrowser.post('/api/admin/logout');
    expect(out.status).toBe(200);
    expect(mainBrowser.cookies.size).toBe(0);
    expect((await mainBrowser.get('/api/admin/user')).status).toBe(401);
    expect((await copy.get('/api/admin/user')).status).toBe(401);
  });
});

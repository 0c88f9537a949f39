import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminUser } from '../src/domain/accounts/admin';
import { adminTestPassword, createTestAdmin, removeTestAdmin } from './support/accounts';
import { direct } from './support/direct';
import { Browser, cookieName, mailedToken, uniqueEmail } from './support/http';

// Administrator sign-in, identity, password change and sign-out through the
// HTTP API against the admin pool (cognito-local, or a stage's) and the table.

const store = direct();
const username = `admin-${Date.now().toString(36)}`;
const password = adminTestPassword();
const nextPassword = adminTestPassword();
let created: AdminUser | undefined;

beforeAll(async () => {
  created = await createTestAdmin(store, username, password);
});
afterAll(async () => {
  await removeTestAdmin(store, created);
  store.close();
});

async function signedInAdmin(secret = password): Promise<Browser> {
  const browser = new Browser();
  const res = await browser.post('/api/admin/login', { username, password: secret });
  expect(res.status).toBe(200);
  return browser;
}

describe('admin sessions', () => {
  it('answers the admin data calls through the middleware stack, uncached', async () => {
    const response = await (await signedInAdmin()).get('/api/admin/dashboard/stats');

    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.body).toHaveProperty('totalUsers');
  });

  it('signs in by username and answers the current admin', async () => {
    const browser = new Browser();
    const login = await browser.post('/api/admin/login', { username, password });
    expect(login.status).toBe(200);
    expect(login.body).toEqual({ username, role: 'admin' });
    for (const cookie of login.setCookies) expect(cookie).toMatch(/HttpOnly; SameSite=Lax/);
    expect(login.setCookies.some((c) => c.startsWith(`${cookieName('ts_admin_session')}=`))).toBe(true);

    expect((await browser.get('/api/admin/user')).body).toEqual({ username, role: 'admin' });
    expect((await store.admins.getByUsername(username))?.lastLoginAt).not.toBeNull();
  });

  it('refuses wrong credentials and missing fields with the spec messages', async () => {
    const wrong = await new Browser().post('/api/admin/login', { username, password: 'nope-nope' });
    expect([wrong.status, wrong.body.message]).toEqual([401, 'Invalid credentials']);
    const unknown = await new Browser().post('/api/admin/login', { username: 'nobody-here', password });
    expect([unknown.status, unknown.body.message]).toEqual([401, 'Invalid credentials']);
    const empty = await new Browser().post('/api/admin/login', { username: '', password: '' });
    expect([empty.status, empty.body.message]).toEqual([400, 'Username is required']);
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
    const admin = await signedInAdmin();
    expect((await admin.get('/api/auth/user')).status).toBe(401);
  });

  it('changes the password after checking it; every admin session ends, this one included', async () => {
    const browser = await signedInAdmin();
    const other = await signedInAdmin();

    const wrong = await browser.put('/api/admin/change-password', {
      currentPassword: 'wrong-one',
      newPassword: nextPassword,
      confirmPassword: nextPassword,
    });
    expect([wrong.status, wrong.body.message]).toEqual([400, 'Current password is incorrect']);
    const short = await browser.put('/api/admin/change-password', {
      currentPassword: password,
      newPassword: '12345',
      confirmPassword: '12345',
    });
    expect([short.status, short.body.message]).toEqual([400, 'New password must be at least 6 characters']);
    const mismatch = await browser.put('/api/admin/change-password', {
      currentPassword: password,
      newPassword: nextPassword,
      confirmPassword: 'other-pass',
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

    await new Promise((r) => setTimeout(r, 1100));
    expect((await new Browser().post('/api/admin/login', { username, password })).status).toBe(401);
    const back = await signedInAdmin(nextPassword);
    // Put the original password back for the other tests of this file.
    expect(
      (
        await back.put('/api/admin/change-password', {
          currentPassword: nextPassword,
          newPassword: password,
          confirmPassword: password,
        })
      ).status,
    ).toBe(200);
    await new Promise((r) => setTimeout(r, 1100));
  });

  it('signs out: cookies cleared and the refresh token revoked', async () => {
    const browser = await signedInAdmin();
    const copy = browser.clone();
    copy.cookies.delete(cookieName('ts_admin_session'));
    const out = await browser.post('/api/admin/logout');
    expect(out.status).toBe(200);
    expect(browser.cookies.size).toBe(0);
    expect((await browser.get('/api/admin/user')).status).toBe(401);
    expect((await copy.get('/api/admin/user')).status).toBe(401);
  });

  it('refuses admin sign-out and password change from another site', async () => {
    const browser = await signedInAdmin();
    const evil = new Browser('https://evil.example');
    for (const [k, v] of browser.cookies) evil.cookies.set(k, v);
    expect((await evil.post('/api/admin/logout')).status).toBe(403);
    expect((await browser.get('/api/admin/user')).status).toBe(200);
  });
});

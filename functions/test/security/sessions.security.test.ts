import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdmin } from '../../src/domain/accounts/admin';
import { adminSignIn, authenticatorKeyOf, signedInUser, testPassword } from '../support/accounts';
import { authenticatorCodeAt } from '../support/authenticator';
import { direct } from '../support/direct';
import { Browser, mailCount, uniqueEmail } from '../support/http';

// Sessions that really end, and client addresses no client can choose.

const store = direct();
const adminName = `sess-${Date.now().toString(36)}`;
const adminPassword = 'admin-pass-sess-1';

beforeAll(async () => {
  await createAdmin(
    { admins: store.admins, identity: store.adminIdentity, clock: { now: () => new Date() } },
    { username: adminName, password: adminPassword },
  );
});
afterAll(() => store.close());

describe('logout', () => {
  it('ends a user session at once: a copied cookie no longer reads or changes anything', async () => {
    const { browser } = await signedInUser();
    const copy = browser.clone();
    const accessOnly = browser.clone();
    accessOnly.cookies.delete('ts_refresh');
    expect((await copy.get('/api/auth/user')).status).toBe(200);

    expect((await browser.get('/api/logout', { 'sec-fetch-site': 'same-origin' })).status).toBe(302);

    for (const stolen of [copy, accessOnly]) {
      expect((await stolen.get('/api/auth/user')).status).toBe(401);
      const takeover = await stolen.put('/api/user/email', {
        newEmail: uniqueEmail('thief'),
        currentPassword: testPassword,
      });
      expect(takeover.status).toBe(401);
    }
  });

  it('ends an admin session at once, a copied cookie included', async () => {
    const browser = new Browser();
    expect((await adminSignIn(browser, adminName, adminPassword)).status).toBe(200);
    const copy = browser.clone();
    copy.cookies.delete('ts_admin_refresh');
    expect((await copy.get('/api/admin/dashboard/stats')).status).toBe(200);
    expect((await browser.post('/api/admin/logout')).status).toBe(200);
    expect((await copy.get('/api/admin/dashboard/stats')).status).toBe(401);
    expect((await copy.get('/api/admin/user')).status).toBe(401);
  });

  it("cannot be triggered from another site's link", async () => {
    const { browser } = await signedInUser();
    const out = await browser.get('/api/logout', { 'sec-fetch-site': 'cross-site' });
    expect(out.status).toBe(403);
    expect((await browser.get('/api/auth/user')).status).toBe(200);
    // A link on our own site, or typed in the address bar, still signs out.
    expect((await browser.get('/api/logout', { 'sec-fetch-site': 'none' })).status).toBe(302);
    expect((await browser.get('/api/auth/user')).status).toBe(401);
  });
});

describe('client addresses', () => {
  it('cannot be chosen with X-Forwarded-For: per-address limits hold across forged headers', async () => {
    const address = new Browser().address;
    const statuses: number[] = [];
    for (let i = 0; i < 21; i++) {
      const res = await new Browser(undefined, address).post(
        '/api/auth/request-password-reset',
        { email: uniqueEmail('spoof') },
        { 'x-forwarded-for': `203.0.113.${i}, 198.51.100.${i}` },
      );
      statuses.push(res.status);
    }
    expect(statuses.slice(0, 20).every((s) => s === 200)).toBe(true);
    expect(statuses[20]).toBe(429);
  });

  it('a huge or malformed X-Forwarded-For is never a 5xx', async () => {
    for (const forwarded of ['1'.repeat(3000), 'x'.repeat(3000), 'fe80::1%eth0', ', , ,', '999.1.1.1']) {
      const res = await new Browser().post(
        '/api/auth/login',
        { email: uniqueEmail('xff'), password: 'wrong password' },
        { 'x-forwarded-for': forwarded },
      );
      expect(res.status, forwarded.slice(0, 12)).toBe(401);
    }
  });
});

describe('lockout', () => {
  it('ten wrong passwords from one address do not lock the owner out elsewhere', async () => {
    const { email } = await signedInUser();
    const attacker = new Browser();
    for (let i = 0; i < 12; i++) await attacker.post('/api/auth/login', { email, password: `guess ${i}` });
    expect((await attacker.post('/api/auth/login', { email, password: testPassword })).status).toBe(429);
    expect((await new Browser().post('/api/auth/login', { email, password: testPassword })).status).toBe(200);
  });

  it('guesses from many addresses slow the account down but the right password still works', async () => {
    const { email } = await signedInUser();
    for (let i = 0; i < 14; i++) {
      expect((await new Browser().post('/api/auth/login', { email, password: `guess ${i}` })).status).toBe(
        401,
      );
    }
    expect((await new Browser().post('/api/auth/login', { email, password: testPassword })).status).toBe(200);
  });

  it('the admin account cannot be locked out from another address', async () => {
    const attacker = new Browser();
    for (let i = 0; i < 12; i++) {
      await attacker.post('/api/admin/login', { username: adminName, password: `guess ${i}` });
    }
    expect(
      (await attacker.post('/api/admin/login', { username: adminName, password: adminPassword })).status,
    ).toBe(429);
    const owner = new Browser();
    expect((await adminSignIn(owner, adminName, adminPassword)).status).toBe(200);
    // Guesses at the current password on the admin password change are limited too.
    for (let i = 0; i < 10; i++) {
      const res = await owner.put('/api/admin/change-password', {
        currentPassword: `guess ${i}`,
        newPassword: 'another-pass-1',
        confirmPassword: 'another-pass-1',
      });
      expect(res.status).toBe(400);
    }
    const limited = await owner.put('/api/admin/change-password', {
      currentPassword: adminPassword,
      newPassword: 'another-pass-1',
      confirmPassword: 'another-pass-1',
    });
    expect(limited.status).toBe(429);
  });

  it("guesses at an admin's second factor are limited like passwords, and the owner still signs in from elsewhere", async () => {
    const username = `${adminName}-code`;
    await createAdmin(
      { admins: store.admins, identity: store.adminIdentity, clock: { now: () => new Date() } },
      { username, password: adminPassword },
    );
    expect((await adminSignIn(new Browser(), username, adminPassword)).status).toBe(200);
    const secret = authenticatorKeyOf(username) as string;
    // Someone who has the password guesses codes from one address.
    const attacker = new Browser();
    expect((await attacker.post('/api/admin/login', { username, password: adminPassword })).status).toBe(200);
    for (let i = 0; i < 10; i++) {
      const guess = await attacker.post('/api/admin/login/code', { code: String(100000 + i * 7919) });
      expect(guess.status).toBe(400);
    }
    const limited = await attacker.post('/api/admin/login/code', {
      code: authenticatorCodeAt(secret, Date.now()),
    });
    expect([limited.status, limited.body.message]).toEqual([
      429,
      'Too many attempts. Please wait a few minutes and try again.',
    ]);
    expect((await adminSignIn(new Browser(), username, adminPassword)).status).toBe(200);
  });

  it('guesses at the current password on a password change are limited', async () => {
    const { browser } = await signedInUser();
    for (let i = 0; i < 10; i++) {
      const res = await browser.put('/api/user/password', {
        currentPassword: `guess ${i}`,
        newPassword: 'another-pass-1',
        confirmPassword: 'another-pass-1',
      });
      expect(res.status).toBe(400);
    }
    const limited = await browser.put('/api/user/password', {
      currentPassword: testPassword,
      newPassword: 'another-pass-1',
      confirmPassword: 'another-pass-1',
    });
    expect(limited.status).toBe(429);
  });
});

describe('email change', () => {
  it('a leftover cookie cannot take the account: the password is needed and the owner keeps the address until the new one confirms', async () => {
    const { browser, email } = await signedInUser();
    const thief = browser.clone();
    const target = uniqueEmail('thief-inbox');
    expect((await thief.put('/api/user/email', { newEmail: target })).status).toBe(400);
    expect((await thief.put('/api/user/email', { newEmail: target, currentPassword: 'guess' })).status).toBe(
      400,
    );
    expect((await browser.get('/api/auth/user')).body.email).toBe(email);
    // Even with the password, the request alone changes nothing, and the owner is told.
    const asked = await thief.put('/api/user/email', { newEmail: target, currentPassword: testPassword });
    expect(asked.status).toBe(202);
    expect((await browser.get('/api/auth/user')).body.email).toBe(email);
    expect((await new Browser().post('/api/auth/login', { email, password: testPassword })).status).toBe(200);
    expect(await mailCount(email)).toBeGreaterThanOrEqual(2);
  });
});

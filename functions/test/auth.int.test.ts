import { createHash, randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { signedInUser, testPassword } from './support/accounts';
import { direct } from './support/direct';
import {
  apiUrl,
  Browser,
  cookieName,
  mailCount,
  mailCountReaching,
  mailedToken,
  mailsTo,
  uniqueEmail,
} from './support/http';
import { localOnly } from './support/run';

// Every account call through the HTTP API against cognito-local, DynamoDB Local
// and the local SES store (or a stage's pools, table and mail sink), following
// the links from the mails actually sent.

/** The per-address limits need callers at two addresses; on a stage every test browser is this machine. */
const twoAddresses = localOnly(
  'needs a second client address, and every call to a stage comes from this machine',
);

const store = direct();
afterAll(() => store.close());

const password = testPassword;

function person(email = uniqueEmail()) {
  return { firstName: 'Ada', lastName: 'Lovelace', email, password, confirmPassword: password };
}

describe('sign-up and verification', () => {
  it('registers an unverified free account and mails a link to the site itself', async () => {
    const email = uniqueEmail('signup');
    const res = await new Browser().post('/api/auth/register', person(email));

    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ email, firstName: 'Ada' });
    const profile = await store.users.findByEmail(email);
    expect(profile).toMatchObject({
      firstName: 'Ada',
      lastName: 'Lovelace',
      emailVerified: false,
      planStatus: 'free',
    });
    expect(profile?.generationsUsedThisMonth).toBe(0);

    const { link, mail } = await mailedToken(email, '/verify-email/');
    expect(link.startsWith(`${apiUrl}/verify-email/`)).toBe(true);
    expect(mail.body.html).toContain(link);
  });

  it('stores only the hash of a verification token', async () => {
    const email = uniqueEmail('hash');
    await new Browser().post('/api/auth/register', person(email));
    const { token } = await mailedToken(email, '/verify-email/');
    const hash = createHash('sha256').update(token).digest('hex');
    expect(await store.tokens.consume('verify-email', token)).toBeUndefined();
    const record = await store.tokens.consume('verify-email', hash);
    expect(record?.userId).toBe((await store.users.findByEmail(email))?.id);
  });

  it('refuses a duplicate email with a clear message', async () => {
    const email = uniqueEmail('dup');
    await new Browser().post('/api/auth/register', person(email));
    const again = await new Browser().post('/api/auth/register', { ...person(email), firstName: 'Other' });
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ message: 'An account with this email already exists.' });
  });

  it('validates the payload with the spec messages', async () => {
    const browser = new Browser();
    const cases: [Record<string, unknown>, string][] = [
      [{ ...person(), firstName: '' }, 'First name is required'],
      [{ ...person(), email: 'nope' }, 'Please enter a valid email address'],
      [
        { ...person(), password: 'short', confirmPassword: 'short' },
        'Password must be at least 8 characters',
      ],
      [{ ...person(), confirmPassword: 'something else' }, "Passwords don't match"],
    ];
    for (const [body, message] of cases) {
      const res = await browser.post('/api/auth/register', body);
      expect(res.status).toBe(400);
      expect(res.body.message).toBe(message);
    }
  });

  it('refuses sign-in before verification with a message about verifying the email', async () => {
    const email = uniqueEmail('unverified');
    const browser = new Browser();
    await browser.post('/api/auth/register', person(email));
    const res = await browser.post('/api/auth/login', { email, password });
    expect(res.status).toBe(403);
    expect(String(res.body.message)).toContain('verify your email');
    expect(res.setCookies).toEqual([]);
  });

  it('verifies through the mailed link once; the link is then expired', async () => {
    const email = uniqueEmail('verify');
    const browser = new Browser();
    await browser.post('/api/auth/register', person(email));
    const { token } = await mailedToken(email, '/verify-email/');

    const first = await browser.get(`/api/auth/verify-email/${token}`);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ user: { firstName: 'Ada' } });
    expect((await store.users.findByEmail(email))?.emailVerified).toBe(true);

    const reused = await browser.get(`/api/auth/verify-email/${token}`);
    expect(reused.status).toBe(400);
    expect(reused.body).toMatchObject({ expired: true });
  });

  it('answers expired for a link past its 24 hours and for an unknown link', async () => {
    const email = uniqueEmail('old-link');
    await new Browser().post('/api/auth/register', person(email));
    const user = await store.users.findByEmail(email);
    const token = randomBytes(32).toString('base64url');
    const hash = createHash('sha256').update(token).digest('hex');
    await store.tokens.save('verify-email', hash, user?.id ?? '', Math.floor(Date.now() / 1000) - 1);

    const old = await new Browser().get(`/api/auth/verify-email/${token}`);
    expect(old.status).toBe(400);
    expect(old.body).toMatchObject({ expired: true });
    expect((await store.users.findByEmail(email))?.emailVerified).toBe(false);

    const unknown = await new Browser().get(
      `/api/auth/verify-email/${randomBytes(32).toString('base64url')}`,
    );
    expect(unknown.body).toMatchObject({ expired: true });
  });

  it('resends a verification link without saying whether the account exists', async () => {
    const email = uniqueEmail('resend');
    const browser = new Browser();
    await browser.post('/api/auth/register', person(email));
    await mailedToken(email, '/verify-email/');
    const before = await mailCount(email);

    const known = await browser.post('/api/auth/resend-verification', { email });
    const unknown = await browser.post('/api/auth/resend-verification', { email: uniqueEmail('ghost') });

    expect(known.status).toBe(200);
    expect(unknown.body).toEqual(known.body);
    expect(await mailCountReaching(email, before + 1)).toBe(before + 1);
    const { token } = await mailedToken(email, '/verify-email/');
    expect((await browser.get(`/api/auth/verify-email/${token}`)).status).toBe(200);
  });
});

describe('sessions', () => {
  it('signs in with HttpOnly SameSite cookies and answers the current user', async () => {
    const email = uniqueEmail('login');
    const browser = new Browser();
    await browser.post('/api/auth/register', person(email));
    await browser.get(`/api/auth/verify-email/${(await mailedToken(email, '/verify-email/')).token}`);

    const login = await browser.post('/api/auth/login', { email, password });
    expect(login.status).toBe(200);
    expect(login.setCookies.length).toBeGreaterThanOrEqual(3);
    const hint = `${cookieName('ts_signed_in')}=`;
    for (const cookie of login.setCookies) {
      // Every cookie but the signed-in hint (no secret in it, decision 023) is out of the page's reach.
      if (cookie.startsWith(hint)) expect(cookie).not.toMatch(/HttpOnly/);
      else expect(cookie).toMatch(/HttpOnly/);
      expect(cookie).toMatch(/SameSite=Lax/);
      expect(cookie).toMatch(/Path=\//);
    }
    expect(login.setCookies.find((c) => c.startsWith(hint))).toMatch(/^[^=]+=1;.*Max-Age=2592000/);
    expect(browser.cookies.get(cookieName('ts_signed_in'))).toBe('1');
    expect(JSON.stringify(login.body)).not.toMatch(/token/i);

    const me = await browser.get('/api/auth/user');
    expect(me.status).toBe(200);
    expect(Object.keys(me.body).sort()).toEqual(
      [
        'billingCycle',
        'createdAt',
        'email',
        'emailVerified',
        'entitlements',
        'firstName',
        'generationsUsedThisMonth',
        'hasBillingAccount',
        'hasBillingHistory',
        'id',
        'lastName',
        'planEndDate',
        'planGrantedBySite',
        'planName',
        'planStartDate',
        'planStatus',
        'quotaResetsAt',
        'stripeSubscriptionId',
        'subscriptionPlanId',
      ].sort(),
    );
    expect(me.body).toMatchObject({
      email,
      firstName: 'Ada',
      planStatus: 'free',
      emailVerified: true,
      planGrantedBySite: false,
      hasBillingAccount: false,
    });
  });

  it('answers 401 without a session and for a wrong password', async () => {
    expect((await new Browser().get('/api/auth/user')).status).toBe(401);
    const { email } = await signedInUser();
    const wrong = await new Browser().post('/api/auth/login', { email, password: 'not the password' });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toEqual({ message: 'Invalid email or password' });
    const ghost = await new Browser().post('/api/auth/login', { email: uniqueEmail('ghost'), password });
    expect(ghost.body).toEqual({ message: 'Invalid email or password' });
  });

  it('refreshes transparently when the access token is gone', async () => {
    const { browser, email } = await signedInUser();
    browser.cookies.delete(cookieName('ts_session'));
    const me = await browser.get('/api/auth/user');
    expect(me.status).toBe(200);
    expect(me.body.email).toBe(email);
    expect(me.setCookies.some((c) => c.startsWith(`${cookieName('ts_session')}=`))).toBe(true);
    expect(me.setCookies.some((c) => c.startsWith(`${cookieName('ts_signed_in')}=1;`))).toBe(true);
  });

  it('clears a signed-in hint left without a session, and never signs anyone in by it', async () => {
    const browser = new Browser();
    browser.cookies.set(cookieName('ts_signed_in'), '1');

    const me = await browser.get('/api/auth/user');

    expect(me.status).toBe(401);
    expect(me.setCookies.some((c) => c.startsWith(`${cookieName('ts_signed_in')}=;`))).toBe(true);
    expect(browser.cookies.has(cookieName('ts_signed_in'))).toBe(false);
  });

  it('refuses a tampered token', async () => {
    const { browser } = await signedInUser();
    const token = browser.cookies.get(cookieName('ts_session')) ?? '';
    const [header, , signature] = token.split('.');
    const forged = Buffer.from(JSON.stringify({ sub: 'someone-else', token_use: 'access' })).toString(
      'base64url',
    );
    const attacker = new Browser();
    attacker.cookies.set(cookieName('ts_session'), `${header}.${forged}.${signature}`);
    expect((await attacker.get('/api/auth/user')).status).toBe(401);
  });

  it('logs out: cookies cleared, redirect home, the refresh token revoked', async () => {
    const { browser } = await signedInUser();
    const copy = browser.clone();
    copy.cookies.delete(cookieName('ts_session'));

    const out = await browser.get('/api/logout');
    expect(out.status).toBe(302);
    expect(out.headers.get('location')).toBe('/');
    expect(browser.cookies.size).toBe(0);
    expect(out.setCookies.some((c) => /^[^=]*ts_signed_in=;.*Max-Age=0/.test(c))).toBe(true);
    expect((await browser.get('/api/auth/user')).status).toBe(401);
    expect((await copy.get('/api/auth/user')).status).toBe(401);
  });

  it('a user acts only as themselves', async () => {
    const alice = await signedInUser(uniqueEmail('alice'));
    const bob = await signedInUser(uniqueEmail('bob'));
    const newAddress = uniqueEmail('bob-new');
    const res = await bob.browser.put('/api/user/email', {
      newEmail: newAddress,
      currentPassword: testPassword,
    });
    expect(res.status).toBe(202);
    const { token } = await mailedToken(newAddress, '/verify-email/');
    expect((await new Browser().get(`/api/auth/verify-email/${token}`)).status).toBe(200);
    expect((await alice.browser.get('/api/auth/user')).body.email).toBe(alice.email);
    expect((await bob.browser.get('/api/auth/user')).body.email).toBe(newAddress);
    // Bob cannot take Alice's address either.
    const steal = await bob.browser.put('/api/user/email', {
      newEmail: alice.email,
      currentPassword: testPassword,
    });
    expect(steal.status).toBe(409);
  });
});

describe('password reset', () => {
  it('answers the same for unknown accounts and mails only real ones', async () => {
    const { email } = await signedInUser();
    const ghost = uniqueEmail('ghost');
    const known = await new Browser().post('/api/auth/request-password-reset', { email });
    const unknown = await new Browser().post('/api/auth/request-password-reset', { email: ghost });
    expect(known.status).toBe(200);
    expect(unknown.status).toBe(200);
    expect(unknown.body).toEqual(known.body);
    // Once the real account's mail is in, the other would be too.
    await mailedToken(email, '/reset-password/');
    expect(await mailCount(ghost)).toBe(0);
  });

  it('resets once through the mailed link and ends every session', async () => {
    const { browser, email } = await signedInUser();
    await new Browser().post('/api/auth/request-password-reset', { email });
    const { token, link } = await mailedToken(email, '/reset-password/');
    expect(link.startsWith(`${apiUrl}/reset-password/`)).toBe(true);

    const reset = await new Browser().post('/api/auth/reset-password', {
      token,
      newPassword: 'brand new password',
    });
    expect(reset.status).toBe(200);
    expect((await browser.get('/api/auth/user')).status).toBe(401);

    const reused = await new Browser().post('/api/auth/reset-password', {
      token,
      newPassword: 'another password',
    });
    expect(reused.status).toBe(400);
    expect(reused.body.message).toBe('This password reset link is invalid or has expired.');

    await new Promise((r) => setTimeout(r, 1100));
    expect((await new Browser().post('/api/auth/login', { email, password })).status).toBe(401);
    expect(
      (await new Browser().post('/api/auth/login', { email, password: 'brand new password' })).status,
    ).toBe(200);
  });

  it('refuses a reset link older than an hour', async () => {
    const { email } = await signedInUser();
    const user = await store.users.findByEmail(email);
    const token = randomBytes(32).toString('base64url');
    await store.tokens.save(
      'reset-password',
      createHash('sha256').update(token).digest('hex'),
      user?.id ?? '',
      Math.floor(Date.now() / 1000) - 1,
    );
    const res = await new Browser().post('/api/auth/reset-password', {
      token,
      newPassword: 'brand new password',
    });
    expect(res.status).toBe(400);
    expect((await new Browser().post('/api/auth/login', { email, password })).status).toBe(200);
  });
});

describe('account changes', () => {
  it('changes the email only to a free, different address', async () => {
    const { browser, email } = await signedInUser();
    const other = await signedInUser();

    const change = (newEmail: string, currentPassword = password) =>
      browser.put('/api/user/email', { newEmail, currentPassword });
    const same = await change(email);
    expect([same.status, same.body.message]).toEqual([400, 'No changes made']);
    const taken = await change(other.email);
    expect(taken.status).toBe(409);
    const invalid = await change('not-an-email');
    expect(invalid.status).toBe(400);
    const noPassword = await browser.put('/api/user/email', { newEmail: uniqueEmail('np') });
    expect([noPassword.status, noPassword.body.message]).toEqual([400, 'Current password is required']);
    const wrong = await change(uniqueEmail('wrong'), 'not my password');
    expect([wrong.status, wrong.body.message]).toEqual([400, 'Current password is incorrect']);

    const fresh = uniqueEmail('moved');
    const moved = await change(fresh);
    expect(moved.status).toBe(202);
    expect(moved.body.message).toContain(fresh);
    // Nothing moves until the new address confirms; the old one is told.
    expect((await browser.get('/api/auth/user')).body.email).toBe(email);
    // Its verification mail, then the notice.
    expect(await mailCountReaching(email, 2)).toBe(2);
    expect((await mailsTo(email)).some((m) => m.subject.includes('email change request'))).toBe(true);
    const { token } = await mailedToken(fresh, '/verify-email/');
    const confirmed = await new Browser().get(`/api/auth/verify-email/${token}`);
    expect([confirmed.status, confirmed.body.message]).toEqual([
      200,
      `Your email is now ${fresh}. Sign in with it from now on.`,
    ]);
    expect((await browser.get('/api/auth/user')).body.email).toBe(fresh);
    expect((await new Browser().post('/api/auth/login', { email: fresh, password })).status).toBe(200);
    expect((await new Browser().post('/api/auth/login', { email, password })).status).toBe(401);
    // The old address is free again.
    expect((await new Browser().post('/api/auth/register', person(email))).status).toBe(201);
  });

  it('changes the password after checking the current one; other sessions end, this one goes on', async () => {
    const { browser, email } = await signedInUser();
    const elsewhere = new Browser();
    expect((await elsewhere.post('/api/auth/login', { email, password })).status).toBe(200);

    const wrong = await browser.put('/api/user/password', {
      currentPassword: 'nope nope',
      newPassword: 'next password',
    });
    expect([wrong.status, wrong.body.message]).toEqual([400, 'Current password is incorrect']);

    const ok = await browser.put('/api/user/password', {
      currentPassword: password,
      newPassword: 'next password',
    });
    expect(ok.status).toBe(200);
    expect((await browser.get('/api/auth/user')).status).toBe(200);
    expect((await elsewhere.get('/api/auth/user')).status).toBe(401);
    expect((await new Browser().post('/api/auth/login', { email, password })).status).toBe(401);
  });
});

describe('abuse', () => {
  twoAddresses.it('rate limits sign-in guesses per account and address with a clear 429', async () => {
    const { email } = await signedInUser();
    const guesser = new Browser();
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) {
      statuses.push((await guesser.post('/api/auth/login', { email, password: 'wrong guess' })).status);
    }
    expect(statuses.every((s) => s === 401)).toBe(true);
    const blocked = await guesser.post('/api/auth/login', { email, password });
    expect(blocked.status).toBe(429);
    expect(blocked.body.message).toBe('Too many attempts. Please wait a few minutes and try again.');
    expect((await new Browser().post('/api/auth/login', { email, password })).status).toBe(200);
  });

  it('rate limits reset requests and resends per account', async () => {
    const email = uniqueEmail('flood');
    let last = 0;
    for (let i = 0; i < 6; i++)
      last = (await new Browser().post('/api/auth/request-password-reset', { email })).status;
    expect(last).toBe(429);
    for (let i = 0; i < 6; i++)
      last = (await new Browser().post('/api/auth/resend-verification', { email })).status;
    expect(last).toBe(429);
  });

  twoAddresses.it('rate limits sign-ups per client address, whatever X-Forwarded-For claims', async () => {
    const address = new Browser().address;
    let last = 0;
    for (let i = 0; i < 21; i++) {
      last = (
        await new Browser(undefined, address).post('/api/auth/register', person(uniqueEmail('bulk')), {
          'x-forwarded-for': `203.0.113.${i}`,
        })
      ).status;
    }
    expect(last).toBe(429);
    // Another address is not held back.
    const other = await new Browser().post('/api/auth/register', person(uniqueEmail('other')));
    expect(other.status, JSON.stringify(other.body)).toBe(201);
  });

  it('refuses state changes from another site (CSRF) and non-JSON bodies', async () => {
    const { email } = await signedInUser();
    const evil = await new Browser('https://evil.example').post('/api/auth/login', { email, password });
    expect(evil.status).toBe(403);
    expect(evil.setCookies).toEqual([]);
    const form = await fetch(`${apiUrl}/api/auth/login`, {
      method: 'POST',
      headers: { origin: apiUrl, 'content-type': 'application/x-www-form-urlencoded' },
      body: `email=${encodeURIComponent(email)}&password=${encodeURIComponent(password)}`,
    });
    expect(form.status).toBe(415);
    expect(form.headers.getSetCookie()).toEqual([]);
  });
});

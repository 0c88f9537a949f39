import { describe, expect, it } from 'vitest';
import { inMemorySettings } from '../../testing/in-memory';
import {
  fakeClock,
  fakeIdentityProvider,
  fakeMailer,
  inMemoryLimiter,
  inMemoryRevokedSessions,
  inMemorySessionReads,
  inMemoryTokens,
  inMemoryUsers,
  testSecrets,
} from '../../testing/in-memory-accounts';
import { DomainError } from '../errors';
import { seedSettings } from '../settings/settings';
import { siteNameSource } from '../settings/site';
import {
  type AccountDeps,
  authenticate,
  login,
  logout,
  register,
  requestEmailChange,
  requestPasswordReset,
  resendVerification,
  resetPassword,
  updatePassword,
  verifyEmail,
} from './account-service';
import type { SessionReads, VerifiedToken } from './ports';
import type { User } from './user';

function setup() {
  const clock = fakeClock();
  const identity = fakeIdentityProvider(clock);
  const users = inMemoryUsers();
  const tokens = inMemoryTokens();
  const mailer = fakeMailer();
  const revoked = inMemoryRevokedSessions(clock);
  const deps: AccountDeps & { sessionReads: SessionReads<User> } = {
    users,
    identity,
    revoked,
    sessionReads: inMemorySessionReads(revoked, (claims) => users.get(claims.subject)),
    tokens,
    mailer,
    limiter: inMemoryLimiter(),
    secrets: testSecrets,
    clock,
    siteOrigin: 'https://tunesmith.test',
    siteName: async () => 'Tunesmith',
    log: { warn() {} },
  };
  return { deps, clock, identity, users, tokens, mailer };
}

const ada = {
  firstName: 'Ada',
  lastName: 'Lovelace',
  email: 'ada@example.com',
  password: 'analytical-engine',
  confirmPassword: 'analytical-engine',
};

async function verifiedUser(s: ReturnType<typeof setup>, input = ada) {
  await register(s.deps, input, '10.0.0.1');
  await verifyEmail(s.deps, s.mailer.lastToken('/verify-email/'));
  return login(s.deps, { email: input.email, password: input.password }, '10.0.0.1');
}

async function failure(promise: Promise<unknown>): Promise<DomainError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof DomainError) return error;
    throw error;
  }
  throw new Error('expected a DomainError');
}

describe('register', () => {
  it('creates an unverified free profile and mails a verification link on the site origin', async () => {
    const s = setup();
    const out = await register(s.deps, ada, '10.0.0.1');

    expect(out).toEqual({ email: 'ada@example.com', firstName: 'Ada' });
    const [user] = [...s.users.all.values()];
    expect(user).toMatchObject({
      firstName: 'Ada',
      lastName: 'Lovelace',
      emailVerified: false,
      planStatus: 'free',
    });
    expect(user?.generationsUsedThisMonth).toBe(0);
    const mail = s.mailer.sent[0];
    expect(mail?.to).toBe('ada@example.com');
    expect(mail?.text).toMatch(/https:\/\/tunesmith\.test\/verify-email\/[A-Za-z0-9_-]{32,}/);
    expect(mail?.html).toContain('https://tunesmith.test/verify-email/');
  });

  it('names the site as its Site Name setting does, in the subject, greeting and heading', async () => {
    const s = setup();
    const settings = inMemorySettings();
    for (const setting of seedSettings('2026-11-25T10:00:00.000Z')) {
      await settings.put(setting.key === 'site_name' ? { ...setting, value: 'Harbour Radio' } : setting);
    }
    s.deps.siteName = siteNameSource(settings, 'Tunesmith');

    await register(s.deps, ada, '10.0.0.1');
    await requestPasswordReset(s.deps, ada.email, '10.0.0.1');

    const [verification, reset] = s.mailer.sent;
    expect(verification?.subject).toBe('Verify your email for Harbour Radio');
    expect(verification?.text).toMatch(/^Hi Ada, thanks for signing up for Harbour Radio\./);
    expect(verification?.html).toContain('Harbour Radio');
    expect(reset?.subject).toBe('Reset your Harbour Radio password');
    expect(reset?.text).toContain('the password of your Harbour Radio account');
    expect(JSON.stringify(s.mailer.sent)).not.toContain('Tunesmith');
  });

  it('stores only a hash of the token', async () => {
    const s = setup();
    await register(s.deps, ada, '10.0.0.1');
    const token = s.mailer.lastToken('/verify-email/');
    expect(await s.tokens.consume('verify-email', token)).toBeUndefined();
    expect(await s.tokens.consume('verify-email', testSecrets.hash(token))).toBeDefined();
  });

  it('refuses a duplicate email with a clear conflict and writes nothing', async () => {
    const s = setup();
    await register(s.deps, ada, '10.0.0.1');
    const error = await failure(register(s.deps, { ...ada, firstName: 'Other' }, '10.0.0.2'));
    expect(error.kind).toBe('conflict');
    expect(error.message).toBe('An account with this email already exists.');
    expect(s.users.all.size).toBe(1);
    expect(s.identity.identities.size).toBe(1);
  });

  it('removes the identity again when the profile cannot be written', async () => {
    const s = setup();
    s.deps.users.create = async () => {
      throw new Error('table down');
    };
    await expect(register(s.deps, ada, '10.0.0.1')).rejects.toThrow('table down');
    expect(s.identity.identities.size).toBe(0);
  });

  it('keeps the account when the mail fails, so a resend can follow', async () => {
    const s = setup();
    s.mailer.failNext();
    await register(s.deps, ada, '10.0.0.1');
    expect(s.users.all.size).toBe(1);
    await resendVerification(s.deps, ada.email, '10.0.0.1');
    expect(s.mailer.sent).toHaveLength(1);
  });

  it('limits sign-ups per client address', async () => {
    const s = setup();
    for (let i = 0; i < 20; i++) {
      await register(s.deps, { ...ada, email: `user${i}@example.com` }, '10.0.0.9');
    }
    const error = await failure(register(s.deps, { ...ada, email: 'one-more@example.com' }, '10.0.0.9'));
    expect(error.kind).toBe('rate-limited');
  });
});

describe('verifyEmail', () => {
  it('verifies once; the same link is then expired', async () => {
    const s = setup();
    await register(s.deps, ada, '10.0.0.1');
    const token = s.mailer.lastToken('/verify-email/');

    expect(await verifyEmail(s.deps, token)).toEqual({
      firstName: 'Ada',
      message: 'Your email has been verified. You can now sign in.',
    });
    expect([...s.users.all.values()][0]?.emailVerified).toBe(true);

    const again = await failure(verifyEmail(s.deps, token));
    expect(again.details).toEqual({ expired: true });
    expect(again.message).toBe('This verification link has expired or is no longer valid.');
  });

  it('refuses a link older than 24 hours', async () => {
    const s = setup();
    await register(s.deps, ada, '10.0.0.1');
    s.clock.advance(24 * 3600 * 1000 + 1000);
    const error = await failure(verifyEmail(s.deps, s.mailer.lastToken('/verify-email/')));
    expect(error.details).toEqual({ expired: true });
    expect([...s.users.all.values()][0]?.emailVerified).toBe(false);
  });

  it('refuses an unknown token', async () => {
    const s = setup();
    expect((await failure(verifyEmail(s.deps, 'made-up'))).details).toEqual({ expired: true });
  });
});

describe('login', () => {
  it('refuses an unverified account with a message about verifying the email', async () => {
    const s = setup();
    await register(s.deps, ada, '10.0.0.1');
    const error = await failure(login(s.deps, { email: ada.email, password: ada.password }, '10.0.0.1'));
    expect(error.kind).toBe('forbidden');
    expect(error.message).toContain('verify your email');
  });

  it('refuses a wrong password as invalid email or password', async () => {
    const s = setup();
    await verifiedUser(s);
    const error = await failure(login(s.deps, { email: ada.email, password: 'nope-nope' }, '10.0.0.1'));
    expect(error.kind).toBe('unauthorized');
    expect(error.message).toBe('Invalid email or password');
  });

  it('answers an unknown account exactly like a wrong password', async () => {
    const s = setup();
    const error = await failure(
      login(s.deps, { email: 'ghost@example.com', password: 'whatever1' }, '10.0.0.1'),
    );
    expect([error.kind, error.message]).toEqual(['unauthorized', 'Invalid email or password']);
  });

  it('refuses an account from the address that kept guessing, and only from there', async () => {
    const s = setup();
    await verifiedUser(s);
    for (let i = 0; i < 10; i++) {
      const wrong = await failure(login(s.deps, { email: ada.email, password: 'wrong' }, '10.0.1.1'));
      expect(wrong.kind).toBe('unauthorized');
    }
    const error = await failure(login(s.deps, { email: ada.email, password: ada.password }, '10.0.1.1'));
    expect(error.kind).toBe('rate-limited');
    expect(error.message).toBe('Too many attempts. Please wait a few minutes and try again.');
    // The owner, elsewhere, signs in: no one can lock someone else out.
    expect((await login(s.deps, { email: ada.email, password: ada.password }, '10.0.2.1')).user.email).toBe(
      ada.email,
    );
  });

  it('slows down, rather than refuses, an account guessed at from many addresses', async () => {
    const s = setup();
    await verifiedUser(s);
    for (let i = 0; i < 30; i++) {
      await failure(login(s.deps, { email: ada.email, password: 'wrong' }, `10.0.3.${i}`));
    }
    const before = s.clock.now().getTime();
    const ok = await login(s.deps, { email: ada.email, password: ada.password }, '10.0.4.1');
    expect(ok.user.email).toBe(ada.email);
    // 20 failures beyond the free 10, 250 ms each, capped at 3 s.
    expect(s.clock.now().getTime() - before).toBe(3_000);
  });

  it('refuses a suspended account with the right password, and lets it in once the suspension is lifted', async () => {
    const s = setup();
    const { user } = await verifiedUser(s);
    await s.deps.users.update(user.id, { suspended: true });
    const error = await failure(login(s.deps, { email: ada.email, password: ada.password }, '10.0.0.1'));
    expect([error.kind, error.message]).toEqual(['forbidden', 'This account is suspended.']);
    await s.deps.users.update(user.id, { suspended: false });
    expect((await login(s.deps, { email: ada.email, password: ada.password }, '10.0.0.1')).user.id).toBe(
      user.id,
    );
  });

  it('limits guesses at the current password on a password change', async () => {
    const s = setup();
    const { user } = await verifiedUser(s);
    const change = (currentPassword: string) =>
      updatePassword(s.deps, user, { currentPassword, newPassword: 'new-password-1' }, '10.0.5.1');
    for (let i = 0; i < 10; i++) expect((await failure(change('wrong'))).kind).toBe('validation');
    expect((await failure(change(ada.password))).kind).toBe('rate-limited');
  });
});

describe('authenticate', () => {
  it('accepts fresh tokens and refreshes an expired access token', async () => {
    const s = setup();
    const { tokens, user } = await verifiedUser(s);

    expect((await authenticate(s.deps, tokens))?.user.id).toBe(user.id);

    s.clock.advance(901_000);
    const later = await authenticate(s.deps, tokens);
    expect(later?.user.id).toBe(user.id);
    expect(later?.refreshed?.accessToken).toBeDefined();
    expect(await authenticate(s.deps, { accessToken: tokens.accessToken })).toBeUndefined();
  });

  it('refuses a session after logout at once, a copied access token included', async () => {
    const s = setup();
    const { tokens } = await verifiedUser(s);
    const other = await login(s.deps, { email: ada.email, password: ada.password }, '10.0.0.2');
    expect(await authenticate(s.deps, { accessToken: tokens.accessToken })).toBeDefined();
    await logout(s.deps, tokens);
    // A copy of either cookie stops working now, not when the token expires.
    expect(await authenticate(s.deps, { accessToken: tokens.accessToken })).toBeUndefined();
    expect(await authenticate(s.deps, tokens)).toBeUndefined();
    // Another browser's session goes on.
    expect(await authenticate(s.deps, { accessToken: other.tokens.accessToken })).toBeDefined();
    s.clock.advance(901_000);
    expect(await authenticate(s.deps, tokens)).toBeUndefined();
  });

  it('reads whether the token was ended and whose it is together: one read per request, after the token checks out', async () => {
    const s = setup();
    const { tokens, user } = await verifiedUser(s);
    const asked: string[] = [];
    const deps = {
      ...s.deps,
      sessionReads: {
        read: (tokenHash: string, claims: VerifiedToken) => {
          asked.push(claims.subject);
          return s.deps.sessionReads.read(tokenHash, claims);
        },
      },
    };

    expect((await authenticate(deps, { accessToken: tokens.accessToken }))?.user.id).toBe(user.id);
    expect(asked).toEqual([user.id]);
    // A token that does not verify reads nothing.
    expect(await authenticate(deps, { accessToken: `${tokens.accessToken}x` })).toBeUndefined();
    expect(asked).toEqual([user.id]);
  });

  it('refuses every session of a suspended account, a refreshed one too', async () => {
    const s = setup();
    const { tokens, user } = await verifiedUser(s);
    await s.deps.users.update(user.id, { suspended: true });
    expect(await authenticate(s.deps, { accessToken: tokens.accessToken })).toBeUndefined();
    s.clock.advance(901_000);
    expect(await authenticate(s.deps, tokens)).toBeUndefined();
  });

  it('refuses no tokens and garbage', async () => {
    const s = setup();
    expect(await authenticate(s.deps, {})).toBeUndefined();
    expect(await authenticate(s.deps, { accessToken: 'x', refreshToken: 'y' })).toBeUndefined();
  });
});

describe('password reset', () => {
  it('answers the same whether or not the account exists, mailing only a real one', async () => {
    const s = setup();
    await verifiedUser(s);
    const known = await requestPasswordReset(s.deps, ada.email, '10.0.0.1');
    const unknown = await requestPasswordReset(s.deps, 'ghost@example.com', '10.0.0.1');
    expect(known).toBe(unknown);
    expect(s.mailer.sent.filter((m) => m.text.includes('/reset-password/'))).toHaveLength(1);
  });

  it('sets the new password once and ends every session', async () => {
    const s = setup();
    const { tokens } = await verifiedUser(s);
    await requestPasswordReset(s.deps, ada.email, '10.0.0.1');
    const token = s.mailer.lastToken('/reset-password/');

    await resetPassword(s.deps, token, 'new-password-1');

    expect(await authenticate(s.deps, tokens)).toBeUndefined();
    expect(s.identity.liveRefreshTokens()).toBe(0);
    expect((await failure(resetPassword(s.deps, token, 'another-pass'))).message).toBe(
      'This password reset link is invalid or has expired.',
    );
    s.clock.advance(1000);
    const fresh = await login(s.deps, { email: ada.email, password: 'new-password-1' }, '10.0.0.1');
    expect(await authenticate(s.deps, fresh.tokens)).toBeDefined();
  });

  it('refuses a link older than one hour', async () => {
    const s = setup();
    await verifiedUser(s);
    await requestPasswordReset(s.deps, ada.email, '10.0.0.1');
    s.clock.advance(3601_000);
    const error = await failure(
      resetPassword(s.deps, s.mailer.lastToken('/reset-password/'), 'new-password-1'),
    );
    expect(error.kind).toBe('validation');
    await expect(
      login(s.deps, { email: ada.email, password: ada.password }, '10.0.0.1'),
    ).resolves.toBeDefined();
  });
});

describe('requestEmailChange', () => {
  const change = (
    s: ReturnType<typeof setup>,
    user: User,
    newEmail: string,
    currentPassword = ada.password,
  ) => requestEmailChange(s.deps, user, { newEmail, currentPassword }, '10.0.0.1');

  it('refuses the same address, a wrong password and a taken address, changing nothing', async () => {
    const s = setup();
    const { user } = await verifiedUser(s);
    await verifiedUser(s, { ...ada, email: 'grace@example.com' });

    expect((await failure(change(s, user, ada.email))).message).toBe('No changes made');
    expect((await failure(change(s, user, 'new@example.com', 'wrong'))).message).toBe(
      'Current password is incorrect',
    );
    const taken = await failure(change(s, user, 'grace@example.com'));
    expect([taken.kind, taken.message]).toEqual(['conflict', 'An account with this email already exists.']);
    expect((await s.users.get(user.id))?.email).toBe(ada.email);
  });

  it('changes the address only when the link mailed to it is followed, and tells the old address', async () => {
    const s = setup();
    const { user } = await verifiedUser(s);
    const message = await change(s, user, 'ada@lovelace.dev');
    expect(message).toContain('ada@lovelace.dev');
    // Nothing has changed yet.
    expect((await s.users.get(user.id))?.email).toBe(ada.email);
    const notice = s.mailer.sent.find((m) => m.to === ada.email && m.subject.includes('email change'));
    expect(notice?.text).toContain('a**@lovelace.dev');

    const token = s.mailer.lastToken('/verify-email/');
    expect(s.mailer.sent.at(-2)?.to).toBe('ada@lovelace.dev');
    const done = await verifyEmail(s.deps, token);
    expect(done.message).toBe('Your email is now ada@lovelace.dev. Sign in with it from now on.');
    expect((await s.users.findByEmail('ada@lovelace.dev'))?.id).toBe(user.id);
    expect(await s.users.findByEmail(ada.email)).toBeUndefined();
    await expect(
      login(s.deps, { email: 'ada@lovelace.dev', password: ada.password }, '10.0.0.1'),
    ).resolves.toBeDefined();
    // The link works once.
    expect((await failure(verifyEmail(s.deps, token))).message).toBe(
      'This verification link has expired or is no longer valid.',
    );
  });

  it('puts the old address back when the identity provider refuses the change', async () => {
    const s = setup();
    const { user } = await verifiedUser(s);
    await change(s, user, 'new@example.com');
    s.deps.identity.updateEmail = async () => {
      throw new Error('provider down');
    };
    await expect(verifyEmail(s.deps, s.mailer.lastToken('/verify-email/'))).rejects.toThrow('provider down');
    expect((await s.users.get(user.id))?.email).toBe(ada.email);
  });
});

describe('updatePassword', () => {
  it('checks the current password', async () => {
    const s = setup();
    const { user } = await verifiedUser(s);
    const error = await failure(
      updatePassword(
        s.deps,
        user,
        { currentPassword: 'wrong-one', newPassword: 'new-password-1' },
        '10.0.0.1',
      ),
    );
    expect(error.message).toBe('Current password is incorrect');
  });

  it('ends other sessions and keeps the caller signed in', async () => {
    const s = setup();
    const first = await verifiedUser(s);
    const other = await login(s.deps, { email: ada.email, password: ada.password }, '10.0.0.2');

    const fresh = await updatePassword(
      s.deps,
      first.user,
      { currentPassword: ada.password, newPassword: 'new-password-1' },
      '10.0.0.1',
    );

    expect(await authenticate(s.deps, other.tokens)).toBeUndefined();
    expect(await authenticate(s.deps, first.tokens)).toBeUndefined();
    expect((await authenticate(s.deps, fresh))?.user.id).toBe(first.user.id);
    const old = await failure(login(s.deps, { email: ada.email, password: ada.password }, '10.0.0.3'));
    expect(old.kind).toBe('unauthorized');
  });
});

import type { AuditEntry } from '@tunesmith/shared/admin';
import { describe, expect, it } from 'vitest';
import {
  authenticatorCode,
  fakeClock,
  fakeIdentityProvider,
  inMemoryAdmins,
  inMemoryLimiter,
  inMemoryPendingSignIns,
  inMemoryRevokedSessions,
  inMemorySessionReads,
  testSecrets,
} from '../../testing/in-memory-accounts';
import { DomainError } from '../errors';
import { logout } from './account-service';
import {
  type AdminUser,
  adminLogin,
  adminLoginCode,
  authenticateAdmin,
  authenticatorUri,
  changeAdminPassword,
  createAdmin,
  resetAdminSecondFactor,
  SECOND_FACTOR_MINUTES,
} from './admin';

const password = 'a long admin password';

function setup() {
  const clock = fakeClock();
  const identity = fakeIdentityProvider(clock, { secondFactor: true, challengeSeconds: 15 * 60 });
  const admins = inMemoryAdmins();
  const pendingSignIns = inMemoryPendingSignIns();
  const auditLog: AuditEntry[] = [];
  const revoked = inMemoryRevokedSessions(clock);
  const deps = {
    admins,
    identity,
    revoked,
    sessionReads: inMemorySessionReads(revoked, (claims) => admins.getByUsername(claims.username)),
    secrets: testSecrets,
    limiter: inMemoryLimiter(),
    clock,
    pendingSignIns,
    siteName: async () => 'Tune Smith',
  };
  const auditDeps = {
    ...deps,
    audit: { record: async (entry: AuditEntry) => void auditLog.push(entry), recent: async () => auditLog },
    newId: () => `audit-${auditLog.length + 1}`,
  };
  return { deps, auditDeps, auditLog, clock, identity, admins, pendingSignIns };
}

type World = ReturnType<typeof setup>;

/** Signs in the whole way, setting the authenticator up on the first sign-in. */
async function signIn(s: World, username: string, secret = password, address = '10.0.0.1') {
  const step = await adminLogin(s.deps, { username, password: secret }, address);
  const code =
    step.step === 'setup' ? authenticatorCode(step.secret, s.clock.now()) : s.identity.codeOf(username);
  return adminLoginCode(s.deps, { challenge: step.challenge, code }, address);
}

const reason = (promise: Promise<unknown>) =>
  promise.then(
    () => 'resolved',
    (error: DomainError) => [error.kind, error.message],
  );

describe('admin sign-in with a second factor', () => {
  it('sets up an authenticator on the first sign-in, then asks for its code', async () => {
    const s = setup();
    await createAdmin(s.deps, { username: 'root', password });

    const first = await adminLogin(s.deps, { username: 'root', password }, '10.0.0.1');
    if (first.step !== 'setup') throw new Error('expected the setup step');
    expect(first.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(first.otpauthUri).toBe(
      `otpauth://totp/Tune%20Smith:root?secret=${first.secret}&issuer=Tune%20Smith`,
    );
    expect(first.expiresAt).toBe(Math.floor(s.clock.now().getTime() / 1000) + SECOND_FACTOR_MINUTES * 60);
    // Only the challenge's hash is kept, with the pool's session, on the server.
    expect(s.pendingSignIns.all.has(first.challenge)).toBe(false);
    expect(s.pendingSignIns.all.get(testSecrets.hash(first.challenge))).toMatchObject({
      username: 'root',
      step: 'setup',
    });
    expect(s.admins.all.get('root')?.lastLoginAt).toBeNull();

    const { admin, tokens } = await adminLoginCode(
      s.deps,
      { challenge: first.challenge, code: authenticatorCode(first.secret, s.clock.now()) },
      '10.0.0.1',
    );
    expect(admin.username).toBe('root');
    expect((await authenticateAdmin(s.deps, tokens))?.admin.username).toBe('root');
    expect(s.admins.all.get('root')?.lastLoginAt).not.toBeNull();
    expect(s.pendingSignIns.all.size).toBe(0);

    s.clock.advance(31_000);
    const next = await adminLogin(s.deps, { username: 'root', password }, '10.0.0.1');
    expect(next.step).toBe('code');
    expect('secret' in next).toBe(false);
    const again = await adminLoginCode(
      s.deps,
      { challenge: next.challenge, code: authenticatorCode(first.secret, s.clock.now()) },
      '10.0.0.1',
    );
    expect((await authenticateAdmin(s.deps, again.tokens))?.admin.username).toBe('root');
  });

  it('refuses a wrong code with Invalid code and keeps the step, in setup and afterwards', async () => {
    const s = setup();
    await createAdmin(s.deps, { username: 'root', password });
    const setupStep = await adminLogin(s.deps, { username: 'root', password }, '10.0.0.1');
    if (setupStep.step !== 'setup') throw new Error('expected the setup step');
    const wrong = authenticatorCode(setupStep.secret, new Date(s.clock.now().getTime() - 5 * 60_000));

    expect(
      await reason(adminLoginCode(s.deps, { challenge: setupStep.challenge, code: wrong }, '10.0.0.1')),
    ).toEqual(['validation', 'Invalid code']);
    // Nothing was set up: the identity still has no authenticator, and the same step finishes with a right code.
    expect(s.identity.identities.get(s.admins.all.get('root')?.id as string)?.authenticator).toBeUndefined();
    const code = authenticatorCode(setupStep.secret, s.clock.now());
    await adminLoginCode(s.deps, { challenge: setupStep.challenge, code }, '10.0.0.1');

    const codeStep = await adminLogin(s.deps, { username: 'root', password }, '10.0.0.1');
    expect(
      await reason(adminLoginCode(s.deps, { challenge: codeStep.challenge, code: '000000' }, '10.0.0.1')),
    ).toEqual(['validation', 'Invalid code']);
    // The setup took this step's code; the next step's is accepted early.
    expect(
      await reason(
        adminLoginCode(
          s.deps,
          { challenge: codeStep.challenge, code: s.identity.codeOf('root') },
          '10.0.0.1',
        ),
      ),
    ).toEqual(['validation', 'This code has already been used. Wait for the next one and try again.']);
    const signedIn = await adminLoginCode(
      s.deps,
      { challenge: codeStep.challenge, code: s.identity.nextCodeOf('root') },
      '10.0.0.1',
    );
    expect(signedIn.admin.username).toBe('root');
  });

  it('counts wrong codes like wrong passwords: ten from one address refuse it, others go on', async () => {
    const s = setup();
    await createAdmin(s.deps, { username: 'root', password });
    await signIn(s, 'root');
    const step = await adminLogin(s.deps, { username: 'root', password }, '10.0.0.9');
    for (let i = 0; i < 10; i++) {
      expect(
        await reason(
          adminLoginCode(s.deps, { challenge: step.challenge, code: `${100000 + i}` }, '10.0.0.9'),
        ),
      ).toEqual(['validation', 'Invalid code']);
    }

    expect(
      await reason(
        adminLoginCode(s.deps, { challenge: step.challenge, code: s.identity.codeOf('root') }, '10.0.0.9'),
      ),
    ).toEqual(['rate-limited', 'Too many attempts. Please wait a few minutes and try again.']);
    // The right code from another address is not refused: nobody can lock the admin out.
    const elsewhere = await adminLogin(s.deps, { username: 'root', password }, '10.0.0.10');
    const signedIn = await adminLoginCode(
      s.deps,
      { challenge: elsewhere.challenge, code: s.identity.nextCodeOf('root') },
      '10.0.0.10',
    );
    expect(signedIn.admin.username).toBe('root');
  });

  it('asks to sign in again for an unknown, missing or expired challenge', async () => {
    const s = setup();
    await createAdmin(s.deps, { username: 'root', password });
    const expired = ['unauthorized', 'Your sign-in has expired. Please sign in again.'];
    expect(
      await reason(adminLoginCode(s.deps, { challenge: undefined, code: '123456' }, '10.0.0.1')),
    ).toEqual(expired);
    expect(
      await reason(adminLoginCode(s.deps, { challenge: 'made-up', code: '123456' }, '10.0.0.1')),
    ).toEqual(expired);

    const step = await adminLogin(s.deps, { username: 'root', password }, '10.0.0.1');
    if (step.step !== 'setup') throw new Error('expected the setup step');
    s.clock.advance(SECOND_FACTOR_MINUTES * 60_000);
    const code = authenticatorCode(step.secret, s.clock.now());
    expect(await reason(adminLoginCode(s.deps, { challenge: step.challenge, code }, '10.0.0.1'))).toEqual(
      expired,
    );
    expect(s.pendingSignIns.all.size).toBe(0);
  });

  it('asks to sign in again when the pool ended the session first', async () => {
    const s = setup();
    const short = fakeIdentityProvider(s.clock, { secondFactor: true, challengeSeconds: 60 });
    const deps = { ...s.deps, identity: short };
    await createAdmin(deps, { username: 'root', password });
    const step = await adminLogin(deps, { username: 'root', password }, '10.0.0.1');
    if (step.step !== 'setup') throw new Error('expected the setup step');
    s.clock.advance(61_000);

    const code = authenticatorCode(step.secret, s.clock.now());
    expect(await reason(adminLoginCode(deps, { challenge: step.challenge, code }, '10.0.0.1'))).toEqual([
      'unauthorized',
      'Your sign-in has expired. Please sign in again.',
    ]);
    expect(s.pendingSignIns.all.size).toBe(0);
  });

  it('refuses wrong passwords and inactive admins with Invalid credentials, before and after the code', async () => {
    const s = setup();
    await createAdmin(s.deps, { username: 'root', password });
    const invalid = ['unauthorized', 'Invalid credentials'];
    expect(await reason(adminLogin(s.deps, { username: 'root', password: 'nope' }, '10.0.0.1'))).toEqual(
      invalid,
    );

    const step = await adminLogin(s.deps, { username: 'root', password }, '10.0.0.1');
    if (step.step !== 'setup') throw new Error('expected the setup step');
    const deactivate = () =>
      s.admins.all.set('root', { ...(s.admins.all.get('root') as AdminUser), isActive: false });
    deactivate();
    const code = authenticatorCode(step.secret, s.clock.now());
    expect(await reason(adminLoginCode(s.deps, { challenge: step.challenge, code }, '10.0.0.1'))).toEqual(
      invalid,
    );
    expect(s.identity.liveRefreshTokens()).toBe(0);
    expect(await reason(adminLogin(s.deps, { username: 'root', password }, '10.0.0.1'))).toEqual(invalid);
  });

  it('gives no session when the pool signs an admin in without a second factor', async () => {
    const s = setup();
    const noMfa = fakeIdentityProvider(s.clock);
    const deps = { ...s.deps, identity: noMfa };
    await createAdmin(deps, { username: 'root', password });

    await expect(adminLogin(deps, { username: 'root', password }, '10.0.0.1')).rejects.toThrow(
      'its MFA must be required',
    );
    expect(noMfa.liveRefreshTokens()).toBe(0);
  });

  it('names the issuer and the account in the otpauth URI, each encoded', () => {
    expect(authenticatorUri('Beats & Co: Live', 'ops@site', 'ABC')).toBe(
      'otpauth://totp/Beats%20%26%20Co%3A%20Live:ops%40site?secret=ABC&issuer=Beats%20%26%20Co%3A%20Live',
    );
  });
});

describe('admin sessions', () => {
  it('signing out ends that admin session at once, a copied access token included', async () => {
    const s = setup();
    await createAdmin(s.deps, { username: 'root', password });
    const { tokens } = await signIn(s, 'root');
    await logout(s.deps, tokens);
    expect(await authenticateAdmin(s.deps, { accessToken: tokens.accessToken })).toBeUndefined();
    expect(await authenticateAdmin(s.deps, tokens)).toBeUndefined();
  });

  it('refuses a second admin with the same username', async () => {
    const s = setup();
    await createAdmin(s.deps, { username: 'root', password });
    await expect(createAdmin(s.deps, { username: 'root', password: 'another long one' })).rejects.toThrow(
      DomainError,
    );
  });

  it('does not accept a user-pool token as an admin session', async () => {
    const s = setup();
    const users = fakeIdentityProvider(s.clock);
    await users.createUser({ username: 'root', password });
    const [subject] = users.identities.keys();
    await users.confirmUser(subject as string, '');
    const result = await users.signIn('root', password);
    if (!result.ok || !('tokens' in result)) throw new Error('sign in failed');
    await createAdmin(s.deps, { username: 'root', password });
    expect(await authenticateAdmin(s.deps, result.tokens)).toBeUndefined();
  });

  it('changing the password checks the current one and ends every admin session', async () => {
    const s = setup();
    await createAdmin(s.deps, { username: 'root', password });
    const a = await signIn(s, 'root', password, '10.0.0.1');
    s.clock.advance(30_000);
    const b = await signIn(s, 'root', password, '10.0.0.2');

    await expect(
      changeAdminPassword(
        s.deps,
        a.admin,
        { currentPassword: 'wrong', newPassword: 'the next long password' },
        '10.0.0.1',
      ),
    ).rejects.toThrow('Current password is incorrect');
    await changeAdminPassword(
      s.deps,
      a.admin,
      { currentPassword: password, newPassword: 'the next long password' },
      '10.0.0.1',
    );

    expect(await authenticateAdmin(s.deps, a.tokens)).toBeUndefined();
    expect(await authenticateAdmin(s.deps, b.tokens)).toBeUndefined();
    s.clock.advance(30_000);
    const again = await signIn(s, 'root', 'the next long password');
    expect(await authenticateAdmin(s.deps, again.tokens)).toBeDefined();
  });
});

describe('resetting an admin’s second factor', () => {
  it('ends every session, replaces the identity and password, and the next sign-in sets up an authenticator', async () => {
    const s = setup();
    const created = await createAdmin(s.deps, { username: 'root', password, email: 'root@example.com' });
    const { tokens } = await signIn(s, 'root');
    expect((await adminLogin(s.deps, { username: 'root', password }, '10.0.0.1')).step).toBe('code');
    s.clock.advance(1000);

    const reset = await resetAdminSecondFactor(s.auditDeps, {
      username: 'root',
      password: 'a brand new password',
      operator: 'ops (command line)',
    });

    expect(reset.id).not.toBe(created.id);
    expect(s.admins.all.get('root')).toMatchObject({ id: reset.id, lastLoginAt: expect.any(String) });
    expect(s.identity.identities.get(reset.id)).toMatchObject({
      username: 'root',
      email: 'root@example.com',
    });
    expect(await authenticateAdmin(s.deps, tokens)).toBeUndefined();
    expect(s.identity.liveRefreshTokens()).toBe(0);
    expect(await reason(adminLogin(s.deps, { username: 'root', password }, '10.0.0.1'))).toEqual([
      'unauthorized',
      'Invalid credentials',
    ]);
    s.clock.advance(1000);
    const next = await adminLogin(s.deps, { username: 'root', password: 'a brand new password' }, '10.0.0.1');
    expect(next.step).toBe('setup');
    expect(s.auditLog).toEqual([
      expect.objectContaining({
        actor: 'ops (command line)',
        action: 'admin.reset-second-factor',
        target: 'root',
      }),
    ]);
    expect(JSON.stringify(s.auditLog)).not.toContain('a brand new password');
  });

  it('finishes a reset an interruption left halfway, and refuses an unknown admin', async () => {
    const s = setup();
    await createAdmin(s.deps, { username: 'root', password });
    await signIn(s, 'root');
    // Cut short after the old identity was deleted and a new one made: the profile names neither.
    await s.identity.deleteUser('root');
    await s.identity.createUser({ username: 'root', password: 'half way there' });

    const reset = await resetAdminSecondFactor(s.auditDeps, {
      username: 'root',
      password: 'a brand new password',
      operator: 'ops',
    });
    expect([...s.identity.identities.keys()]).toEqual([reset.id]);
    s.clock.advance(1000);
    expect(
      (await adminLogin(s.deps, { username: 'root', password: 'a brand new password' }, '10.0.0.1')).step,
    ).toBe('setup');

    expect(
      await reason(resetAdminSecondFactor(s.auditDeps, { username: 'nobody', password, operator: 'ops' })),
    ).toEqual(['not-found', 'There is no admin "nobody".']);
  });
});

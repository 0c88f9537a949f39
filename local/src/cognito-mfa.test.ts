import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  authenticatorCodeAt,
  authenticatorStep,
  challengeAfterPassword,
  MfaSessions,
  type MfaSignIn,
  MfaStore,
  newAuthenticatorKey,
} from './cognito-mfa';

const dir = mkdtempSync(path.join(os.tmpdir(), 'tunesmith-mfa-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// RFC 6238 appendix B: the SHA-1 key "12345678901234567890" (base32 below) and its 8-digit codes; Cognito uses
// the last six digits of the same HOTP values.
const rfcKey = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ';

describe('authenticator codes', () => {
  it('are the RFC 6238 test vectors (six digits)', () => {
    expect(authenticatorCodeAt(rfcKey, 59_000)).toBe('287082');
    expect(authenticatorCodeAt(rfcKey, 1_111_111_109_000)).toBe('081804');
    expect(authenticatorCodeAt(rfcKey, 1_234_567_890_000)).toBe('005924');
    expect(authenticatorCodeAt(rfcKey, 20_000_000_000_000)).toBe('353130');
  });

  it('are accepted one 30-second step early or late, each naming its step, and not further, nor malformed', () => {
    const now = 1_700_000_015_000;
    const step = Math.floor(now / 30_000);
    for (const steps of [-1, 0, 1])
      expect(authenticatorStep(rfcKey, authenticatorCodeAt(rfcKey, now + steps * 30_000), now)).toBe(
        step + steps,
      );
    for (const steps of [-2, 2])
      expect(
        authenticatorStep(rfcKey, authenticatorCodeAt(rfcKey, now + steps * 30_000), now),
      ).toBeUndefined();
    for (const code of [undefined, '', '12345', '1234567', 'abcdef', 123456])
      expect(authenticatorStep(rfcKey, code, now)).toBeUndefined();
  });

  it('come from new keys of 20 random bytes in base32, as Cognito makes them', () => {
    const a = newAuthenticatorKey();
    expect(a).toMatch(/^[A-Z2-7]{32}$/);
    expect(newAuthenticatorKey()).not.toBe(a);
  });
});

describe('MfaStore', () => {
  it('keeps keys and session lengths across restarts in an owner-only file', () => {
    const file = path.join(dir, 'mfa.json');
    const store = new MfaStore(file);
    expect(store.user('pool', 'sub')).toEqual({ enabled: false, preferred: false });
    expect(store.sessionMinutes('client')).toBe(3);

    store.setUser('pool', 'sub', { secret: rfcKey, enabled: true, preferred: true });
    store.setSessionMinutes('client', 10);

    const reloaded = new MfaStore(file);
    expect(reloaded.user('pool', 'sub')).toEqual({ secret: rfcKey, enabled: true, preferred: true });
    expect(reloaded.sessionMinutes('client')).toBe(10);
    expect(statSync(file).mode & 0o777).toBe(0o600);

    reloaded.forgetUser('pool', 'sub');
    expect(new MfaStore(file).user('pool', 'sub')).toEqual({ enabled: false, preferred: false });
  });

  it('starts empty from an unreadable file', () => {
    const file = path.join(dir, 'broken.json');
    writeFileSync(file, '{not json');
    expect(new MfaStore(file).user('pool', 'sub')).toEqual({ enabled: false, preferred: false });
  });
});

describe('MfaSessions', () => {
  const signIn = (): Omit<MfaSignIn, 'expiresAt'> => ({
    poolId: 'pool',
    clientId: 'client',
    sub: 'sub',
    username: 'root',
    challenge: 'MFA_SETUP',
    refreshToken: 'refresh',
    accessToken: 'access',
  });
  const errorOf = (run: () => unknown) => {
    try {
      run();
      return 'no error';
    } catch (error) {
      return `${(error as { type: string }).type}: ${(error as Error).message}`;
    }
  };

  it('issues opaque sessions, retires each when the next is issued, and expires them', () => {
    let now = 0;
    const abandoned: MfaSignIn[] = [];
    const sessions = new MfaSessions(
      () => now,
      (s) => abandoned.push(s),
    );
    const first = sessions.start(signIn(), 3);
    expect(first.length).toBeGreaterThanOrEqual(20);
    expect(sessions.get(first).username).toBe('root');

    const second = sessions.next(first, sessions.get(first));
    expect(errorOf(() => sessions.get(first))).toBe('NotAuthorizedException: Invalid session for the user.');
    expect(sessions.get(second).username).toBe('root');

    now = 3 * 60_000;
    expect(errorOf(() => sessions.get(second))).toBe(
      'NotAuthorizedException: Invalid session for the user, session is expired.',
    );
    expect(abandoned.map((s) => s.refreshToken)).toEqual(['refresh']);
  });

  it('tells of sign-ins left unanswered when a later one starts, and ends all of an identity', () => {
    let now = 0;
    const abandoned: MfaSignIn[] = [];
    const sessions = new MfaSessions(
      () => now,
      (s) => abandoned.push(s),
    );
    sessions.start({ ...signIn(), refreshToken: 'old' }, 1);
    now = 61_000;
    const live = sessions.start(signIn(), 1);
    expect(abandoned.map((s) => s.refreshToken)).toEqual(['old']);

    sessions.endAllOf('pool', 'sub');
    expect(errorOf(() => sessions.get(live))).toBe('NotAuthorizedException: Invalid session for the user.');
  });
});

describe('challengeAfterPassword', () => {
  const none = { enabled: false, preferred: false };
  const set = { secret: rfcKey, enabled: true, preferred: true };

  it('asks a required pool for setup, then for the code; an optional one only once set up; none when off', () => {
    expect(challengeAfterPassword('ON', true, none)).toBe('MFA_SETUP');
    expect(challengeAfterPassword('ON', true, set)).toBe('SOFTWARE_TOKEN_MFA');
    expect(challengeAfterPassword('OPTIONAL', true, none)).toBeUndefined();
    expect(challengeAfterPassword('OPTIONAL', true, set)).toBe('SOFTWARE_TOKEN_MFA');
    expect(challengeAfterPassword('OFF', false, set)).toBeUndefined();
    expect(challengeAfterPassword(undefined, false, none)).toBeUndefined();
  });

  it('refuses a required pool that offers no factor to set up', () => {
    expect(() => challengeAfterPassword('ON', false, none)).toThrow('No MFA method is enabled');
  });
});

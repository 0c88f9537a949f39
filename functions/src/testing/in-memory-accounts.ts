import { createHash, randomUUID } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import type {
  AdminRepository,
  AdminUser,
  PendingAdminSignIn,
  PendingAdminSignIns,
} from '../domain/accounts/admin';
import type {
  Clock,
  IdentityProvider,
  MailMessage,
  OneTimeTokens,
  RateLimiter,
  RevokedSessions,
  Secrets,
  SessionReads,
  TokenPurpose,
  Tokens,
  VerifiedToken,
} from '../domain/accounts/ports';
import type { User, UserRepository } from '../domain/accounts/user';
import { conflict } from '../domain/errors';

/** A clock tests can move; `sleep` advances it instead of waiting. */
export function fakeClock(start = '2026-03-01T12:00:00.250Z') {
  let now = new Date(start).getTime();
  return {
    now: () => new Date(now),
    advance(ms: number) {
      now += ms;
    },
    async sleep(ms: number) {
      now += ms;
    },
  } satisfies Clock & { sleep(ms: number): Promise<void> } & { advance(ms: number): void };
}

interface FakeIdentity {
  subject: string;
  username: string;
  email?: string;
  password: string;
  confirmed: boolean;
  /** The base32 key of the identity's authenticator, once set up. */
  authenticator?: string;
  /** The last 30-second step whose code was taken (each is taken once). */
  lastStep?: number;
}

/** A sign-in waiting for its second factor. */
interface FakeChallenge {
  subject: string;
  step: 'setup' | 'code';
  /** The key being set up (step `setup`, after it started). */
  secret?: string;
  expiresAt: number;
}

/** The code an authenticator with this base32 key shows at `at` (RFC 6238: SHA-1, six digits, 30 s). */
export const authenticatorCode = (secret: string, at: Date): string =>
  TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: at.getTime() });

/**
 * An identity provider with Cognito's behaviour where it matters: tokens carry
 * the whole-second issue time, refresh tokens can be revoked one by one or all
 * at once, unconfirmed identities cannot sign in. With `secondFactor` it is
 * the admin pool: MFA required, authenticators only (a right password leads
 * to setting one up, or to its code), sessions that live `challengeSeconds`.
 */
export function fakeIdentityProvider(
  clock: Clock,
  options: { accessTtlSeconds?: number; secondFactor?: boolean; challengeSeconds?: number } = {},
) {
  const ttl = options.accessTtlSeconds ?? 900;
  const identities = new Map<string, FakeIdentity>();
  const access = new Map<string, VerifiedToken>();
  const refresh = new Map<string, string>();
  const challenges = new Map<string, FakeChallenge>();
  const seconds = () => Math.floor(clock.now().getTime() / 1000);
  const find = (name: string) =>
    identities.get(name) ?? [...identities.values()].find((i) => i.username === name || i.email === name);
  /** The step of a right code (one step early or late accepted), else undefined. */
  const stepOf = (secret: string, code: string) => {
    const timestamp = clock.now().getTime();
    const delta = TOTP.validate({ token: code, secret: Secret.fromBase32(secret), timestamp });
    return delta === null ? undefined : TOTP.counter({ timestamp }) + delta;
  };
  const liveChallenge = (session: string) => {
    const challenge = challenges.get(session);
    return challenge && challenge.expiresAt > seconds() ? challenge : undefined;
  };
  const issue = (identity: FakeIdentity, withRefresh: boolean): Tokens => {
    const accessToken = `access-${randomUUID()}`;
    access.set(accessToken, {
      subject: identity.subject,
      username: identity.username,
      issuedAt: seconds(),
      expiresAt: seconds() + ttl,
    });
    const tokens: Tokens = { accessToken, expiresIn: ttl };
    if (withRefresh) {
      tokens.refreshToken = `refresh-${randomUUID()}`;
      refresh.set(tokens.refreshToken, identity.subject);
    }
    return tokens;
  };
  const provider: IdentityProvider = {
    async createUser(input) {
      if (find(input.username) || (input.email && find(input.email))) throw conflict('User already exists');
      const subject = randomUUID();
      identities.set(subject, { subject, ...input, confirmed: false });
      return { subject };
    },
    async confirmUser(subject) {
      const identity = identities.get(subject);
      if (identity) identity.confirmed = true;
    },
    async signIn(username, password) {
      const identity = find(username);
      if (!identity || identity.password !== password) return { ok: false, reason: 'invalid-credentials' };
      if (!identity.confirmed) return { ok: false, reason: 'not-confirmed' };
      if (!options.secondFactor) return { ok: true, tokens: issue(identity, true) };
      const session = `session-${randomUUID()}`;
      const step = identity.authenticator ? 'code' : 'setup';
      challenges.set(session, {
        subject: identity.subject,
        step,
        expiresAt: seconds() + (options.challengeSeconds ?? 600),
      });
      return { ok: true, secondFactor: { step, session, username: identity.username } };
    },
    async startAuthenticatorSetup(session) {
      const challenge = liveChallenge(session);
      if (challenge?.step !== 'setup') throw new Error('no setup step under this session');
      challenge.secret = new Secret().base32;
      return { secret: challenge.secret, session };
    },
    async finishAuthenticatorSetup({ session, code }) {
      const challenge = liveChallenge(session);
      const identity = challenge && identities.get(challenge.subject);
      if (!challenge?.secret || !identity) return { ok: false, reason: 'expired' };
      const step = stepOf(challenge.secret, code);
      if (step === undefined) return { ok: false, reason: 'wrong-code' };
      identity.authenticator = challenge.secret;
      identity.lastStep = step;
      challenges.delete(session);
      return { ok: true, tokens: issue(identity, true) };
    },
    async answerSecondFactor({ session, code }) {
      const challenge = liveChallenge(session);
      const identity = challenge && identities.get(challenge.subject);
      if (challenge?.step !== 'code' || !identity?.authenticator) return { ok: false, reason: 'expired' };
      const step = stepOf(identity.authenticator, code);
      if (step === undefined) return { ok: false, reason: 'wrong-code' };
      if (step <= (identity.lastStep ?? -1)) return { ok: false, reason: 'used-code' };
      identity.lastStep = step;
      challenges.delete(session);
      return { ok: true, tokens: issue(identity, true) };
    },
    async refresh(token) {
      const subject = refresh.get(token);
      const identity = subject ? identities.get(subject) : undefined;
      return identity ? issue(identity, false) : undefined;
    },
    async verifyAccessToken(token) {
      const claims = access.get(token);
      if (!claims || claims.expiresAt <= seconds()) return undefined;
      return { ...claims };
    },
    async revokeRefreshToken(token) {
      refresh.delete(token);
    },
    async setPassword(subject, password) {
      const identity = identities.get(subject);
      if (!identity) throw new Error('no such identity');
      identity.password = password;
      identity.confirmed = true;
    },
    async updateEmail(subject, email) {
      const identity = identities.get(subject);
      if (!identity) throw new Error('no such identity');
      if (identity.username === identity.email) identity.username = email;
      identity.email = email;
    },
    async signOutEverywhere(name) {
      const subject = find(name)?.subject;
      for (const [token, owner] of refresh) if (owner === subject) refresh.delete(token);
    },
    async deleteUser(name) {
      const identity = find(name);
      if (identity) identities.delete(identity.subject);
    },
  };
  return Object.assign(provider, {
    identities,
    liveRefreshTokens: () => refresh.size,
    /** The code the authenticator of `username` shows now. */
    codeOf: (username: string) => {
      const secret = find(username)?.authenticator;
      if (!secret) throw new Error(`${username} has no authenticator`);
      return authenticatorCode(secret, clock.now());
    },
    /** The code the authenticator of `username` shows in the next 30-second step (taken one step early). */
    nextCodeOf: (username: string) => {
      const secret = find(username)?.authenticator;
      if (!secret) throw new Error(`${username} has no authenticator`);
      return authenticatorCode(secret, new Date(clock.now().getTime() + 30_000));
    },
  });
}

export function inMemoryUsers(): UserRepository & { all: Map<string, User> } {
  const all = new Map<string, User>();
  const byEmail = (email: string) => [...all.values()].find((u) => u.email === email);
  return {
    all,
    async get(id) {
      return all.get(id);
    },
    async findByEmail(email) {
      return byEmail(email);
    },
    async create(user) {
      if (byEmail(user.email)) throw conflict('An account with this email already exists.');
      all.set(user.id, user);
    },
    async changeEmail(id, _from, to, updatedAt) {
      const owner = byEmail(to);
      if (owner && owner.id !== id) throw conflict('An account with this email already exists.');
      const user = all.get(id);
      if (user) all.set(id, { ...user, email: to, updatedAt });
    },
    async update(id, changes) {
      const user = all.get(id);
      if (user) all.set(id, { ...user, ...changes });
    },
    async delete(user) {
      all.delete(user.id);
    },
  };
}

export function inMemoryAdmins(): AdminRepository & { all: Map<string, AdminUser> } {
  const all = new Map<string, AdminUser>();
  return {
    all,
    async getByUsername(username) {
      return all.get(username);
    },
    async create(admin) {
      if (all.has(admin.username)) throw conflict('taken');
      all.set(admin.username, admin);
    },
    async update(username, changes) {
      const admin = all.get(username);
      if (admin) all.set(username, { ...admin, ...changes });
    },
  };
}

export function inMemoryPendingSignIns(): PendingAdminSignIns & { all: Map<string, PendingAdminSignIn> } {
  const all = new Map<string, PendingAdminSignIn>();
  return {
    all,
    async put(hash, pending) {
      all.set(hash, pending);
    },
    async get(hash) {
      return all.get(hash);
    },
    async remove(hash) {
      all.delete(hash);
    },
  };
}

export function inMemoryTokens(): OneTimeTokens & { size(): number } {
  const all = new Map<string, { userId: string; expiresAt: number; data?: string }>();
  return {
    size: () => all.size,
    async save(purpose: TokenPurpose, hash, userId, expiresAt, data) {
      all.set(`${purpose}#${hash}`, { userId, expiresAt, ...(data === undefined ? {} : { data }) });
    },
    async consume(purpose, hash) {
      const key = `${purpose}#${hash}`;
      const record = all.get(key);
      all.delete(key);
      return record;
    },
  };
}

/** Captures mail; `failNext` makes the next send throw. */
export function fakeMailer() {
  const sent: MailMessage[] = [];
  let fail = false;
  return {
    sent,
    failNext() {
      fail = true;
    },
    async send(message: MailMessage) {
      if (fail) {
        fail = false;
        throw new Error('mail service down');
      }
      sent.push(message);
    },
    /** The token in the last mailed link to `path` (`/verify-email/` or `/reset-password/`). */
    lastToken(path: string): string {
      const mail = [...sent].reverse().find((m) => m.text.includes(path));
      const match = mail?.text.match(new RegExp(`${path}([A-Za-z0-9_-]+)`));
      if (!match?.[1]) throw new Error(`no mail with ${path}`);
      return match[1];
    },
  };
}

/** Session reads over separate fakes: the revoked tokens, and the account `principal` finds for the claims. */
export function inMemorySessionReads<P>(
  revoked: RevokedSessions,
  principal: (claims: VerifiedToken) => Promise<P | undefined>,
): SessionReads<P> {
  return {
    async read(tokenHash, claims) {
      const [ended, found] = await Promise.all([revoked.isRevoked(tokenHash), principal(claims)]);
      return { revoked: ended, principal: found };
    },
  };
}

export function inMemoryRevokedSessions(clock: Clock): RevokedSessions & { size(): number } {
  const revoked = new Map<string, number>();
  return {
    async revoke(tokenHash, expiresAt) {
      revoked.set(tokenHash, expiresAt);
    },
    async isRevoked(tokenHash) {
      const until = revoked.get(tokenHash);
      return until !== undefined && until * 1000 > clock.now().getTime();
    },
    size: () => revoked.size,
  };
}

export function inMemoryLimiter(): RateLimiter {
  const counts = new Map<string, number>();
  return {
    async hit(key, limit) {
      const current = counts.get(key) ?? 0;
      if (current >= limit) return false;
      counts.set(key, current + 1);
      return true;
    },
    async count(key) {
      return counts.get(key) ?? 0;
    },
    async add(key) {
      counts.set(key, (counts.get(key) ?? 0) + 1);
    },
  };
}

export const testSecrets: Secrets = {
  newToken: () => randomUUID().replace(/-/g, '') + randomUUID().replace(/-/g, ''),
  hash: (token) => createHash('sha256').update(token).digest('hex'),
};

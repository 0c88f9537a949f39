import { authMessages } from '@tunesmith/shared/auth';
import { audit } from '../admin/audit';
import type { AuditDeps } from '../admin/ports';
import { conflict, notFound, unauthorized, validationError } from '../errors';
import type {
  Clock,
  IdentityProvider,
  RateLimiter,
  RevokedSessions,
  Secrets,
  SessionReads,
  Tokens,
} from './ports';
import { guardedPasswordCheck, type SessionDeps, verifySession } from './session-rules';

/** An administrator's profile (spec 2 section 3, admin_users), beside the admin pool. */
export interface AdminUser {
  id: string;
  username: string;
  email: string | null;
  role: string;
  isActive: boolean;
  lastLoginAt: string | null;
  /** Epoch seconds; admin tokens issued before it are refused. */
  sessionsValidAfter: number;
  createdAt: string;
  updatedAt: string;
}

export interface AdminRepository {
  getByUsername(username: string): Promise<AdminUser | undefined>;
  /** Throws `conflict` when the username is taken. */
  create(admin: AdminUser): Promise<void>;
  update(
    username: string,
    changes: Partial<Pick<AdminUser, 'id' | 'lastLoginAt' | 'sessionsValidAfter' | 'updatedAt'>>,
  ): Promise<void>;
}

/**
 * An admin sign-in whose password was right, waiting for its second factor
 * (decision 036). Kept on the server under the hash of the token in the
 * browser's challenge cookie, so the pool's session never reaches a browser
 * and every code goes through the API's limits.
 */
export interface PendingAdminSignIn {
  /** The admin's profile username. */
  username: string;
  /** The same name as the admin pool spells it, which answers its challenges. */
  poolUsername: string;
  step: 'setup' | 'code';
  /** The admin pool's session of this sign-in. */
  session: string;
  /** Epoch seconds. */
  expiresAt: number;
}

export interface PendingAdminSignIns {
  put(tokenHash: string, pending: PendingAdminSignIn): Promise<void>;
  /** The sign-in, if one is kept under this hash (expired ones may still be returned). */
  get(tokenHash: string): Promise<PendingAdminSignIn | undefined>;
  remove(tokenHash: string): Promise<void>;
}

export interface AdminDeps {
  admins: AdminRepository;
  identity: IdentityProvider;
  revoked: RevokedSessions;
  secrets: Secrets;
  limiter: RateLimiter;
  clock: Clock & { sleep(ms: number): Promise<void> };
  pendingSignIns: PendingAdminSignIns;
  /** The site's name: the issuer an authenticator app shows beside the code. */
  siteName: () => Promise<string>;
}

/**
 * How long a sign-in may wait for its second factor: time to install an
 * authenticator app and scan the code. The admin pool's client lets its
 * session live as long (`AuthSessionValidity`, infra/lib/auth.ts).
 */
export const SECOND_FACTOR_MINUTES = 10;

const nowSeconds = (clock: Clock) => Math.floor(clock.now().getTime() / 1000);

/**
 * The `otpauth://` URI of a new authenticator key (Google's Key URI format,
 * which authenticator apps read from a QR code): the site's name as issuer,
 * the admin's username as account; SHA-1, six digits and 30 seconds are the
 * format's defaults and what Cognito checks.
 */
export function authenticatorUri(issuer: string, account: string, secret: string): string {
  const label = `${encodeURIComponent(issuer)}:${encodeURIComponent(account)}`;
  return `otpauth://totp/${label}?secret=${secret}&issuer=${encodeURIComponent(issuer)}`;
}

/** What a right password leads to: the second factor's step, in a challenge the browser holds. */
export type AdminLoginStep = {
  /** The token for the browser's challenge cookie; only its hash is kept. */
  challenge: string;
  /** Epoch seconds the challenge ends. */
  expiresAt: number;
} & ({ step: 'code' } | { step: 'setup'; secret: string; otpauthUri: string });

/**
 * Checks an administrator's username and password (counted like every
 * password check). A right one leads to the second factor: the
 * authenticator's code, or setting up an authenticator when the admin has
 * none yet. No session is given before it.
 */
export async function adminLogin(
  deps: AdminDeps,
  input: { username: string; password: string },
  address: string,
): Promise<AdminLoginStep> {
  const result = await guardedPasswordCheck(
    deps,
    { action: 'admin-login', account: input.username, address },
    () => deps.identity.signIn(input.username, input.password),
    (r) => !r.ok,
  );
  if (!result.ok) throw unauthorized(authMessages.adminInvalidCredentials);
  const admin = await deps.admins.getByUsername(input.username);
  if (!('secondFactor' in result)) {
    if (result.tokens.refreshToken) await deps.identity.revokeRefreshToken(result.tokens.refreshToken);
    if (!admin?.isActive) throw unauthorized(authMessages.adminInvalidCredentials);
    // Every administrator signs in with a second factor; a pool that gives tokens without one is misconfigured.
    throw new Error(
      'The admin pool signed an administrator in without a second factor; its MFA must be required',
    );
  }
  if (!admin?.isActive) throw unauthorized(authMessages.adminInvalidCredentials);
  const { step, username: poolUsername } = result.secondFactor;
  let { session } = result.secondFactor;
  let setup: { secret: string; otpauthUri: string } | undefined;
  if (step === 'setup') {
    const started = await deps.identity.startAuthenticatorSetup(session);
    session = started.session;
    const issuer = await deps.siteName();
    setup = { secret: started.secret, otpauthUri: authenticatorUri(issuer, admin.username, started.secret) };
  }
  const challenge = deps.secrets.newToken();
  const expiresAt = nowSeconds(deps.clock) + SECOND_FACTOR_MINUTES * 60;
  await deps.pendingSignIns.put(deps.secrets.hash(challenge), {
    username: admin.username,
    poolUsername,
    step,
    session,
    expiresAt,
  });
  return setup ? { challenge, expiresAt, step: 'setup', ...setup } : { challenge, expiresAt, step: 'code' };
}

/**
 * The second step of an administrator's sign-in: the authenticator's code
 * for the challenge the browser holds (after setting the authenticator up,
 * when the first step asked for that). Wrong codes are counted like wrong
 * passwords, per account and address; the challenge stands until it expires.
 */
export async function adminLoginCode(
  deps: AdminDeps,
  input: { challenge: string | undefined; code: string },
  address: string,
): Promise<{ admin: AdminUser; tokens: Tokens }> {
  const hash = input.challenge ? deps.secrets.hash(input.challenge) : undefined;
  const pending = hash ? await deps.pendingSignIns.get(hash) : undefined;
  if (!hash || !pending) throw unauthorized(authMessages.signInExpired);
  if (pending.expiresAt <= nowSeconds(deps.clock)) {
    await deps.pendingSignIns.remove(hash);
    throw unauthorized(authMessages.signInExpired);
  }
  const answer = { session: pending.session, username: pending.poolUsername, code: input.code };
  const result = await guardedPasswordCheck(
    deps,
    { action: 'admin-code', account: pending.username, address },
    () =>
      pending.step === 'setup'
        ? deps.identity.finishAuthenticatorSetup(answer)
        : deps.identity.answerSecondFactor(answer),
    (r) => !r.ok && r.reason === 'wrong-code',
  );
  if (!result.ok) {
    if (result.reason === 'wrong-code') throw validationError(authMessages.codeWrong);
    if (result.reason === 'used-code') throw validationError(authMessages.codeUsed);
    await deps.pendingSignIns.remove(hash);
    throw unauthorized(authMessages.signInExpired);
  }
  await deps.pendingSignIns.remove(hash);
  const admin = await deps.admins.getByUsername(pending.username);
  if (!admin?.isActive) {
    if (result.tokens.refreshToken) await deps.identity.revokeRefreshToken(result.tokens.refreshToken);
    throw unauthorized(authMessages.adminInvalidCredentials);
  }
  const stamp = deps.clock.now().toISOString();
  await deps.admins.update(admin.username, { lastLoginAt: stamp, updatedAt: stamp });
  return { admin: { ...admin, lastLoginAt: stamp }, tokens: result.tokens };
}

/** The administrator behind admin session tokens, refreshing when needed. */
export async function authenticateAdmin(
  deps: { sessionReads: SessionReads<AdminUser> } & SessionDeps,
  session: { accessToken?: string; refreshToken?: string },
): Promise<{ admin: AdminUser; refreshed?: Tokens } | undefined> {
  const verified = await verifySession(deps, deps.sessionReads, session);
  if (!verified) return undefined;
  const { claims, principal: admin, refreshed } = verified;
  if (!admin?.isActive || claims.issuedAt < admin.sessionsValidAfter) return undefined;
  return refreshed ? { admin, refreshed } : { admin };
}

/** Changes an administrator's password and ends every admin session of theirs, this one included. */
export async function changeAdminPassword(
  deps: AdminDeps,
  admin: AdminUser,
  input: { currentPassword: string; newPassword: string },
  address: string,
): Promise<void> {
  const check = await guardedPasswordCheck(
    deps,
    { action: 'admin-password-check', account: admin.username, address },
    () => deps.identity.signIn(admin.username, input.currentPassword),
    (r) => !r.ok,
  );
  if (!check.ok) throw validationError(authMessages.currentPasswordWrong);
  // A right password leads to the second factor, left unanswered; a pool without one gives tokens to end.
  if ('tokens' in check && check.tokens.refreshToken)
    await deps.identity.revokeRefreshToken(check.tokens.refreshToken);
  await deps.identity.setPassword(admin.id, input.newPassword);
  const stamp = deps.clock.now().toISOString();
  await deps.admins.update(admin.username, {
    sessionsValidAfter: nowSeconds(deps.clock) + 1,
    updatedAt: stamp,
  });
  await deps.identity.signOutEverywhere(admin.id);
}

/** Creates an administrator who can sign in at once (used by `npm run admin:create` and the local cloud). */
export async function createAdmin(
  deps: Pick<AdminDeps, 'admins' | 'identity'> & { clock: Clock },
  input: { username: string; password: string; email?: string; role?: string },
): Promise<AdminUser> {
  if (await deps.admins.getByUsername(input.username))
    throw conflict(`Admin ${input.username} already exists.`);
  const { subject } = await deps.identity.createUser({
    username: input.username,
    ...(input.email ? { email: input.email } : {}),
    password: input.password,
  });
  await deps.identity.setPassword(subject, input.password);
  const stamp = deps.clock.now().toISOString();
  const admin: AdminUser = {
    id: subject,
    username: input.username,
    email: input.email ?? null,
    role: input.role ?? 'admin',
    isActive: true,
    lastLoginAt: null,
    sessionsValidAfter: 0,
    createdAt: stamp,
    updatedAt: stamp,
  };
  try {
    await deps.admins.create(admin);
  } catch (error) {
    await deps.identity.deleteUser(subject);
    throw error;
  }
  return admin;
}

/**
 * The operator's way back in for an administrator who lost their
 * authenticator (`npm run admin:reset-mfa`, decision 036). Cognito offers no
 * call that removes an authenticator, and in a pool that requires MFA it
 * keeps asking for the old one whatever AdminSetUserMFAPreference says, so
 * the identity is made anew: same username and email, the password given,
 * no authenticator. Every session of the admin ends first; the profile keeps
 * its history and points at the new identity; the next sign-in sets up an
 * authenticator. Safe to run again after an interruption.
 */
export async function resetAdminSecondFactor(
  deps: Pick<AdminDeps, 'admins' | 'identity'> & AuditDeps,
  input: { username: string; password: string; operator: string },
): Promise<AdminUser> {
  const admin = await deps.admins.getByUsername(input.username);
  if (!admin) throw notFound(`There is no admin "${input.username}".`);
  const stamp = deps.clock.now().toISOString();
  // Tokens issued until now are refused from here on, then their refresh tokens are revoked.
  await deps.admins.update(admin.username, {
    sessionsValidAfter: nowSeconds(deps.clock) + 1,
    updatedAt: stamp,
  });
  // By username, not id: a run cut short may have left a new identity the profile does not name yet.
  await deps.identity.signOutEverywhere(admin.username);
  await deps.identity.deleteUser(admin.username);
  const { subject } = await deps.identity.createUser({
    username: admin.username,
    ...(admin.email ? { email: admin.email } : {}),
    password: input.password,
  });
  await deps.identity.setPassword(subject, input.password);
  await deps.admins.update(admin.username, { id: subject, updatedAt: deps.clock.now().toISOString() });
  await audit(
    deps,
    { username: input.operator },
    'admin.reset-second-factor',
    admin.username,
    `Removed the authenticator of ${admin.username}, replaced the password and ended every session`,
  );
  return { ...admin, id: subject };
}

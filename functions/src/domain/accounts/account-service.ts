import { authMessages, type RegisterInput } from '@tunesmith/shared/auth';
import { ownershipMessages } from '@tunesmith/shared/ownership';
import { reportMessages } from '@tunesmith/shared/reports';
import { conflict, DomainError, unauthorized, validationError } from '../errors';
import { emailChangeMail, emailChangeNoticeMail, passwordResetMail, verificationMail } from './mail';
import type {
  Clock,
  IdentityProvider,
  Mailer,
  OneTimeTokens,
  RateLimiter,
  RevokedSessions,
  Secrets,
  SessionReads,
  Tokens,
} from './ports';
import {
  endSession,
  enforceRateLimit,
  guardedPasswordCheck,
  type SessionDeps,
  signedInTokens,
  verifySession,
} from './session-rules';
import { isClosed, newUser, type User, type UserRepository } from './user';

export const VERIFY_EMAIL_TTL_SECONDS = 24 * 60 * 60;
export const RESET_PASSWORD_TTL_SECONDS = 60 * 60;
export const CHANGE_EMAIL_TTL_SECONDS = 24 * 60 * 60;

/** Attempts per window before a 429 (per account and per client address). */
export const rateLimits = {
  register: { perAccount: 5, perAddress: 20, windowSeconds: 60 * 60 },
  reset: { perAccount: 5, perAddress: 20, windowSeconds: 60 * 60 },
  resend: { perAccount: 5, perAddress: 20, windowSeconds: 60 * 60 },
} as const;

export interface AccountDeps {
  users: UserRepository;
  identity: IdentityProvider;
  revoked: RevokedSessions;
  tokens: OneTimeTokens;
  mailer: Mailer;
  limiter: RateLimiter;
  secrets: Secrets;
  clock: Clock & { sleep(ms: number): Promise<void> };
  /** The site's own origin, for links in mail (`https://example.com`). */
  siteOrigin: string;
  /** The name mail gives the site: the Site Name setting (read briefly cached), else the deployment's. */
  siteName: () => Promise<string>;
  log: { warn(message: string, fields?: Record<string, unknown>): void };
}

const nowSeconds = (clock: Clock) => Math.floor(clock.now().getTime() / 1000);

async function limit(
  deps: Pick<AccountDeps, 'limiter'>,
  action: keyof typeof rateLimits,
  account: string,
  address: string,
): Promise<void> {
  await enforceRateLimit(deps.limiter, action, rateLimits[action], account, address);
}

async function sendVerification(
  deps: AccountDeps,
  user: Pick<User, 'id' | 'email' | 'firstName'>,
): Promise<void> {
  const token = deps.secrets.newToken();
  await deps.tokens.save(
    'verify-email',
    deps.secrets.hash(token),
    user.id,
    nowSeconds(deps.clock) + VERIFY_EMAIL_TTL_SECONDS,
  );
  await deps.mailer.send(
    verificationMail({
      to: user.email,
      firstName: user.firstName,
      link: `${deps.siteOrigin}/verify-email/${token}`,
      siteName: await deps.siteName(),
    }),
  );
}

/**
 * Creates an unverified account (identity + profile) and mails a verification
 * link. A failed mail does not undo the account: the check-email screen can
 * send another.
 */
export async function register(
  deps: AccountDeps,
  input: RegisterInput,
  address: string,
): Promise<{ email: string; firstName: string }> {
  await limit(deps, 'register', input.email, address);
  if (await deps.users.findByEmail(input.email)) throw conflict(authMessages.emailTaken);
  const { subject } = await deps.identity.createUser({
    username: input.email,
    email: input.email,
    password: input.password,
  });
  const stamp = deps.clock.now().toISOString();
  const user = newUser(
    { id: subject, email: input.email, firstName: input.firstName, lastName: input.lastName },
    stamp,
  );
  try {
    await deps.users.create(user);
  } catch (error) {
    await deps.identity.deleteUser(subject);
    throw error;
  }
  try {
    await sendVerification(deps, user);
  } catch (error) {
    deps.log.warn('verification mail failed', { error });
  }
  return { email: user.email, firstName: user.firstName };
}

/** Confirms an address from a mailed link. Used, unknown and expired links all answer `expired`. */
export async function verifyEmail(
  deps: AccountDeps,
  token: string,
): Promise<{ firstName: string; message: string }> {
  const hash = deps.secrets.hash(token);
  const record = await deps.tokens.consume('verify-email', hash);
  // The same link page confirms a new address after an email change.
  if (!record) {
    const change = await deps.tokens.consume('change-email', hash);
    if (change) return completeEmailChange(deps, change);
  }
  const expired = () => new DomainError('validation', authMessages.verificationExpired, { expired: true });
  if (!record || record.expiresAt < nowSeconds(deps.clock)) throw expired();
  const user = await deps.users.get(record.userId);
  if (!user) throw expired();
  await deps.identity.confirmUser(user.id, user.email);
  await deps.users.update(user.id, { emailVerified: true, updatedAt: deps.clock.now().toISOString() });
  return { firstName: user.firstName, message: authMessages.verified };
}

/** Mails a new verification link; the answer never says whether the account exists. */
export async function resendVerification(deps: AccountDeps, email: string, address: string): Promise<string> {
  await limit(deps, 'resend', email, address);
  const user = await deps.users.findByEmail(email);
  if (user && !user.emailVerified) await sendVerification(deps, user);
  return authMessages.resendSent;
}

/** Signs a user in with email and password. */
export async function login(
  deps: AccountDeps,
  input: { email: string; password: string },
  address: string,
): Promise<{ user: User; tokens: Tokens }> {
  const result = await guardedPasswordCheck(
    deps,
    { action: 'login', account: input.email, address },
    () => deps.identity.signIn(input.email, input.password),
    (r) => !r.ok && r.reason === 'invalid-credentials',
  );
  if (!result.ok) {
    if (result.reason === 'not-confirmed') throw new DomainError('forbidden', authMessages.verifyEmailFirst);
    throw unauthorized(authMessages.invalidCredentials);
  }
  const tokens = signedInTokens(result);
  const user = await deps.users.findByEmail(input.email);
  if (!user) throw unauthorized(authMessages.invalidCredentials);
  if (!user.emailVerified || isClosed(user) || user.suspended) {
    if (tokens.refreshToken) await deps.identity.revokeRefreshToken(tokens.refreshToken);
    // The right password of an account being deleted or suspended learns only that.
    if (isClosed(user)) throw new DomainError('forbidden', ownershipMessages.accountDeleting);
    if (user.suspended) throw new DomainError('forbidden', reportMessages.accountSuspended);
    throw new DomainError('forbidden', authMessages.verifyEmailFirst);
  }
  return { user, tokens };
}

/**
 * The user behind a session's tokens, refreshing an expired access token when
 * a refresh token is there. Undefined when the session is not valid: bad or
 * expired tokens, a deleted or unverified account, or tokens issued before
 * the account's `sessionsValidAfter`.
 */
export async function authenticate(
  deps: { sessionReads: SessionReads<User> } & SessionDeps,
  session: { accessToken?: string; refreshToken?: string },
): Promise<{ user: User; refreshed?: Tokens } | undefined> {
  const verified = await verifySession(deps, deps.sessionReads, session);
  if (!verified) return undefined;
  const user = verified.principal;
  if (!user?.emailVerified || user.suspended || verified.claims.issuedAt < user.sessionsValidAfter)
    return undefined;
  return verified.refreshed ? { user, refreshed: verified.refreshed } : { user };
}

/** Ends this browser's session at once, a copied cookie included (see {@link endSession}). */
export async function logout(
  deps: SessionDeps,
  session: { accessToken?: string; refreshToken?: string },
): Promise<void> {
  await endSession(deps, session);
}

/** Mails a reset link when the account exists; the answer is the same either way. */
export async function requestPasswordReset(
  deps: AccountDeps,
  email: string,
  address: string,
): Promise<string> {
  await limit(deps, 'reset', email, address);
  const user = await deps.users.findByEmail(email);
  // An account being deleted gets no link: a new password would open it again.
  if (user && !isClosed(user)) {
    const token = deps.secrets.newToken();
    await deps.tokens.save(
      'reset-password',
      deps.secrets.hash(token),
      user.id,
      nowSeconds(deps.clock) + RESET_PASSWORD_TTL_SECONDS,
    );
    await deps.mailer.send(
      passwordResetMail({
        to: user.email,
        link: `${deps.siteOrigin}/reset-password/${token}`,
        siteName: await deps.siteName(),
      }),
    );
  }
  return authMessages.resetRequested;
}

/**
 * Ends every session of an account from now on: tokens issued before the next
 * whole second are refused and refresh tokens are revoked. Returns the cutoff.
 */
async function endAllSessions(deps: AccountDeps, userId: string): Promise<number> {
  // Token issue times are whole seconds, so a cutoff of now + 1 s is the first
  // that refuses every token issued up to this moment.
  const cutoff = nowSeconds(deps.clock) + 1;
  await deps.users.update(userId, { sessionsValidAfter: cutoff, updatedAt: deps.clock.now().toISOString() });
  await deps.identity.signOutEverywhere(userId);
  return cutoff;
}

/** Sets a new password from a mailed link (single use, 1 hour) and ends every session. */
export async function resetPassword(deps: AccountDeps, token: string, newPassword: string): Promise<string> {
  const record = await deps.tokens.consume('reset-password', deps.secrets.hash(token));
  if (!record || record.expiresAt < nowSeconds(deps.clock)) throw validationError(authMessages.resetInvalid);
  const user = await deps.users.get(record.userId);
  if (!user || isClosed(user)) throw validationError(authMessages.resetInvalid);
  await deps.identity.setPassword(user.id, newPassword);
  // A reset proves the mailbox: an unverified account becomes verified.
  if (!user.emailVerified) {
    await deps.identity.confirmUser(user.id, user.email);
    await deps.users.update(user.id, { emailVerified: true });
  }
  await endAllSessions(deps, user.id);
  return authMessages.resetDone;
}

/**
 * The current password proves the caller is the owner (guesses limited as on
 * sign-in, per account and address, one count for every action that asks for
 * it: email change, password change, account deletion); the session the check
 * opened is revoked at once.
 */
export async function confirmCurrentPassword(
  deps: Pick<AccountDeps, 'identity' | 'limiter' | 'clock'>,
  user: User,
  currentPassword: string,
  address: string,
): Promise<void> {
  const check = await guardedPasswordCheck(
    deps,
    { action: 'password-check', account: user.id, address },
    () => deps.identity.signIn(user.email, currentPassword),
    (r) => !r.ok,
  );
  if (!check.ok) throw validationError(authMessages.currentPasswordWrong);
  const tokens = signedInTokens(check);
  if (tokens.refreshToken) await deps.identity.revokeRefreshToken(tokens.refreshToken);
}

/**
 * Asks to change the sign-in address. The current password proves it is the
 * owner (guesses limited as on sign-in); a link goes to the new address and
 * the change happens only when it is followed; the current address is told.
 */
export async function requestEmailChange(
  deps: AccountDeps,
  user: User,
  input: { newEmail: string; currentPassword: string },
  address: string,
): Promise<string> {
  if (input.newEmail === user.email) throw validationError(authMessages.noChanges);
  await confirmCurrentPassword(deps, user, input.currentPassword, address);
  if (await deps.users.findByEmail(input.newEmail)) throw conflict(authMessages.emailTaken);
  const token = deps.secrets.newToken();
  await deps.tokens.save(
    'change-email',
    deps.secrets.hash(token),
    user.id,
    nowSeconds(deps.clock) + CHANGE_EMAIL_TTL_SECONDS,
    input.newEmail,
  );
  await deps.mailer.send(
    emailChangeMail({
      to: input.newEmail,
      link: `${deps.siteOrigin}/verify-email/${token}`,
      siteName: await deps.siteName(),
    }),
  );
  await deps.mailer.send(
    emailChangeNoticeMail({
      to: user.email,
      newEmail: input.newEmail,
      siteOrigin: deps.siteOrigin,
      siteName: await deps.siteName(),
    }),
  );
  return authMessages.emailChangeSent(input.newEmail);
}

/** Moves the account to the confirmed address: the claim, the profile and the identity. */
async function completeEmailChange(
  deps: AccountDeps,
  record: { userId: string; expiresAt: number; data?: string },
): Promise<{ firstName: string; message: string }> {
  const expired = () => new DomainError('validation', authMessages.verificationExpired, { expired: true });
  const newEmail = record.data;
  if (!newEmail || record.expiresAt < nowSeconds(deps.clock)) throw expired();
  const user = await deps.users.get(record.userId);
  // An account being deleted keeps the address its deletion frees.
  if (!user || isClosed(user)) throw expired();
  if (user.email !== newEmail) {
    const stamp = deps.clock.now().toISOString();
    await deps.users.changeEmail(user.id, user.email, newEmail, stamp);
    try {
      await deps.identity.updateEmail(user.id, newEmail);
    } catch (error) {
      await deps.users.changeEmail(user.id, newEmail, user.email, stamp);
      if (error instanceof DomainError && error.kind === 'conflict') throw conflict(authMessages.emailTaken);
      throw error;
    }
  }
  return { firstName: user.firstName, message: authMessages.emailChanged(newEmail) };
}

/**
 * Changes the password after checking the current one. Every other session
 * ends; the caller's session continues with the tokens returned.
 */
export async function updatePassword(
  deps: AccountDeps,
  user: User,
  input: { currentPassword: string; newPassword: string },
  address: string,
): Promise<Tokens> {
  await confirmCurrentPassword(deps, user, input.currentPassword, address);
  await deps.identity.setPassword(user.id, input.newPassword);
  const cutoff = await endAllSessions(deps, user.id);
  const wait = cutoff * 1000 - deps.clock.now().getTime();
  if (wait > 0) await deps.clock.sleep(wait);
  const fresh = await deps.identity.signIn(user.email, input.newPassword);
  if (!fresh.ok) throw new DomainError('unavailable', authMessages.invalidCredentials);
  return signedInTokens(fresh);
}

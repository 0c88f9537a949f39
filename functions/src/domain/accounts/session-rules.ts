import { authMessages } from '@tunesmith/shared/auth';
import { DomainError } from '../errors';
import type {
  IdentityProvider,
  RateLimiter,
  RevokedSessions,
  Secrets,
  SessionReads,
  SignInResult,
  Tokens,
  VerifiedToken,
} from './ports';

/** What recognising and ending sessions needs. */
export interface SessionDeps {
  identity: IdentityProvider;
  revoked: RevokedSessions;
  secrets: Pick<Secrets, 'hash'>;
}

/**
 * The account behind a session's tokens, with the claims that name it: the
 * access token's if it is still valid and was not ended by a logout, else a
 * fresh one's minted with the refresh token. Undefined when neither works; an
 * ended access token is never traded in (its refresh token was revoked with
 * it). The token is verified before anything is read, so the account read is
 * the one a valid token names; whether the token was ended is read with it.
 */
export async function verifySession<P>(
  deps: SessionDeps,
  reads: SessionReads<P>,
  session: { accessToken?: string; refreshToken?: string },
): Promise<{ claims: VerifiedToken; principal: P | undefined; refreshed?: Tokens } | undefined> {
  const { identity, secrets } = deps;
  if (session.accessToken) {
    const tokenHash = secrets.hash(session.accessToken);
    const claims = await identity.verifyAccessToken(session.accessToken);
    if (claims) {
      const { revoked, principal } = await reads.read(tokenHash, claims);
      return revoked ? undefined : { claims, principal };
    }
    if (!session.refreshToken || (await deps.revoked.isRevoked(tokenHash))) return undefined;
  }
  if (!session.refreshToken) return undefined;
  const refreshed = await identity.refresh(session.refreshToken);
  const fresh = refreshed ? await identity.verifyAccessToken(refreshed.accessToken) : undefined;
  if (!fresh || !refreshed) return undefined;
  const { principal } = await reads.read(secrets.hash(refreshed.accessToken), fresh);
  return { claims: fresh, principal, refreshed };
}

/**
 * The tokens of a right password in a pool that asks for no second factor
 * (the user pool). A second factor there would be a misconfigured pool.
 */
export function signedInTokens(result: Extract<SignInResult, { ok: true }>): Tokens {
  if ('tokens' in result) return result.tokens;
  throw new Error('The user pool asked for a second factor; its MFA must be off');
}

/** Counts one attempt per account and per client address; a 429 once either is over its limit. */
export async function enforceRateLimit(
  limiter: RateLimiter,
  action: string,
  rule: { perAccount: number; perAddress: number; windowSeconds: number },
  account: string,
  address: string,
): Promise<void> {
  const [accountOk, addressOk] = await Promise.all([
    limiter.hit(`${action}:account:${account}`, rule.perAccount, rule.windowSeconds),
    limiter.hit(`${action}:address:${address}`, rule.perAddress, rule.windowSeconds),
  ]);
  if (!accountOk || !addressOk) throw new DomainError('rate-limited', authMessages.tooManyAttempts);
}

/**
 * Ends one session at once: its access token is refused from now until it
 * expires (a copy of the cookie dies with it), and its refresh token can mint
 * no more.
 */
export async function endSession(
  deps: SessionDeps,
  session: { accessToken?: string; refreshToken?: string },
): Promise<void> {
  if (session.accessToken) {
    const claims = await deps.identity.verifyAccessToken(session.accessToken);
    if (claims) await deps.revoked.revoke(deps.secrets.hash(session.accessToken), claims.expiresAt);
  }
  if (session.refreshToken) await deps.identity.revokeRefreshToken(session.refreshToken);
}

/**
 * Password checks (sign-in, and the current password on a password change):
 * a wrong guess counts against the account from that address only, so no
 * one can lock someone else out. Ten failures refuse that account from that
 * address for the window; an address making many attempts on any accounts is
 * refused; failures on an account from everywhere slow its answers (up to
 * 3 s) instead of refusing the right password.
 */
export const passwordCheckLimits = {
  windowSeconds: 15 * 60,
  perAddress: 50,
  failuresPerPair: 10,
  freeFailuresPerAccount: 10,
  delayStepMs: 250,
  maxDelayMs: 3_000,
} as const;

export async function guardedPasswordCheck<R>(
  deps: { limiter: RateLimiter; clock: { sleep(ms: number): Promise<void> } },
  check: { action: string; account: string; address: string },
  attempt: () => Promise<R>,
  failed: (result: R) => boolean,
): Promise<R> {
  const rule = passwordCheckLimits;
  const window = rule.windowSeconds;
  const pairKey = `${check.action}:pair:${check.account}|${check.address}`;
  const accountKey = `${check.action}:failures:${check.account}`;
  const [addressOk, pairFailures, accountFailures] = await Promise.all([
    deps.limiter.hit(`${check.action}:address:${check.address}`, rule.perAddress, window),
    deps.limiter.count(pairKey, window),
    deps.limiter.count(accountKey, window),
  ]);
  if (!addressOk || pairFailures >= rule.failuresPerPair) {
    throw new DomainError('rate-limited', authMessages.tooManyAttempts);
  }
  const beyond = accountFailures - rule.freeFailuresPerAccount;
  if (beyond > 0) await deps.clock.sleep(Math.min(rule.maxDelayMs, beyond * rule.delayStepMs));
  const result = await attempt();
  if (failed(result))
    await Promise.all([deps.limiter.add(pairKey, window), deps.limiter.add(accountKey, window)]);
  return result;
}

import { authMessages } from '@tunesmith/shared/auth';
import { DomainError } from '../errors';
import type { IdentityProvider, RateLimiter, Tokens, VerifiedToken } from './ports';

/**
 * The claims behind a session's tokens: the access token if it is still
 * valid, else a fresh one minted with the refresh token. Undefined when
 * neither works.
 */
export async function verifySession(
  identity: IdentityProvider,
  session: { accessToken?: string; refreshToken?: string },
): Promise<{ claims: VerifiedToken; refreshed?: Tokens } | undefined> {
  const claims = session.accessToken ? await identity.verifyAccessToken(session.accessToken) : undefined;
  if (claims) return { claims };
  if (!session.refreshToken) return undefined;
  const refreshed = await identity.refresh(session.refreshToken);
  const fresh = refreshed ? await identity.verifyAccessToken(refreshed.accessToken) : undefined;
  return fresh && refreshed ? { claims: fresh, refreshed } : undefined;
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

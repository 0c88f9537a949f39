/** How many verified access tokens one runtime keeps: the sessions of a busy function several times over. */
export const VERIFIED_TOKEN_CACHE_SIZE = 1_000;

/**
 * `verify` that remembers the tokens it accepted, with their claims, until
 * they expire (decision 041). A browser sends the same access token with
 * every call for its hour; its signature is checked on the first and the
 * claims handed out again after that, which the signature check would give
 * the same way: the claims are those of exactly that token string, and one
 * past its expiry is refused as the check would refuse it. Only accepted
 * tokens are kept (anything else is checked again on every call), at most
 * `size`, the least recently used going first. Whether the session was
 * ended is not decided here: that is read on every request.
 */
export function rememberVerified<C extends { expiresAt: number }>(
  verify: (token: string) => Promise<C | undefined>,
  now: () => number = Date.now,
  size: number = VERIFIED_TOKEN_CACHE_SIZE,
): (token: string) => Promise<C | undefined> {
  const known = new Map<string, C>();
  const live = (claims: C) => claims.expiresAt * 1000 >= now();
  return async (token) => {
    const kept = known.get(token);
    if (kept !== undefined) {
      known.delete(token);
      if (!live(kept)) return undefined;
      known.set(token, kept);
      return kept;
    }
    const claims = await verify(token);
    if (claims !== undefined && live(claims)) {
      if (known.size >= size) known.delete(known.keys().next().value as string);
      known.set(token, claims);
    }
    return claims;
  };
}

import { describe, expect, it } from 'vitest';
import { rememberVerified, VERIFIED_TOKEN_CACHE_SIZE } from './verified-tokens';

const start = Date.UTC(2026, 10, 29, 10);
const claimsFor = (token: string) => ({ subject: `sub-of-${token}`, expiresAt: start / 1000 + 3600 });

/** A signature check that accepts tokens starting with `good`, counting what it checks. */
function counted() {
  const checked: string[] = [];
  const verify = async (token: string) => {
    checked.push(token);
    return token.startsWith('good') ? claimsFor(token) : undefined;
  };
  return { verify, checked };
}

describe('remembered token verification', () => {
  it('checks a token once and hands out the same claims until it expires', async () => {
    let now = start;
    const { verify, checked } = counted();
    const remembered = rememberVerified(verify, () => now);

    const first = await remembered('good-1');
    now += 59 * 60_000;
    const again = await remembered('good-1');
    now = start + 3600_000;
    const lastMoment = await remembered('good-1');

    expect(first).toEqual(claimsFor('good-1'));
    expect(again).toBe(first);
    expect(lastMoment).toBe(first);
    expect(checked).toEqual(['good-1']);
  });

  it('refuses a remembered token once it has expired, as the signature check would', async () => {
    let now = start;
    const { verify } = counted();
    const remembered = rememberVerified(verify, () => now);
    await remembered('good-1');

    now = start + 3600_000 + 1;
    expect(await remembered('good-1')).toBeUndefined();
  });

  it('remembers no token that was refused, nor one that expired before it was checked', async () => {
    let now = start;
    const { verify, checked } = counted();
    const remembered = rememberVerified(verify, () => now);

    expect(await remembered('forged')).toBeUndefined();
    expect(await remembered('forged')).toBeUndefined();
    now = start + 3600_000 + 1;
    await remembered('good-late');
    await remembered('good-late');

    expect(checked).toEqual(['forged', 'forged', 'good-late', 'good-late']);
  });

  it('keeps a bounded number, forgetting the least recently used first', async () => {
    const { verify, checked } = counted();
    const remembered = rememberVerified(verify, () => start);

    for (let n = 0; n < VERIFIED_TOKEN_CACHE_SIZE; n++) await remembered(`good-${n}`);
    await remembered('good-0');
    await remembered(`good-${VERIFIED_TOKEN_CACHE_SIZE}`);
    expect(checked).toHaveLength(VERIFIED_TOKEN_CACHE_SIZE + 1);

    // good-1 was the least recently used: it goes first; good-0, used since, stays.
    await remembered('good-0');
    await remembered('good-1');
    expect(checked.slice(VERIFIED_TOKEN_CACHE_SIZE + 1)).toEqual(['good-1']);
  });
});

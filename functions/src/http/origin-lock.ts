import { timingSafeEqual } from 'node:crypto';

/** How long read values are trusted before they are read again. */
export const ORIGIN_SECRET_MAX_AGE_MS = 5 * 60 * 1000;

/**
 * The least time between two reads: a value the function does not know makes
 * it read again (a rotation reaches CloudFront's edges while the function
 * still holds the values it read before the new one was put), but a stream of
 * wrong values from callers around CloudFront cannot make it read more often.
 */
export const ORIGIN_SECRET_RECHECK_MS = 15 * 1000;

/** Whether a request's `x-origin-verify` value is one CloudFront may be sending. */
export type OriginLock = (given: string | undefined) => Promise<boolean>;

const sameSecret = (given: string, expected: string) => {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
};

/**
 * The origin lock's check (decision 007, rotation in decision 035). `read`
 * answers the values CloudFront may send: the secret's current value and,
 * during a rotation, its previous one. They are kept for
 * {@link ORIGIN_SECRET_MAX_AGE_MS}; a value that matches neither is checked
 * once more against a fresh read when the kept ones are older than
 * {@link ORIGIN_SECRET_RECHECK_MS}, so a distribution that already sends the
 * new value is not refused by a function that read before it was put.
 */
export function createOriginLock(read: () => Promise<string[]>, now: () => number = Date.now): OriginLock {
  let kept: { values: string[]; at: number } | undefined;
  let reading: Promise<string[]> | undefined;
  const fresh = () => {
    // Concurrent requests of one instance share one read.
    reading ??= read().then(
      (values) => {
        kept = { values, at: now() };
        reading = undefined;
        return values;
      },
      (error: unknown) => {
        reading = undefined;
        throw error;
      },
    );
    return reading;
  };
  const matches = (given: string, values: string[]) => values.some((value) => sameSecret(given, value));
  return async (given) => {
    if (!given) return false;
    const values = kept && now() - kept.at < ORIGIN_SECRET_MAX_AGE_MS ? kept.values : await fresh();
    if (matches(given, values)) return true;
    if (!kept || now() - kept.at < ORIGIN_SECRET_RECHECK_MS) return false;
    return matches(given, await fresh());
  };
}

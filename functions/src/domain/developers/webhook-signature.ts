import { createHmac, timingSafeEqual } from 'node:crypto';
import { WEBHOOK_TOLERANCE_SECONDS } from '@tunesmith/shared/developer-api';

/**
 * The `Tunesmith-Signature` header of a delivery: `t=<unix seconds>,v1=<hex
 * HMAC-SHA256(secret, "<t>.<body>")>`. The time is signed with the body, so
 * a captured delivery cannot be replayed later than a receiver's tolerance.
 */
export function signWebhook(secret: string, body: string, unixSeconds: number): string {
  return `t=${unixSeconds},v1=${hmac(secret, unixSeconds, body)}`;
}

const hmac = (secret: string, t: number | string, body: string) =>
  createHmac('sha256', secret).update(`${t}.${body}`, 'utf8').digest('hex');

/**
 * What a receiver does with a delivery: true when `header` signs `body` with
 * `secret` (any of its `v1` values, so a header may carry more than one) and
 * its time is within `toleranceSeconds` of `now` (either side). The body must
 * be the raw bytes received, before any JSON parsing.
 */
export function verifyWebhookSignature(
  secret: string,
  header: string | null | undefined,
  body: string,
  now: Date = new Date(),
  toleranceSeconds: number = WEBHOOK_TOLERANCE_SECONDS,
): boolean {
  if (!header) return false;
  let t: string | undefined;
  const signatures: string[] = [];
  for (const part of header.split(',')) {
    const at = part.indexOf('=');
    if (at < 0) continue;
    const name = part.slice(0, at).trim();
    const value = part.slice(at + 1).trim();
    if (name === 't') t = value;
    else if (name === 'v1') signatures.push(value);
  }
  if (!t || !/^\d{1,12}$/.test(t) || !signatures.length) return false;
  if (Math.abs(Math.floor(now.getTime() / 1000) - Number(t)) > toleranceSeconds) return false;
  const expected = Buffer.from(hmac(secret, t, body), 'hex');
  return signatures.some((signature) => {
    if (!/^[0-9a-f]{64}$/i.test(signature)) return false;
    return timingSafeEqual(expected, Buffer.from(signature, 'hex'));
  });
}

import { Secret, TOTP } from 'otpauth';

/**
 * The tests' authenticator app: the codes of a key an administrator set up
 * (the tests read it from the setup step, as a person types it into an app).
 *
 * Cognito takes each code once ("Your software token has already been used
 * once.") and accepts a code one 30-second step early or late. So a key's
 * codes are handed out in order, a step never twice: the current step's,
 * then the next one's, and for a third sign-in within the same 30 seconds
 * this waits until the next step begins.
 */
const STEP_MS = 30_000;
const lastStep = new Map<string, number>();

export async function authenticatorCode(secret: string): Promise<string> {
  const now = Date.now();
  const current = Math.floor(now / STEP_MS);
  const step = Math.max(current, (lastStep.get(secret) ?? Number.NEGATIVE_INFINITY) + 1);
  // One step early is the most Cognito accepts: wait until `step - 1` is the current one.
  const wait = (step - 1) * STEP_MS - now;
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait + 100));
  lastStep.set(secret, step);
  return TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: step * STEP_MS });
}

/** The code of `secret` at `at`, for a test that wants a wrong or a given one (it is not marked as used). */
export const authenticatorCodeAt = (secret: string, at: number): string =>
  TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: at });

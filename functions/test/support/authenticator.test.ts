import { Secret, TOTP } from 'otpauth';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { authenticatorCode } from './authenticator';

const key = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
const codeAt = (ms: number) => TOTP.generate({ secret: Secret.fromBase32(key), timestamp: ms });

describe('the tests’ authenticator', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(1_800_000_010_000);
  });
  afterEach(() => vi.useRealTimers());

  it('gives each step’s code once: now, the next step’s, then waits for the next step', async () => {
    const start = Date.now();
    const step = Math.floor(start / 30_000);
    expect(await authenticatorCode(key)).toBe(codeAt(step * 30_000));
    expect(await authenticatorCode(key)).toBe(codeAt((step + 1) * 30_000));

    let third: string | undefined;
    const pending = authenticatorCode(key).then((code) => (third = code));
    await vi.advanceTimersByTimeAsync(10_000);
    expect(third).toBeUndefined();
    await vi.advanceTimersByTimeAsync(10_200);
    await pending;
    expect(third).toBe(codeAt((step + 2) * 30_000));
    // It was handed out once the next step had begun: one step early at most.
    expect(Math.floor(Date.now() / 30_000)).toBe(step + 1);
  });
});

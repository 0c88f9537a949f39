import { describe, expect, it } from 'vitest';
import { createOriginLock, ORIGIN_SECRET_MAX_AGE_MS, ORIGIN_SECRET_RECHECK_MS } from './origin-lock';

/** The secret as Secrets Manager holds it: put a value and the current one becomes the previous. */
function fakeSecret(first: string) {
  let current = first;
  let previous: string | undefined;
  let reads = 0;
  return {
    put(value: string) {
      previous = current;
      current = value;
    },
    read: async () => {
      reads += 1;
      return previous ? [current, previous] : [current];
    },
    get reads() {
      return reads;
    },
  };
}

function clock() {
  let t = 1_000_000;
  return { now: () => t, advance: (ms: number) => (t += ms) };
}

describe('the origin lock', () => {
  it('accepts the current and the previous value and refuses anything else', async () => {
    const secret = fakeSecret('v1');
    secret.put('v2');
    const lock = createOriginLock(secret.read);
    expect(await lock('v2')).toBe(true);
    expect(await lock('v1')).toBe(true);
    for (const other of ['v3', 'v2 ', 'V2', '', undefined])
      expect(await lock(other), String(other)).toBe(false);
  });

  it('refuses the value before the previous one, as after a second rotation', async () => {
    const secret = fakeSecret('v1');
    secret.put('v2');
    secret.put('v3');
    const lock = createOriginLock(secret.read);
    expect([await lock('v3'), await lock('v2'), await lock('v1')]).toEqual([true, true, false]);
  });

  it('takes a new value CloudFront already sends before its kept values expire, by reading again', async () => {
    const secret = fakeSecret('v1');
    const time = clock();
    const lock = createOriginLock(secret.read, time.now);
    expect(await lock('v1')).toBe(true);
    // The operator puts v2 and the distribution's edges start sending it.
    secret.put('v2');
    time.advance(ORIGIN_SECRET_RECHECK_MS);
    expect(await lock('v2')).toBe(true);
    // The edges that have not switched yet still get through.
    expect(await lock('v1')).toBe(true);
    expect(secret.reads).toBe(2);
  });

  it('reads again at most once a recheck interval, however many wrong values come', async () => {
    const secret = fakeSecret('v1');
    const time = clock();
    const lock = createOriginLock(secret.read, time.now);
    for (let i = 0; i < 20; i += 1) expect(await lock(`guess-${i}`)).toBe(false);
    expect(secret.reads).toBe(1);
    time.advance(ORIGIN_SECRET_RECHECK_MS);
    for (let i = 0; i < 20; i += 1) expect(await lock(`guess-${i}`)).toBe(false);
    expect(secret.reads).toBe(2);
  });

  it('reads the values again once they are older than their maximum age', async () => {
    const secret = fakeSecret('v1');
    const time = clock();
    const lock = createOriginLock(secret.read, time.now);
    expect(await lock('v1')).toBe(true);
    expect(await lock('v1')).toBe(true);
    expect(secret.reads).toBe(1);
    time.advance(ORIGIN_SECRET_MAX_AGE_MS);
    expect(await lock('v1')).toBe(true);
    expect(secret.reads).toBe(2);
  });

  it('shares one read between concurrent requests, and fails closed when the read fails', async () => {
    const secret = fakeSecret('v1');
    const lock = createOriginLock(secret.read);
    expect(await Promise.all([lock('v1'), lock('v1'), lock('x')])).toEqual([true, true, false]);
    expect(secret.reads).toBe(1);

    let fail = true;
    const flaky = createOriginLock(async () => {
      if (fail) throw new Error('Secrets Manager is down');
      return ['v1'];
    });
    await expect(flaky('v1')).rejects.toThrow('Secrets Manager is down');
    fail = false;
    expect(await flaky('v1')).toBe(true);
  });
});

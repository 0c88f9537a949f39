import { describe, expect, it } from 'vitest';
import { lazySdk } from './lazy-sdk';

describe('lazySdk', () => {
  it('loads the module and makes the client once, on first use', async () => {
    let loads = 0;
    let made = 0;
    const get = lazySdk(
      async () => {
        loads++;
        return { Client: class {} };
      },
      (sdk) => {
        made++;
        return new sdk.Client();
      },
    );
    expect(loads).toBe(0);
    const [a, b] = await Promise.all([get(), get()]);
    const c = await get();
    expect(loads).toBe(1);
    expect(made).toBe(1);
    expect(a.client).toBe(b.client);
    expect(c.client).toBe(a.client);
  });

  it('tries again after a failed load', async () => {
    let attempts = 0;
    const get = lazySdk(
      async () => {
        attempts++;
        if (attempts === 1) throw new Error('not now');
        return 'sdk';
      },
      (sdk) => `${sdk}-client`,
    );
    await expect(get()).rejects.toThrow('not now');
    expect((await get()).client).toBe('sdk-client');
    expect(attempts).toBe(2);
  });
});

import { describe, expect, it } from 'vitest';
import { lazyPort, lazySdk } from './lazy-sdk';

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

describe('lazyPort', () => {
  /** A port whose adapter counts its loads and answers from its own state. */
  function counted(failFirst = false) {
    let loads = 0;
    const load = async () => {
      loads++;
      if (failFirst && loads === 1) throw new Error('chunk unreadable');
      return {
        prefix: 'sent',
        async send(to: string, body: string) {
          return `${this.prefix} ${body} to ${to}`;
        },
        async count() {
          return loads;
        },
      };
    };
    return { load, loads: () => loads };
  }

  it('loads the adapter with the first call of a method, once, and forwards every call', async () => {
    const { load, loads } = counted();
    const port = lazyPort(load, ['send', 'count']);
    expect(loads()).toBe(0);
    const [sent, count] = await Promise.all([port.send('ada', 'hello'), port.count()]);
    expect(sent).toBe('sent hello to ada');
    expect(count).toBe(1);
    await port.send('bo', 'again');
    expect(loads()).toBe(1);
  });

  it('holds the listed methods only, as own properties', () => {
    const port = lazyPort(counted().load, ['send']);
    expect(Object.keys(port)).toEqual(['send']);
  });

  it('tries the load again on the next call after a failed one', async () => {
    const { load, loads } = counted(true);
    const port = lazyPort(load, ['send']);
    await expect(port.send('ada', 'hello')).rejects.toThrow('chunk unreadable');
    await expect(port.send('ada', 'hello')).resolves.toBe('sent hello to ada');
    expect(loads()).toBe(2);
  });
});

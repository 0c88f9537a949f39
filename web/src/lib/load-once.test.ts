import { describe, expect, it, vi } from 'vitest';
import { loadOnce } from './load-once';

describe('loadOnce', () => {
  it('asks once and gives every caller the same answer', async () => {
    const load = vi.fn(async () => ({ code: 1 }));
    const get = loadOnce(load);
    const [a, b] = await Promise.all([get(), get()]);
    expect(a).toBe(b);
    expect(await get()).toBe(a);
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('asks again after a failed load, not before', async () => {
    const load = vi
      .fn<() => Promise<string>>()
      .mockRejectedValueOnce(new TypeError('Failed to fetch dynamically imported module'))
      .mockResolvedValue('loaded');
    const get = loadOnce(load);
    await expect(get()).rejects.toThrow('Failed to fetch');
    expect(await get()).toBe('loaded');
    expect(await get()).toBe('loaded');
    expect(load).toHaveBeenCalledTimes(2);
  });
});

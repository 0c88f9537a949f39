import { describe, expect, it, vi } from 'vitest';
import './zod-jitless';

describe('zod under the content security policy', () => {
  it('never tries generated code, so a strict CSP reports no violation', async () => {
    const { config, object, string } = await import('zod/mini');
    const tried = vi.fn();
    const RealFunction = globalThis.Function;
    // Any `new Function(...)` zod attempted would pass through here.
    globalThis.Function = new Proxy(RealFunction, {
      construct(target, args) {
        tried(args);
        return Reflect.construct(target, args);
      },
    });
    try {
      const schema = object({ name: string() });
      expect(schema.parse({ name: 'Ada' })).toEqual({ name: 'Ada' });
      expect(schema.safeParse({ name: 1 }).success).toBe(false);
    } finally {
      globalThis.Function = RealFunction;
    }

    expect(config().jitless).toBe(true);
    expect(tried).not.toHaveBeenCalled();
  });
});

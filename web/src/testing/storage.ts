import { onTestFinished } from 'vitest';

/**
 * Replaces `window.localStorage` with an in-memory store that records every
 * write, so a test can see entries that the app writes and later removes.
 * The real store comes back after the test.
 */
export function recordLocalStorage(initial: Record<string, string> = {}) {
  const data = new Map(Object.entries(initial));
  const writes: Array<[string, string]> = [];
  const removals: string[] = [];
  const fake: Storage = {
    get length() {
      return data.size;
    },
    key: (index) => [...data.keys()][index] ?? null,
    getItem: (key) => data.get(key) ?? null,
    setItem: (key, value) => {
      writes.push([key, String(value)]);
      data.set(key, String(value));
    },
    removeItem: (key) => {
      removals.push(key);
      data.delete(key);
    },
    clear: () => data.clear(),
  };
  const original = Object.getOwnPropertyDescriptor(window, 'localStorage');
  Object.defineProperty(window, 'localStorage', { value: fake, configurable: true });
  onTestFinished(() => {
    if (original) Object.defineProperty(window, 'localStorage', original);
  });
  return { data, writes, removals };
}

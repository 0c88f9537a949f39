import { describe, expect, it } from 'vitest';
import LRUCache from '../lib/bundle-shims/endpoint-cache-lru';

describe("the endpoint cache's LRU stand-in", () => {
  it('keeps at most its capacity, dropping the least recently used entry', () => {
    const cache = new LRUCache<string, number>(2);
    cache.set('a', 1).set('b', 2);
    expect(cache.get('a')).toBe(1);
    cache.set('c', 3);
    expect(cache.has('b')).toBe(false);
    expect([cache.get('a'), cache.get('c'), cache.size]).toEqual([1, 3, 2]);
  });

  it('peeks without making an entry recent, and replaces a value in place of adding one', () => {
    const cache = new LRUCache<string, number>(2);
    cache.set('a', 1).set('b', 2);
    expect(cache.peek('a')).toBe(1);
    cache.set('b', 20);
    cache.set('c', 3);
    expect(cache.has('a')).toBe(false);
    expect([cache.peek('b'), cache.peek('c')]).toEqual([20, 3]);
    cache.clear();
    expect(cache.size).toBe(0);
  });
});

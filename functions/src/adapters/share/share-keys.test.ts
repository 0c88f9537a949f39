import { describe, expect, it } from 'vitest';
import { type KeyValueStoreApi, keyValueStoreShareKeys, SHARE_KEY_VALUE } from './share-keys';

/** A key value store with an ETag that changes on every write, as CloudFront's does; `racing` writes land first. */
function fakeStore(options: { racing?: number; deleteMissing?: boolean } = {}) {
  const keys = new Map<string, string>();
  let version = 0;
  let racing = options.racing ?? 0;
  const calls: string[] = [];
  const check = (ifMatch: string) => {
    if (racing > 0) {
      // Someone else wrote between our Describe and our write.
      racing -= 1;
      version += 1;
    }
    if (ifMatch !== `etag-${version}`)
      throw Object.assign(new Error('Pre-condition failed'), { name: 'ConflictException' });
    version += 1;
  };
  const api: KeyValueStoreApi = {
    async etag() {
      calls.push('describe');
      return `etag-${version}`;
    },
    async putKey({ key, value, ifMatch }) {
      calls.push(`put ${key}`);
      check(ifMatch);
      keys.set(key, value);
    },
    async deleteKey({ key, ifMatch }) {
      calls.push(`delete ${key}`);
      if (!keys.has(key)) throw Object.assign(new Error('not found'), { name: 'ResourceNotFoundException' });
      check(ifMatch);
      keys.delete(key);
    },
  };
  return { api, keys, calls };
}

describe('the edge’s share keys (CloudFront KeyValueStore)', () => {
  it('puts and deletes a key with the store’s current ETag', async () => {
    const store = fakeStore();
    const keys = keyValueStoreShareKeys(store.api);
    await keys.put('t-1');
    expect(store.keys.get('t-1')).toBe(SHARE_KEY_VALUE);
    await keys.delete('t-1');
    expect(store.keys.has('t-1')).toBe(false);
    expect(store.calls).toEqual(['describe', 'put t-1', 'describe', 'delete t-1']);
  });

  it('tries again on a fresh ETag when another write won the race', async () => {
    const store = fakeStore({ racing: 2 });
    await keyValueStoreShareKeys(store.api).put('t-1');
    expect(store.keys.get('t-1')).toBe(SHARE_KEY_VALUE);
    expect(store.calls).toEqual(['describe', 'put t-1', 'describe', 'put t-1', 'describe', 'put t-1']);
  });

  it('gives up after its attempts, so the change that needed the key fails', async () => {
    const store = fakeStore({ racing: 10 });
    await expect(keyValueStoreShareKeys(store.api, { attempts: 3 }).put('t-1')).rejects.toMatchObject({
      name: 'ConflictException',
    });
    expect(store.calls.filter((c) => c === 'put t-1')).toHaveLength(3);
  });

  it('a key already gone is deleted', async () => {
    const store = fakeStore();
    await expect(keyValueStoreShareKeys(store.api).delete('never-there')).resolves.toBeUndefined();
  });

  it('other failures are not retried', async () => {
    const api: KeyValueStoreApi = {
      etag: async () => 'etag-0',
      putKey: async () =>
        Promise.reject(Object.assign(new Error('denied'), { name: 'AccessDeniedException' })),
      deleteKey: async () => {},
    };
    await expect(keyValueStoreShareKeys(api).put('t-1')).rejects.toThrow('denied');
  });
});

import type { ApiKeyRecord, ApiKeyStore } from '../domain/developers/ports';

/** API keys in a map, with the store's rules: at most `max` live keys per user, revoking stops the hash at once. */
export function inMemoryApiKeys(): ApiKeyStore & { all: Map<string, ApiKeyRecord> } {
  const all = new Map<string, ApiKeyRecord>();
  const live = (userId: string) => [...all.values()].filter((k) => k.userId === userId && !k.revokedAt);
  return {
    all,
    async create(record, max) {
      if (live(record.userId).length >= max) return false;
      all.set(record.id, { ...record });
      return true;
    },
    async listLive(userId) {
      return live(userId).map((k) => ({ ...k }));
    },
    async revoke(userId, id, at) {
      const key = all.get(id);
      if (!key || key.userId !== userId || key.revokedAt) return false;
      key.revokedAt = at;
      return true;
    },
    async findByHash(hash) {
      const key = [...all.values()].find((k) => k.hash === hash && !k.revokedAt);
      return (
        key && { id: key.id, userId: key.userId, scopes: [...key.scopes], hash, lastUsedAt: key.lastUsedAt }
      );
    },
    async touch(found, at, notBefore) {
      const key = all.get(found.id);
      if (!key || key.revokedAt || (key.lastUsedAt && key.lastUsedAt > notBefore)) return;
      key.lastUsedAt = at;
    },
    async removeAll(userId) {
      for (const [id, key] of all) if (key.userId === userId) all.delete(id);
    },
  };
}

import type { IdempotencyRecord, IdempotencyStore } from '../domain/developers/idempotency';

/**
 * In-memory idempotency records with the table adapter's conditions. Each
 * call reads and writes in one synchronous step, so racing claims are as
 * atomic as the conditional put.
 */
export function inMemoryIdempotencyStore(): IdempotencyStore & { records: Map<string, IdempotencyRecord> } {
  const records = new Map<string, IdempotencyRecord>();
  const id = (userId: string, key: string) => `${userId}\u0000${key}`;
  return {
    records,
    async claim(userId, key, record, now) {
      const existing = records.get(id(userId, key));
      const free =
        !existing ||
        existing.expiresAt <= now ||
        (existing.status === 'in_progress' && (existing.lockedUntil ?? 0) <= now);
      if (!free) return { claimed: false, existing: structuredClone(existing) };
      records.set(id(userId, key), structuredClone(record));
      return { claimed: true };
    },
    async complete(userId, key, requestHash, answer, expiresAt) {
      const existing = records.get(id(userId, key));
      if (existing?.requestHash !== requestHash || existing.status !== 'in_progress') return;
      records.set(id(userId, key), {
        status: 'completed',
        requestHash,
        answer: structuredClone(answer),
        expiresAt,
      });
    },
    async release(userId, key, requestHash) {
      const existing = records.get(id(userId, key));
      if (existing?.requestHash === requestHash && existing.status === 'in_progress')
        records.delete(id(userId, key));
    },
  };
}

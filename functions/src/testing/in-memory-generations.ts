import { conflict } from '../domain/errors';
import type { GenerationStore, QuotaStore } from '../domain/generations/ports';
import type { Generation } from '../domain/tracks/track';
import { inMemoryGenerations } from './in-memory';

const newestFirst = (a: Generation, b: Generation) =>
  `${b.createdAt}#${b.id}`.localeCompare(`${a.createdAt}#${a.id}`);

/**
 * In-memory generation store with the table's contracts: create refuses an
 * existing id, update is a compare-and-set, the library is newest first with a
 * cursor (the last item's sort key).
 */
export function inMemoryGenerationStore(
  initial: Generation[] = [],
  options: { failCreate?: () => boolean } = {},
): GenerationStore & { all: Map<string, Generation> } {
  const base = inMemoryGenerations(initial);
  const { all } = base;
  return {
    ...base,
    async create(generation) {
      if (options.failCreate?.()) throw new Error('store unavailable');
      if (all.has(generation.id)) throw conflict('A generation with this id exists.');
      all.set(generation.id, structuredClone(generation));
    },
    async get(id) {
      const g = all.get(id);
      return g && structuredClone(g);
    },
    async update(id, change) {
      const current = all.get(id);
      if (!current) return undefined;
      const before = structuredClone(current);
      const after = change(structuredClone(current));
      if (after) all.set(id, structuredClone(after));
      return { before, after };
    },
    async listByUser(userId, { limit, cursor }) {
      const mine = [...all.values()]
        .filter((g) => g.userId === userId)
        .sort(newestFirst)
        .filter((g) => !cursor || `${g.createdAt}#${g.id}` < cursor);
      const items = mine.slice(0, limit).map((g) => structuredClone(g));
      const last = items.at(-1);
      return {
        items,
        ...(mine.length > limit && last ? { cursor: `${last.createdAt}#${last.id}` } : {}),
      };
    },
    async delete(id, userId) {
      const g = all.get(id);
      if (!g || g.userId !== userId) return undefined;
      all.delete(id);
      return g;
    },
  };
}

/**
 * In-memory quota counter with the adapter's rules. Each call reads and writes
 * in one synchronous step, so concurrent calls are as atomic as the conditional
 * update in the table.
 */
export function inMemoryQuota(): QuotaStore & {
  counters: Map<string, { used: number; windowStart: string | null }>;
} {
  const counters = new Map<string, { used: number; windowStart: string | null }>();
  return {
    counters,
    async reserve(userId, { limit, windowStart, units = 1 }) {
      const c = counters.get(userId) ?? { used: 0, windowStart: null };
      if (c.windowStart === windowStart) {
        if (c.used + units > limit) return { ok: false, used: c.used, limit };
        counters.set(userId, { used: c.used + units, windowStart });
        return { ok: true, used: c.used + units };
      }
      if (c.windowStart === null || c.windowStart < windowStart) {
        if (units > limit) return { ok: false, used: 0, limit };
        counters.set(userId, { used: units, windowStart });
        return { ok: true, used: units };
      }
      return { ok: false, used: c.used, limit };
    },
    async refund(userId, windowStart, units = 1) {
      const c = counters.get(userId);
      if (!c || c.windowStart !== windowStart || c.used < units || units <= 0) return false;
      counters.set(userId, { used: c.used - units, windowStart });
      return true;
    },
    async read(userId) {
      return counters.get(userId);
    },
  };
}

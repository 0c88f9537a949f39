import type { Plan, PlanRepository } from '../domain/plans/plan';
import type { Setting, SettingsRepository } from '../domain/settings/settings';
import type { Generation, GenerationRepository } from '../domain/tracks/track';
import { isGalleryVisible } from '../domain/tracks/track';

/** In-memory plan repository with the same ordering contract as the table. */
export function inMemoryPlans(initial: Plan[] = []): PlanRepository & { all: Map<string, Plan> } {
  const all = new Map(initial.map((plan) => [plan.id, plan]));
  return {
    all,
    async listBySortOrder() {
      return [...all.values()].sort((a, b) => a.sortOrder - b.sortOrder || a.name.localeCompare(b.name));
    },
    async get(id) {
      return all.get(id);
    },
    async put(plan) {
      all.set(plan.id, plan);
    },
  };
}

export function inMemorySettings(): SettingsRepository & { all: Map<string, Setting> } {
  const all = new Map<string, Setting>();
  return {
    all,
    async list() {
      return [...all.values()];
    },
    async get(key) {
      return all.get(key);
    },
    async put(setting) {
      all.set(setting.key, setting);
    },
    async putIfAbsent(setting) {
      if (all.has(setting.key)) return false;
      all.set(setting.key, setting);
      return true;
    },
  };
}

/** In-memory generations; the gallery is derived the way the sparse index is. */
export function inMemoryGenerations(initial: Generation[] = []): GenerationRepository & {
  all: Map<string, Generation>;
} {
  const all = new Map(initial.map((g) => [g.id, g]));
  return {
    all,
    async listGallery(limit) {
      const items = [...all.values()]
        .filter(isGalleryVisible)
        .sort((a, b) => `${b.createdAt}#${b.id}`.localeCompare(`${a.createdAt}#${a.id}`));
      return { items: items.slice(0, limit), ...(items.length > limit ? { cursor: String(limit) } : {}) };
    },
    async put(generation) {
      all.set(generation.id, generation);
    },
  };
}

import type { ModelSettings } from '@tunesmith/shared/model-settings';
import type { ModelSettingsStore } from '../domain/models/model-settings';

/** The models' settings document in memory; none stored reads as the defaults. */
export function inMemoryModelSettings(initial?: ModelSettings): ModelSettingsStore & {
  read(): Promise<ModelSettings | undefined>;
  stored: ModelSettings | undefined;
} {
  const store = {
    stored: initial ? structuredClone(initial) : undefined,
    async get() {
      return store.stored ? structuredClone(store.stored) : undefined;
    },
    async read() {
      return store.get();
    },
    async put(settings: ModelSettings) {
      store.stored = structuredClone(settings);
    },
  };
  return store;
}

/**
 * The administrator's settings of the models (decision 051): one document,
 * `{ defaultModel, models: { [id]: { enabled, quotaCost, plans } } }`. Absent
 * (or for a model registered after it was saved) the defaults stand: every
 * model on at its registry quota cost, the models that Free may use on every
 * plan and the dearer ones on the paid plans only, ACE-Step the default.
 */
import {
  MODEL_QUOTA_COST_MAX,
  MODEL_QUOTA_COST_MIN,
  type ModelSetting,
  type ModelSettings,
  modelMessages,
} from '@tunesmith/shared/model-settings';
import { DEFAULT_MODEL_ID, MUSIC_MODELS, type MusicModel, musicModel } from '@tunesmith/shared/models';
import { validationError } from '../errors';
import { isPaidPlan } from '../generations/entitlements';
import type { Plan } from '../plans/plan';

/** Models every plan offers until an administrator says otherwise; the rest are on the paid plans only. */
export const MODELS_ON_EVERY_PLAN: readonly string[] = [DEFAULT_MODEL_ID, 'minimax-music-2', 'cassetteai'];

/** Where the settings document is kept. */
export interface ModelSettingsStore {
  /** The stored document, undefined when none was ever saved. */
  get(): Promise<ModelSettings | undefined>;
  put(settings: ModelSettings): Promise<void>;
}

type PlanFacts = Pick<Plan, 'id' | 'name' | 'weeklyPrice' | 'monthlyPrice' | 'yearlyPrice'>;

/** A model's setting when none is stored: on, at its registry cost, on every plan or the paid ones. */
export function defaultModelSetting(model: MusicModel, plans: readonly PlanFacts[]): ModelSetting {
  const offered = MODELS_ON_EVERY_PLAN.includes(model.id) ? plans : plans.filter((p) => isPaidPlan(p));
  return { enabled: true, quotaCost: model.defaultQuotaCost, plans: offered.map((p) => p.id) };
}

/**
 * The settings in force: what is stored, each registered model absent from
 * it at its default, a stored entry of a model no longer registered dropped,
 * plans deleted since left out, and a stored default that is no longer
 * registered replaced by ACE-Step. The default model is on and offered on
 * every plan, also on a plan created after the settings were saved.
 */
export function settingsInForce(
  stored: ModelSettings | undefined,
  plans: readonly PlanFacts[],
): ModelSettings {
  const planIds = plans.map((p) => p.id);
  const defaultModel =
    stored?.defaultModel && musicModel(stored.defaultModel) ? stored.defaultModel : DEFAULT_MODEL_ID;
  const models: Record<string, ModelSetting> = {};
  for (const model of MUSIC_MODELS) {
    const setting = stored?.models[model.id] ?? defaultModelSetting(model, plans);
    models[model.id] =
      model.id === defaultModel
        ? { ...setting, enabled: true, plans: planIds }
        : { ...setting, plans: planIds.filter((id) => setting.plans.includes(id)) };
  }
  return { defaultModel, models };
}

/**
 * Checks a whole settings document before it is stored: every registered
 * model named and nothing else, known plan ids, quota costs of 1 to 10, and
 * a default model that is on and offered on every plan. A refusal is a 400
 * saying what to change; nothing is stored.
 */
export function checkModelSettings(settings: ModelSettings, plans: readonly PlanFacts[]): ModelSettings {
  const planIds = new Set(plans.map((p) => p.id));
  for (const id of Object.keys(settings.models)) {
    if (!musicModel(id)) throw validationError(modelMessages.settingsUnknownModel(id), { field: 'models' });
  }
  const models: Record<string, ModelSetting> = {};
  for (const model of MUSIC_MODELS) {
    const setting = settings.models[model.id];
    if (!setting) throw validationError(modelMessages.settingsMissingModel(model.id), { field: 'models' });
    if (
      !Number.isInteger(setting.quotaCost) ||
      setting.quotaCost < MODEL_QUOTA_COST_MIN ||
      setting.quotaCost > MODEL_QUOTA_COST_MAX
    ) {
      throw validationError(
        `quotaCost must be a whole number from ${MODEL_QUOTA_COST_MIN} to ${MODEL_QUOTA_COST_MAX}.`,
        { field: 'models' },
      );
    }
    const unknown = setting.plans.find((id) => !planIds.has(id));
    if (unknown !== undefined) {
      throw validationError(modelMessages.settingsUnknownPlan(model, unknown), { field: 'models' });
    }
    // Stored in the plans' own order, each once.
    models[model.id] = {
      ...setting,
      plans: plans.filter((p) => setting.plans.includes(p.id)).map((p) => p.id),
    };
  }
  const chosen = musicModel(settings.defaultModel);
  if (!chosen)
    throw validationError(modelMessages.settingsUnknownModel(settings.defaultModel), {
      field: 'defaultModel',
    });
  const fallback = models[chosen.id] as ModelSetting;
  if (!fallback.enabled)
    throw validationError(modelMessages.settingsDefaultOff(chosen), { field: 'defaultModel' });
  const missing = plans.filter((p) => !fallback.plans.includes(p.id)).map((p) => p.name);
  if (missing.length) {
    throw validationError(modelMessages.settingsDefaultNotEverywhere(chosen, missing), {
      field: 'defaultModel',
    });
  }
  return { defaultModel: chosen.id, models };
}

export interface ModelSettingsSourceOptions {
  /** How long a read is reused (default one minute, as the other settings). */
  refreshMs?: number;
  now?: () => number;
}

/** The settings document as stored, read again after `refreshMs`; a write through it is seen at once. */
export interface ModelSettingsSource {
  read(): Promise<ModelSettings | undefined>;
  write(settings: ModelSettings): Promise<void>;
}

/**
 * A cached reader of the stored document (the site settings' minute): a
 * change an administrator saves applies everywhere within a minute, and at
 * once where it was saved through this source.
 */
export function modelSettingsSource(
  store: ModelSettingsStore,
  options: ModelSettingsSourceOptions = {},
): ModelSettingsSource {
  const refreshMs = options.refreshMs ?? 60_000;
  const now = options.now ?? Date.now;
  let cached: { settings: ModelSettings | undefined; at: number } | undefined;
  return {
    async read() {
      if (cached && now() - cached.at < refreshMs) return cached.settings;
      const settings = await store.get();
      cached = { settings, at: now() };
      return settings;
    },
    async write(settings) {
      await store.put(settings);
      cached = { settings, at: now() };
    },
  };
}

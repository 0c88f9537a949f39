import {
  type AdminModels,
  MODEL_QUOTA_COST_MAX,
  MODEL_QUOTA_COST_MIN,
  type ModelSettings,
  modelMessages,
} from '@tunesmith/shared/model-settings';
import type { ModelPrice } from '@tunesmith/shared/models';

/** The Models page's form: one row per registered model, in the registry's order. */
export interface ModelsFormValues {
  defaultModel: string;
  models: { id: string; enabled: boolean; quotaCost: string; plans: string[] }[];
}

export const quotaCostMessage = `Quota units must be a whole number from ${MODEL_QUOTA_COST_MIN} to ${MODEL_QUOTA_COST_MAX}.`;

/** The form as the settings in force fill it (a model the settings do not name: on, its default cost, every plan). */
export function formOf(data: AdminModels): ModelsFormValues {
  return {
    defaultModel: data.settings.defaultModel,
    models: data.models.map((model) => {
      const setting = data.settings.models[model.id];
      return {
        id: model.id,
        enabled: setting?.enabled ?? true,
        quotaCost: String(setting?.quotaCost ?? model.defaultQuotaCost),
        plans: setting?.plans ?? data.plans.map((plan) => plan.id),
      };
    }),
  };
}

/** A quota cost as typed: a whole number in range, else the message. */
export function checkQuotaCost(typed: string): true | string {
  const trimmed = typed.trim();
  const units = Number(trimmed);
  return /^\d+$/.test(trimmed) && units >= MODEL_QUOTA_COST_MIN && units <= MODEL_QUOTA_COST_MAX
    ? true
    : quotaCostMessage;
}

/**
 * What is wrong with the default as the form has it (it must be on and in
 * every plan, as the API requires), or null.
 */
export function defaultRefusal(values: ModelsFormValues, data: AdminModels): string | null {
  const row = values.models.find((m) => m.id === values.defaultModel);
  const model = data.models.find((m) => m.id === values.defaultModel);
  if (!row || !model) return null;
  if (!row.enabled) return modelMessages.settingsDefaultOff(model);
  const missing = data.plans.filter((plan) => !row.plans.includes(plan.id)).map((plan) => plan.name);
  return missing.length > 0 ? modelMessages.settingsDefaultNotEverywhere(model, missing) : null;
}

/** The settings document the form's values make. */
export function settingsOf(values: ModelsFormValues): ModelSettings {
  return {
    defaultModel: values.defaultModel,
    models: Object.fromEntries(
      values.models.map((m) => [
        m.id,
        { enabled: m.enabled, quotaCost: Number(m.quotaCost), plans: m.plans },
      ]),
    ),
  };
}

const usd = (amount: number) =>
  `$${amount.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: amount < 0.01 ? 4 : 2 })}`;

/** fal's price as its page states it: "$0.0002 per second", "$0.02 per minute", "$0.15 per song". */
export const priceText = (price: ModelPrice) => `${usd(price.usd)} per ${price.per}`;

/** Provider spend in dollars, to the cent. */
export const spendText = (amount: number) =>
  `$${amount.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

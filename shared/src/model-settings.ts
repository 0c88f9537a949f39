/**
 * Choosing a model (decision 051): the administrator's settings of the
 * models, `GET /api/models`, the admin Models calls and the refusals a
 * generation gets for a model it may not use or fields a model cannot honour.
 * The registry itself (names, endpoints, limits, prices) is `./models.ts`.
 */
import * as z from 'zod/mini';
import { MODEL_JOB_KINDS, type MusicModel } from './models';
import './schema-messages';

/** Quota units one generation may be set to cost. */
export const MODEL_QUOTA_COST_MIN = 1;
export const MODEL_QUOTA_COST_MAX = 10;

/** What an administrator sets of one model. */
export const modelSettingSchema = z.object({
  enabled: z.boolean({ error: 'enabled must be true or false.' }),
  quotaCost: z
    .number({
      error: `quotaCost must be a whole number from ${MODEL_QUOTA_COST_MIN} to ${MODEL_QUOTA_COST_MAX}.`,
    })
    .check(
      z.int(`quotaCost must be a whole number from ${MODEL_QUOTA_COST_MIN} to ${MODEL_QUOTA_COST_MAX}.`),
      z.gte(
        MODEL_QUOTA_COST_MIN,
        `quotaCost must be a whole number from ${MODEL_QUOTA_COST_MIN} to ${MODEL_QUOTA_COST_MAX}.`,
      ),
      z.lte(
        MODEL_QUOTA_COST_MAX,
        `quotaCost must be a whole number from ${MODEL_QUOTA_COST_MIN} to ${MODEL_QUOTA_COST_MAX}.`,
      ),
    ),
  /** The ids of the plans that offer it. */
  plans: z.array(z.string().check(z.minLength(1), z.maxLength(100))).check(z.maxLength(100)),
});
export type ModelSetting = z.infer<typeof modelSettingSchema>;

/**
 * The one settings document of the models (`PUT /api/admin/models` takes it
 * whole): the default model and each registered model's setting.
 */
export const modelSettingsSchema = z.object({
  defaultModel: z
    .string({ error: 'defaultModel is required.' })
    .check(z.minLength(1, 'defaultModel is required.')),
  models: z.record(z.string().check(z.maxLength(100)), modelSettingSchema),
});
export type ModelSettings = z.infer<typeof modelSettingsSchema>;

const studioKinds = MODEL_JOB_KINDS.filter((kind) => kind !== 'text') as ('audio' | 'extend' | 'repaint')[];

const priceSchema = z.object({ per: z.enum(['second', 'minute', 'song']), usd: z.number() });
const rangeSchema = z.object({ min: z.number(), max: z.number() });

/** A model as `GET /api/models` answers it: the registry's facts and what the settings make of them. */
export const offeredModelSchema = z.object({
  id: z.string(),
  name: z.string(),
  vendor: z.string(),
  bestFor: z.string(),
  lyrics: z.enum(['optional', 'required', 'none']),
  lyricsLength: z.optional(rangeSchema),
  promptLength: rangeSchema,
  /** null: the model decides the length itself. */
  duration: z.nullable(rangeSchema),
  languages: z.array(z.string()),
  /** The studio actions it runs itself. */
  studio: z.array(z.enum(studioKinds)),
  price: priceSchema,
  termsUrl: z.string(),
  /** Quota units one generation costs. */
  quotaCost: z.int(),
  /** The plans that offer it, in their order. */
  plans: z.array(z.object({ id: z.string(), name: z.string() })),
  /** Whether the caller's plan offers it now; false for visitors. */
  available: z.boolean(),
});
export type OfferedModel = z.infer<typeof offeredModelSchema>;

/** `GET /api/models`: the models that are on, in the registry's order, and which one is the default. */
export const modelsAnswerSchema = z.object({ defaultModel: z.string(), models: z.array(offeredModelSchema) });
export type ModelsAnswer = z.infer<typeof modelsAnswerSchema>;

/** This week's use of one model (the dashboard and the admin Models page). */
export const modelUsageSchema = z.object({
  id: z.string(),
  name: z.string(),
  /** Generations started this week. */
  generations: z.int(),
  /** What fal charged for this week's finished tracks, by the registry's prices (US dollars). */
  spendUsd: z.number(),
});
export type ModelUsage = z.infer<typeof modelUsageSchema>;

/** `GET /api/admin/models`: the registry, the settings in force and this week's use of each model. */
export const adminModelsSchema = z.object({
  settings: modelSettingsSchema,
  models: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      vendor: z.string(),
      bestFor: z.string(),
      endpoints: z.record(z.string(), z.string()),
      lyrics: z.enum(['optional', 'required', 'none']),
      duration: z.nullable(rangeSchema),
      price: priceSchema,
      termsUrl: z.string(),
      defaultQuotaCost: z.int(),
    }),
  ),
  plans: z.array(z.object({ id: z.string(), name: z.string(), paid: z.boolean() })),
  /** The first day (UTC, yyyy-mm-dd) of the week the usage counts. */
  weekStart: z.string(),
  usage: z.array(modelUsageSchema),
});
export type AdminModels = z.infer<typeof adminModelsSchema>;

/** "A", "A and B", "A, B and C". */
export function namesInWords(names: readonly string[]): string {
  if (names.length <= 1) return names[0] ?? '';
  return `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}

type Named = Pick<MusicModel, 'name'>;

/** The refusals of a generation's model and of the fields it cannot honour (400s). */
export const modelMessages = {
  unknownModel: (id: string) => `There is no model "${id}". Choose one of the models offered.`,
  modelOff: (model: Named) => `${model.name} is turned off. Choose another model.`,
  notInPlan: (model: Named, planNames: readonly string[]) =>
    planNames.length === 0
      ? `${model.name} is not offered on any plan. Choose another model.`
      : `${model.name} is in ${namesInWords(planNames)}. Upgrade to use it.`,
  lyricsRefused: (model: Named) => `${model.name} makes instrumentals only: leave the lyrics empty.`,
  lyricsRequired: (model: Named, range: { min: number; max: number }) =>
    `${model.name} always sings: write lyrics of ${range.min} to ${range.max} characters.`,
  lyricsLength: (model: Named, range: { min: number; max: number }) =>
    `${model.name} takes lyrics of ${range.min} to ${range.max} characters.`,
  tagsLength: (model: Named, range: { min: number; max: number }) =>
    `${model.name} takes a description (tags) of ${range.min} to ${range.max} characters.`,
  durationOutside: (model: Named, range: { min: number; max: number }) =>
    `${model.name} makes ${range.min} to ${range.max} seconds: the duration must be a whole number of seconds in that range.`,
  durationDecided: (model: Named) =>
    `${model.name} decides the length of its songs itself: leave the duration out.`,
  cannotRestyle: (model: Named, able: readonly string[]) =>
    `${model.name} cannot restyle an upload. ${namesInWords(able)} can.`,
  noStudioModel: (action: string) => `No model you can use can ${action} a track.`,
  // The admin Models page's refusals (nothing is saved).
  settingsUnknownModel: (id: string) => `There is no model "${id}".`,
  settingsMissingModel: (id: string) => `The settings must name every model: ${id} is missing.`,
  settingsUnknownPlan: (model: Named, planId: string) =>
    `${model.name} names a plan that does not exist: ${planId}.`,
  settingsDefaultOff: (model: Named) =>
    `The default model must be on: turn ${model.name} on or choose another default.`,
  settingsDefaultNotEverywhere: (model: Named, missing: readonly string[]) =>
    `The default model must be offered on every plan: ${model.name} is not in ${namesInWords(missing)}.`,
} as const;

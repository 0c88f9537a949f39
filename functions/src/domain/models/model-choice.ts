/**
 * Which model a generation runs and what it may ask of it (decision 051):
 * a model that is on and offered on the user's plan, asked only what it can
 * honour (its lyrics, description and length limits; restyle only where it
 * runs `audio`), all of it checked before anything is reserved.
 */
import { DURATION_DEFAULT_SECONDS } from '@tunesmith/shared/constants';
import { type ModelSetting, type ModelSettings, modelMessages } from '@tunesmith/shared/model-settings';
import {
  DEFAULT_MODEL_ID,
  type ModelJobKind,
  MUSIC_MODELS,
  type MusicModel,
  modelRuns,
  musicModel,
  studioModel,
} from '@tunesmith/shared/models';
import type { User } from '../accounts/user';
import { validationError } from '../errors';
import { entitlementsFor, isPaidPlan } from '../generations/entitlements';
import type { Plan } from '../plans/plan';
import type { Generation } from '../tracks/track';

/** The settings in force, every plan (by sort order) and the id of the plan in force for the caller. */
export interface ModelContext {
  settings: ModelSettings;
  plans: readonly Plan[];
  /** The plan whose models the caller may use; undefined for a visitor, or when no Free plan is stored. */
  planId: string | undefined;
  /** A signed-in user may always use the default model (it is on every plan), even with no plan in force. */
  signedIn: boolean;
}

/**
 * The plan whose models a user may use: their plan while it is in force (or
 * a free plan given to them), else the stored Free plan.
 */
export function modelPlanInForce(
  user: Pick<User, 'planStatus' | 'planEndDate'>,
  plan: Plan | undefined,
  plans: readonly Plan[],
  now: Date,
): string | undefined {
  if (plan && (entitlementsFor(user, plan, now).paid || !isPaidPlan(plan))) return plan.id;
  return plans.find((p) => p.name === 'Free')?.id;
}

const settingOf = (context: Pick<ModelContext, 'settings'>, model: MusicModel): ModelSetting | undefined =>
  context.settings.models[model.id];

/** Whether the model is on and offered on the caller's plan. */
export function isUsable(context: ModelContext, model: MusicModel): boolean {
  const setting = settingOf(context, model);
  if (!setting?.enabled || !context.signedIn) return false;
  if (context.planId === undefined) return model.id === context.settings.defaultModel;
  return setting.plans.includes(context.planId);
}

/** Quota units one generation with the model costs. */
export const quotaCostOf = (context: Pick<ModelContext, 'settings'>, model: MusicModel): number =>
  settingOf(context, model)?.quotaCost ?? model.defaultQuotaCost;

/** The active plans that offer a model, in their order. */
export const plansOffering = (
  context: Pick<ModelContext, 'settings' | 'plans'>,
  model: MusicModel,
): Plan[] => {
  const ids = settingOf(context, model)?.plans ?? [];
  return context.plans.filter((p) => p.isActive && ids.includes(p.id));
};

/**
 * The model a create call runs: the one asked for, else the site's default.
 * Unknown or off is a 400 naming it; one the caller's plan does not offer is
 * a 400 naming the plans that do.
 */
export function chooseModel(context: ModelContext, requested: string | undefined): MusicModel {
  const id = requested ?? context.settings.defaultModel;
  const model = musicModel(id);
  if (!model) throw validationError(modelMessages.unknownModel(id), { field: 'model' });
  if (!settingOf(context, model)?.enabled)
    throw validationError(modelMessages.modelOff(model), { field: 'model' });
  if (!isUsable(context, model)) {
    const names = plansOffering(context, model).map((p) => p.name);
    throw validationError(modelMessages.notInPlan(model, names), { field: 'model' });
  }
  return model;
}

/** What a create call asks of the model, as parsed. */
export interface ModelFields {
  kind: Extract<ModelJobKind, 'text' | 'audio'>;
  tags: string;
  lyrics: string;
  instrumental: boolean;
  /** Seconds asked for; undefined when none was given. */
  duration?: number;
}

const within = (value: number, range: { min: number; max: number }) =>
  value >= range.min && value <= range.max;

/**
 * Checks what a generation asks against the model's limits (fal's documented
 * ones): lyrics refused by an instrumental-only model or missing for one that
 * always sings, lyrics and description lengths, a length within its range or
 * none for a model that decides it; a restyle needs a model that runs
 * `audio`. Returns the length to record: the one asked, the default brought
 * into the model's range when none was, or null when the model decides it
 * (or the upload does, for a restyle).
 */
export function checkModelFields(
  context: Pick<ModelContext, 'settings'>,
  model: MusicModel,
  fields: ModelFields,
): number | null {
  if (fields.kind === 'audio' && !modelRuns(model, 'audio')) {
    const able = MUSIC_MODELS.filter((m) => modelRuns(m, 'audio') && settingOf(context, m)?.enabled).map(
      (m) => m.name,
    );
    throw validationError(modelMessages.cannotRestyle(model, able), { field: 'model' });
  }
  const lyrics = fields.lyrics.trim();
  if (model.lyrics === 'none' && lyrics)
    throw validationError(modelMessages.lyricsRefused(model), { field: 'lyrics' });
  if (model.lyrics === 'required' && model.lyricsLength && (fields.instrumental || !lyrics)) {
    throw validationError(modelMessages.lyricsRequired(model, model.lyricsLength), { field: 'lyrics' });
  }
  if (lyrics && model.lyricsLength && !within(lyrics.length, model.lyricsLength)) {
    throw validationError(modelMessages.lyricsLength(model, model.lyricsLength), { field: 'lyrics' });
  }
  if (!within(fields.tags.trim().length, model.promptLength)) {
    throw validationError(modelMessages.tagsLength(model, model.promptLength), { field: 'tags' });
  }
  if (fields.kind === 'audio') return null;
  if (!model.duration) {
    if (fields.duration !== undefined)
      throw validationError(modelMessages.durationDecided(model), { field: 'duration' });
    return null;
  }
  if (fields.duration === undefined) return clampInto(DURATION_DEFAULT_SECONDS, model.duration);
  if (!Number.isInteger(fields.duration) || !within(fields.duration, model.duration)) {
    throw validationError(modelMessages.durationOutside(model, model.duration), { field: 'duration' });
  }
  return fields.duration;
}

const clampInto = (value: number, range: { min: number; max: number }) =>
  Math.min(range.max, Math.max(range.min, value));

/** A studio action on a track. */
export type StudioAction = 'variation' | 'extend' | 'repaint';

const actionWords: Record<StudioAction, string> = { variation: 'vary', extend: 'extend', repaint: 'repaint' };

/**
 * The model a studio action on `track` runs: extend and repaint the track's
 * own model where it runs them and the caller may use it, else the first
 * usable model that does; a variation the track's own model (for a restyle,
 * one that runs `audio`) where usable, else the site's default. A 400 when
 * no usable model can.
 */
export function studioChoice(
  context: ModelContext,
  track: Pick<Generation, 'model' | 'type'>,
  action: StudioAction,
): MusicModel {
  const usable = (m: MusicModel) => isUsable(context, m);
  let model: MusicModel | undefined;
  if (action === 'variation') {
    if (track.type === 'audio-to-music') model = studioModel(track.model, 'audio', usable);
    else {
      const own = musicModel(track.model ?? DEFAULT_MODEL_ID);
      const fallback = musicModel(context.settings.defaultModel);
      model = own && usable(own) ? own : fallback && usable(fallback) ? fallback : undefined;
    }
  } else {
    model = studioModel(track.model, action, usable);
  }
  if (!model) throw validationError(modelMessages.noStudioModel(actionWords[action]));
  return model;
}

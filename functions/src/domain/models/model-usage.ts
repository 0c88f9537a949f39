/**
 * What each model was used for this week (decision 051): generations counted
 * when they start and provider spend when they finish, kept on the daily
 * counter items by the writes that change them (never a scan), in the day
 * the generation started.
 */
import type { ModelUsage } from '@tunesmith/shared/model-settings';
import { DEFAULT_MODEL_ID, MUSIC_MODELS, musicModel, providerCostUsd } from '@tunesmith/shared/models';
import type { Clock } from '../accounts/ports';
import { utcDay } from '../admin/counters';
import { quotaWindowStart } from '../generations/quota-window';
import type { Generation } from '../tracks/track';

/** One model's counters of one UTC day. */
export interface ModelDayUsage {
  generations: number;
  /** Provider spend in millionths of a US dollar (whole numbers add up exactly). */
  spendMicroUsd: number;
}

/** The per-model counters of the daily counter items. */
export interface ModelUsageCounters {
  /** Each model's counters of a UTC day (yyyy-mm-dd); a model with none is absent. */
  day(date: string): Promise<Record<string, ModelDayUsage>>;
}

/** The counter attributes of a model on a daily item. */
export const modelCounterNames = {
  generations: (id: string) => `model#${id}#generations`,
  spendMicroUsd: (id: string) => `model#${id}#spendMicroUsd`,
};

/** The model a track was made with; tracks from before the choice were made with the default. */
export const modelIdOf = (g: Pick<Generation, 'model'>): string => g.model ?? DEFAULT_MODEL_ID;

/** What starting a generation adds to its day's model counters. */
export const modelCountsOfStart = (g: Pick<Generation, 'model'>): Record<string, number> => ({
  [modelCounterNames.generations(modelIdOf(g))]: 1,
});

/**
 * What a track's completion adds to the model counters of the day it started:
 * fal's price for its length (a model priced per song costs the same
 * whatever its length). Nothing unless this change completes it.
 */
export function modelSpendOfCompletion(
  before: Pick<Generation, 'status'>,
  after: Pick<Generation, 'status' | 'model' | 'duration'>,
): Record<string, number> {
  if (before.status === 'completed' || after.status !== 'completed') return {};
  const model = musicModel(modelIdOf(after));
  if (!model) return {};
  const micro = Math.round(providerCostUsd(model, after.duration ?? 0) * 1_000_000);
  return micro > 0 ? { [modelCounterNames.spendMicroUsd(model.id)]: micro } : {};
}

/** The UTC days of the week containing `now` (from Monday) up to today. */
export function daysOfWeekSoFar(now: Date): string[] {
  const days: string[] = [];
  const today = utcDay(now);
  for (let at = new Date(quotaWindowStart(now)); utcDay(at) <= today; at.setUTCDate(at.getUTCDate() + 1)) {
    days.push(utcDay(at));
  }
  return days;
}

/**
 * This week's generations and provider spend of every registered model (the
 * quota's week, Monday 00:00 UTC onwards): at most seven counter reads.
 */
export async function weekUsage(deps: {
  modelUsage: ModelUsageCounters;
  clock: Clock;
}): Promise<{ weekStart: string; usage: ModelUsage[] }> {
  const days = daysOfWeekSoFar(deps.clock.now());
  const counted = await Promise.all(days.map((day) => deps.modelUsage.day(day)));
  const usage = MUSIC_MODELS.map((model) => {
    let generations = 0;
    let micro = 0;
    for (const day of counted) {
      generations += day[model.id]?.generations ?? 0;
      micro += day[model.id]?.spendMicroUsd ?? 0;
    }
    return { id: model.id, name: model.name, generations, spendUsd: micro / 1_000_000 };
  });
  return { weekStart: days[0] as string, usage };
}

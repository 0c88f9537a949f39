import type { DashboardStats } from '@tunesmith/shared/admin';
import { ADMIN_RECENT_ACTIVITY } from '@tunesmith/shared/audit';
import type { Clock } from '../accounts/ports';
import { type ModelUsageCounters, weekUsage } from '../models/model-usage';
import { previousUtcDay, utcDay } from './counters';
import type { AuditLog, SiteCounters, UsageAnalytics, UsageAnalyticsStore } from './ports';

/**
 * The six counters, "today" being the current UTC day, the latest admin
 * activity, and this week's generations and provider spend per model.
 */
export async function dashboardStats(deps: {
  counters: SiteCounters;
  audit: AuditLog;
  clock: Clock;
  modelUsage: ModelUsageCounters;
}): Promise<DashboardStats> {
  const day = utcDay(deps.clock.now());
  const [totals, today, recentActivity, week] = await Promise.all([
    deps.counters.totals(),
    deps.counters.day(day),
    deps.audit.recent(ADMIN_RECENT_ACTIVITY),
    weekUsage(deps),
  ]);
  return {
    totalUsers: totals.users,
    totalGenerations: totals.tracks,
    publicTracks: totals.publicTracks,
    privateTracks: totals.privateTracks,
    newUsersToday: today.newUsers,
    generationsToday: today.generations,
    day,
    recentActivity,
    models: week.usage,
  };
}

/**
 * Writes the usage_analytics record of the UTC day before `now` (the day that
 * has just ended) once: the day's new users and generations, and the totals
 * as they stand. Run daily shortly after midnight UTC, and by the local cloud
 * on start; a second run for the same day changes nothing.
 */
export async function recordUsageAnalytics(deps: {
  counters: SiteCounters;
  analytics: UsageAnalyticsStore;
  clock: Clock;
}): Promise<{ date: string; written: boolean }> {
  const now = deps.clock.now();
  const date = previousUtcDay(utcDay(now));
  const [totals, day] = await Promise.all([deps.counters.totals(), deps.counters.day(date)]);
  const record: UsageAnalytics = {
    id: date,
    date,
    totalUsers: totals.users,
    newUsers: day.newUsers,
    totalGenerations: day.generations,
    textToMusicGenerations: day.textToMusic,
    audioToMusicGenerations: day.audioToMusic,
    publicTracks: totals.publicTracks,
    privateTracks: totals.privateTracks,
    createdAt: now.toISOString(),
  };
  return { date, written: await deps.analytics.putIfAbsent(record) };
}

/**
 * The quota window: calendar weeks that start on Monday 00:00 UTC. Every request
 * derives the same window from the clock alone, so concurrent reservations agree on
 * it without reading anything first, and a new week resets the count.
 */
const DAY_MS = 86_400_000;
export const WEEK_MS = 7 * DAY_MS;

/** The start of the week containing `now` (Monday 00:00 UTC), as an ISO string. */
export function quotaWindowStart(now: Date): string {
  const midnight = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const daysSinceMonday = (now.getUTCDay() + 6) % 7;
  return new Date(midnight - daysSinceMonday * DAY_MS).toISOString();
}

/** When the window containing `now` ends and the count resets. */
export function quotaResetsAt(now: Date): Date {
  return new Date(new Date(quotaWindowStart(now)).getTime() + WEEK_MS);
}

/** Generations used in the current window, given the stored counter. */
export function usedThisWindow(
  stored: { used: number; windowStart: string | null } | undefined,
  now: Date,
): number {
  if (!stored || stored.windowStart !== quotaWindowStart(now)) return 0;
  return Math.max(0, stored.used);
}

/** 'Monday, November 23' (UTC). */
export function formatResetDate(date: Date): string {
  return date.toLocaleDateString('en-US', {
    weekday: 'long',
    month: 'long',
    day: 'numeric',
    timeZone: 'UTC',
  });
}

import type { Generation } from '../tracks/track';

/** Site-wide counters, kept by the writes that change them (never a scan). */
export interface Totals {
  users: number;
  tracks: number;
  publicTracks: number;
  privateTracks: number;
  /** Public tracks an administrator hid from the gallery. */
  hiddenPublicTracks: number;
}

/** Counters of one UTC day. */
export interface DayCounts {
  newUsers: number;
  generations: number;
  textToMusic: number;
  audioToMusic: number;
}

export type TrackTotals = Omit<Totals, 'users'>;

export const zeroTotals = (): Totals => ({
  users: 0,
  tracks: 0,
  publicTracks: 0,
  privateTracks: 0,
  hiddenPublicTracks: 0,
});

export const zeroDay = (): DayCounts => ({ newUsers: 0, generations: 0, textToMusic: 0, audioToMusic: 0 });

type Counted = Pick<Generation, 'visibility' | 'showInGallery'>;

/** What one track adds to the totals. */
export function trackTotalsOf(g: Counted | undefined): TrackTotals {
  if (!g) return { tracks: 0, publicTracks: 0, privateTracks: 0, hiddenPublicTracks: 0 };
  const isPublic = g.visibility === 'public';
  return {
    tracks: 1,
    publicTracks: isPublic ? 1 : 0,
    privateTracks: isPublic ? 0 : 1,
    hiddenPublicTracks: isPublic && !g.showInGallery ? 1 : 0,
  };
}

/**
 * How the totals move when a track goes from `before` to `after` (undefined:
 * created or deleted). Only the counters that change are returned.
 */
export function trackTotalsDelta(
  before: Counted | undefined,
  after: Counted | undefined,
): Partial<TrackTotals> {
  const from = trackTotalsOf(before);
  const to = trackTotalsOf(after);
  const delta: Partial<TrackTotals> = {};
  for (const name of Object.keys(to) as (keyof TrackTotals)[]) {
    const change = to[name] - from[name];
    if (change !== 0) delta[name] = change;
  }
  return delta;
}

/** What starting one generation adds to its day's counters. */
export function dayCountsOfGeneration(type: string): Partial<DayCounts> {
  return { generations: 1, ...(type === 'audio-to-music' ? { audioToMusic: 1 } : { textToMusic: 1 }) };
}

/** The UTC day (yyyy-mm-dd) of a moment: what "today" means on the dashboard. */
export function utcDay(at: Date | string): string {
  return (typeof at === 'string' ? at : at.toISOString()).slice(0, 10);
}

/** The UTC day before `day`. */
export function previousUtcDay(day: string): string {
  const date = new Date(`${day}T00:00:00.000Z`);
  date.setUTCDate(date.getUTCDate() - 1);
  return utcDay(date);
}

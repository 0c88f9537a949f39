import {
  type GallerySort,
  type LikeState,
  PLAY_COUNTS_AFTER_SECONDS,
  type PlayRecorded,
} from '@tunesmith/shared/community';
import { generationMessages } from '@tunesmith/shared/generation-values';
import type { Track } from '@tunesmith/shared/tracks';
import type { User } from '../accounts/user';
import { notFound } from '../errors';
import { type Generation, isGalleryVisible, toTrack } from '../tracks/track';
import type { CreatorNames } from './ports';

/**
 * Likes, counted plays and the gallery's sorts (decision 057). Counters live on the track item and
 * move with `ADD` in the same transaction as the record that justifies them (a like, a listener's
 * play of the day), so they stay exact under concurrent requests and cost nothing to read.
 */

type Viewer = Pick<User, 'id'>;

/** Who listened: a signed-in user, or a visitor by the anonymous id their browser keeps. */
export type Listener = { kind: 'user'; userId: string } | { kind: 'visitor'; id: string };

export interface LikeStore {
  /** Records the like and adds one to the track's likes and its week rankings; false when it was there. */
  like(userId: string, trackId: string, at: string): Promise<boolean>;
  /** Removes the like and takes it back out of the counts; false when there was none. */
  unlike(userId: string, trackId: string): Promise<boolean>;
  /** Which of `trackIds` the user likes: one batched read. */
  likedAmong(userId: string, trackIds: readonly string[]): Promise<Set<string>>;
  /** The user's likes, newest first. Throws a validation error for a cursor it did not hand out. */
  listByUser(
    userId: string,
    page: { limit: number; cursor?: string },
  ): Promise<{ items: { trackId: string; likedAt: string }[]; cursor?: string }>;
  /** Account deletion: every like of the user, taken back out of the tracks' counts. */
  removeAllOf(userId: string): Promise<void>;
}

export interface PlayStore {
  /** Records the listener's play of the track on `day` and adds one to its plays; false when already counted. */
  record(trackId: string, listener: Listener, day: string, at: string): Promise<boolean>;
  /** Account deletion: every counted play of the user, taken back out of the tracks' counts. */
  removeAllOf(userId: string): Promise<void>;
}

/** One entry read from a gallery index, with the cursor that resumes after it. */
export interface IndexEntry {
  /** Absent when the track the entry names is gone. */
  generation?: Generation;
  cursor: string;
}

export interface GalleryIndex {
  /**
   * Up to `limit` entries of the sort's index from `cursor` (`top-week`: of the week ending `day`).
   * `done` when the index has no more. Throws a validation error for a cursor of another list.
   */
  read(
    sort: GallerySort,
    page: { day: string; limit: number; cursor?: string },
  ): Promise<{ entries: IndexEntry[]; done: boolean }>;
}

/** Reads tracks by id, all at once (a batched read); missing ones are left out. */
export interface TrackReader {
  get(id: string): Promise<Generation | undefined>;
  getMany(ids: readonly string[]): Promise<Map<string, Generation>>;
}

const trackNotFound = () => notFound(generationMessages.trackNotFound);

/** Whether the viewer may see the track: its owner always; others while it is not private nor hidden. */
export const maySee = (g: Generation, viewer: Viewer | undefined): boolean =>
  viewer?.id === g.userId || (g.visibility !== 'private' && !g.hidden);

/** The track if the viewer may see it; else not found, as for a track that does not exist. */
export async function visibleTrack(
  tracks: TrackReader,
  viewer: Viewer | undefined,
  id: string,
): Promise<Generation> {
  const g = await tracks.get(id);
  if (!g || !maySee(g, viewer)) throw trackNotFound();
  return g;
}

export interface LikeDeps {
  tracks: TrackReader;
  likes: LikeStore;
  clock: { now(): Date };
}

/** `PUT /api/track/{id}/like`: idempotent; a second like changes nothing. */
export async function likeTrack(deps: LikeDeps, user: Viewer, trackId: string): Promise<LikeState> {
  await visibleTrack(deps.tracks, user, trackId);
  await deps.likes.like(user.id, trackId, deps.clock.now().toISOString());
  return { liked: true, likes: await countOf(deps.tracks, trackId, 'likes') };
}

/** `DELETE /api/track/{id}/like`: idempotent. */
export async function unlikeTrack(deps: LikeDeps, user: Viewer, trackId: string): Promise<LikeState> {
  await visibleTrack(deps.tracks, user, trackId);
  await deps.likes.unlike(user.id, trackId);
  return { liked: false, likes: await countOf(deps.tracks, trackId, 'likes') };
}

async function countOf(tracks: TrackReader, id: string, counter: 'likes' | 'plays'): Promise<number> {
  const g = await tracks.get(id);
  if (!g) throw trackNotFound();
  return g[counter] ?? 0;
}

/** How long a listener must have played the track for the play to count: 30 s, or half a shorter track. */
export function playThreshold(duration: number | null | undefined): number {
  return duration && duration > 0
    ? Math.min(PLAY_COUNTS_AFTER_SECONDS, duration / 2)
    : PLAY_COUNTS_AFTER_SECONDS;
}

export interface PlayDeps {
  tracks: TrackReader;
  plays: PlayStore;
  clock: { now(): Date };
  /**
   * Visitors' counted plays per address: a visitor's listener id is theirs to choose, so a new id
   * per request must not count without end. Counts a play unless the hour already holds the limit.
   */
  visitorPlays?: { hit(key: string, limit: number, windowSeconds: number): Promise<boolean> };
}

/** Counted plays of visitors from one address in an hour (a household or an office shares one). */
export const VISITOR_PLAYS_PER_ADDRESS_HOUR = 60;

/**
 * `POST /api/track/{id}/play`: counts once per listener per track per UTC day, once the threshold is
 * played, never for the owner nor a known bot. `counted` says whether this one was.
 */
export async function recordPlay(
  deps: PlayDeps,
  request: {
    viewer: Viewer | undefined;
    listenerId: string | undefined;
    listenedSeconds: number;
    isBot: boolean;
    /** The caller's address: visitors' plays from it are limited. */
    address?: string;
  },
  trackId: string,
): Promise<PlayRecorded> {
  const g = await visibleTrack(deps.tracks, request.viewer, trackId);
  const listener: Listener | undefined = request.viewer
    ? { kind: 'user', userId: request.viewer.id }
    : request.listenerId
      ? { kind: 'visitor', id: request.listenerId }
      : undefined;
  const countable =
    listener !== undefined &&
    !request.isBot &&
    request.viewer?.id !== g.userId &&
    g.status === 'completed' &&
    request.listenedSeconds >= playThreshold(g.duration);
  if (!countable) return { counted: false, plays: g.plays ?? 0 };
  if (
    listener.kind === 'visitor' &&
    deps.visitorPlays &&
    request.address &&
    !(await deps.visitorPlays.hit(`plays:${request.address}`, VISITOR_PLAYS_PER_ADDRESS_HOUR, 3600))
  )
    return { counted: false, plays: g.plays ?? 0 };
  const now = deps.clock.now();
  const counted = await deps.plays.record(trackId, listener, utcDayOf(now), now.toISOString());
  return { counted, plays: await countOf(deps.tracks, trackId, 'plays') };
}

const DAY_MS = 86_400_000;
export const utcDayOf = (at: Date): string => at.toISOString().slice(0, 10);

/** The last days of the 7-day windows a like on `day` counts in: that day and the six after it. */
export function weeksCounting(day: string): string[] {
  const start = Date.parse(`${day}T00:00:00.000Z`);
  return Array.from({ length: 7 }, (_, i) => utcDayOf(new Date(start + i * DAY_MS)));
}

/** Fills `likedByMe` for a signed-in viewer with one batched read; visitors' tracks are left as they are. */
export async function withLikedByMe<T extends Pick<Track, 'id'>>(
  likes: Pick<LikeStore, 'likedAmong'>,
  viewer: Viewer | undefined,
  tracks: T[],
): Promise<(T & { likedByMe?: boolean })[]> {
  if (!viewer || tracks.length === 0) return tracks;
  const liked = await likes.likedAmong(
    viewer.id,
    tracks.map((t) => t.id),
  );
  return tracks.map((t) => ({ ...t, likedByMe: liked.has(t.id) }));
}

/**
 * Fills `creator` for tracks whose owners have a public profile, one batched read for the page;
 * everyone else stays anonymous (`null`). `owners` maps a track's id to its owner's id.
 */
export async function withCreators<T extends Pick<Track, 'id'>>(
  names: CreatorNames,
  owners: ReadonlyMap<string, string>,
  tracks: T[],
): Promise<(T & Pick<Track, 'creator'>)[]> {
  const userIds = [...new Set(tracks.map((t) => owners.get(t.id)).filter((id): id is string => !!id))];
  const found = userIds.length ? await names.names(userIds) : new Map();
  return tracks.map((t) => {
    const owner = owners.get(t.id);
    return { ...t, creator: (owner && found.get(owner)) || null };
  });
}

/** The largest page the gallery reads from an index at once while it skips tracks no longer listed. */
const INDEX_READ_MAX = 100;
/**
 * Entries read past a page's need on the first read, for a few tracks no longer listed: most pages
 * skip none, and each entry read of a ranking is a track read too. A page that skips more reads on,
 * twice what it still needs at a time.
 */
const INDEX_READ_SLACK = 3;

export interface GalleryDeps {
  index: GalleryIndex;
  clock: { now(): Date };
}

/**
 * A page of listed tracks in the sort's order. Index entries of tracks made private, hidden or
 * deleted since (ranking entries stay behind) are skipped, reading on until the page is full or
 * the index ends; the cursor resumes after the last track answered.
 */
export async function galleryPage(
  deps: GalleryDeps,
  query: { sort: GallerySort; limit: number; cursor?: string },
): Promise<{ generations: Generation[]; nextCursor: string | null }> {
  const day = utcDayOf(deps.clock.now());
  const found: IndexEntry[] = [];
  let cursor = query.cursor;
  // One more than the page tells whether another page exists, so the last page has no cursor.
  const wanted = query.limit + 1;
  for (let round = 0; ; round++) {
    const need = wanted - found.length;
    const read = await deps.index.read(query.sort, {
      day,
      limit: Math.min(INDEX_READ_MAX, round === 0 ? need + INDEX_READ_SLACK : Math.max(need * 2, 10)),
      cursor,
    });
    for (const entry of read.entries) {
      if (entry.generation && isGalleryVisible(entry.generation)) found.push(entry);
      if (found.length === wanted) break;
    }
    if (found.length === wanted || read.done || read.entries.length === 0) break;
    cursor = read.entries.at(-1)?.cursor;
  }
  const page = found.slice(0, query.limit);
  const more = found.length > query.limit;
  return {
    generations: page.map((e) => e.generation as Generation),
    nextCursor: more ? (page.at(-1)?.cursor ?? null) : null,
  };
}

/** A gallery page's tracks as the API answers them: no parents named (a parent may be private). */
export const galleryTrack = (g: Generation): Track => ({ ...toTrack(g), parentId: null });

export interface LikedDeps {
  tracks: TrackReader;
  likes: LikeStore;
}

/**
 * `GET /api/my-likes`: the tracks the user liked that they may still see, newest like first. Likes of
 * tracks since deleted, made private or hidden by others are skipped, reading on until the page is full.
 */
export async function likedTracks(
  deps: LikedDeps,
  user: Viewer,
  query: { limit: number; cursor?: string },
): Promise<{ generations: Generation[]; nextCursor: string | null }> {
  const found: Generation[] = [];
  let cursor = query.cursor;
  let nextCursor: string | null = null;
  for (;;) {
    const need = query.limit - found.length;
    const page = await deps.likes.listByUser(user.id, { limit: need, cursor });
    const tracks = await deps.tracks.getMany(page.items.map((i) => i.trackId));
    for (const item of page.items) {
      const g = tracks.get(item.trackId);
      if (g && maySee(g, user)) found.push(g);
    }
    cursor = page.cursor;
    if (!cursor) break;
    if (found.length >= query.limit) {
      nextCursor = cursor;
      break;
    }
  }
  return { generations: found, nextCursor };
}

import {
  type Creator,
  creatorMessages,
  FOLLOWING_MAX,
  type FollowState,
  HANDLE_PATTERN,
  isReservedHandle,
  type PublicProfile,
  type PublicProfileInput,
  type TrackPage,
} from '@tunesmith/shared/community';
import type { CreatorRef, Track } from '@tunesmith/shared/tracks';
import type { Clock } from '../accounts/ports';
import { conflict, DomainError, notFound, validationError } from '../errors';
import { type Generation, isGalleryVisible, toTrack } from '../tracks/track';
import { type CreatorShareDeps, publishCreatorPage } from './creator-share';
import type { CreatorNames, PublicPlaylists } from './ports';

/**
 * Public profiles, following and the feed (decision 059). Nothing about a user is public until they
 * choose a profile; going private again takes the profile, its handle and every follow of it away.
 */

/** A public profile as stored: `hidden` is set by an administrator after a report (decision 061). */
export interface StoredProfile {
  userId: string;
  handle: string;
  displayName: string;
  bio: string | null;
  hidden: boolean;
  createdAt: string;
  updatedAt: string;
}

/** Why a follow was not written. */
export type FollowRefusal = 'already' | 'creator-gone' | 'limit';

/** Profiles, handle claims, follows and their counts. */
export interface CreatorStore {
  /** The user's public profile (hidden or not); undefined while they are private. */
  profile(userId: string): Promise<StoredProfile | undefined>;
  /** Who holds `handle` (any case). */
  holderOf(handle: string): Promise<string | undefined>;
  /**
   * Writes the profile and claims its handle in one transaction, releasing the handle of `previous`
   * when it changes. Throws `conflict` when another user holds the handle; `changed` when the profile
   * is no longer `previous` (the caller reads again).
   */
  save(
    profile: Omit<StoredProfile, 'hidden'>,
    previous: StoredProfile | undefined,
  ): Promise<'saved' | 'changed'>;
  /** Removes the profile `previous` and releases its handle; `changed` when it is no longer `previous`. */
  remove(previous: StoredProfile): Promise<'removed' | 'changed'>;
  counts(userId: string): Promise<{ followers: number; following: number }>;
  isFollowing(followerId: string, creatorId: string): Promise<boolean>;
  /**
   * One transaction: the follow, both counters, and the checks that the creator's profile is public
   * and not hidden and that the follower follows fewer than `max`.
   */
  follow(followerId: string, creatorId: string, at: string, max: number): Promise<'followed' | FollowRefusal>;
  /** Removes the follow and moves both counters back; false when there was none. */
  unfollow(followerId: string, creatorId: string): Promise<boolean>;
  /**
   * Removes a follow made at or before `before` and its follower's count of it, leaving the creator's own
   * count to {@link CreatorStore.resetFollowers}: the removals of a creator going private run side by
   * side, and one item written by all of them would make them wait on each other. False when there
   * is no such follow (gone, or made since).
   */
  dropFollow(followerId: string, creatorId: string, before: string): Promise<boolean>;
  /** Sets the follower count of a creator who is not public to zero; false once they are public again. */
  resetFollowers(creatorId: string): Promise<boolean>;
  /** The creators `followerId` follows (at most {@link FOLLOWING_MAX}). */
  followed(followerId: string): Promise<string[]>;
  /**
   * Up to `limit` followers of `creatorId`, from where the last page ended (`after`, its `next`);
   * `next` is absent on the last page.
   */
  followers(creatorId: string, limit: number, after?: string): Promise<{ ids: string[]; next?: string }>;
  /** Removes what is left of the user's own records: their counts, and a profile item kept for its hide. */
  removeRecords(userId: string): Promise<void>;
}

/** Where a page of newest-first tracks starts: after this track's time and id. */
export interface TrackPosition {
  at: number;
  id: string;
}

/** A creator's listed tracks, newest first (the `ranking` index's `CREATOR#` partitions). */
export interface CreatorTracks {
  /** Up to `count` listed tracks of `userId` strictly after `after` in (time, id) descending order. */
  newest(userId: string, count: number, after: TrackPosition | undefined): Promise<Generation[]>;
}

export interface CreatorDeps {
  creators: CreatorStore;
  tracks: CreatorTracks;
  names: CreatorNames;
  playlists: PublicPlaylists;
  clock: Clock;
  /** Turns a listed track into what the viewer gets (its playable audio links). */
  playable: (track: Track) => Promise<Track>;
  /** The link preview documents of `/@handle`; absent where the site bucket is not given. */
  share?: CreatorShareDeps;
  /** Told when a preview could not be written after a change that stands (the next save mends it). */
  onShareFailure?: (error: unknown) => void;
  /**
   * Brings in line the user's other link previews that name them (their public playlists'), once
   * their public name changes: made, renamed, gone private. Absent where no preview is written.
   */
  ownerPreviews?: (userId: string) => Promise<void>;
}

export const CREATOR_TRACKS_PAGE = 20;
/** How many followers of a creator going private are read from the index at a time. */
const FOLLOWERS_BATCH = 100;
/** How many follows of a creator going private are removed at once. */
const FOLLOW_DROPS_AT_ONCE = 10;
/** How many creators' partitions the feed reads at once. */
const FEED_PARALLEL = 25;

export const toPublicProfile = (p: Omit<StoredProfile, 'hidden'>): PublicProfile => ({
  handle: p.handle,
  displayName: p.displayName,
  bio: p.bio,
  createdAt: p.createdAt,
});

const isPublic = (p: StoredProfile | undefined): p is StoredProfile => !!p && !p.hidden;

/** The user's own public profile; not found while they are private. */
export async function ownProfile(
  deps: Pick<CreatorDeps, 'creators'>,
  userId: string,
): Promise<PublicProfile> {
  const profile = await deps.creators.profile(userId);
  if (!profile) throw notFound(creatorMessages.noPublicProfile);
  return toPublicProfile(profile);
}

/** Creates or changes the user's public profile, claiming its handle (unique whatever its case). */
export async function setPublicProfile(
  deps: Pick<CreatorDeps, 'creators' | 'clock' | 'share' | 'onShareFailure' | 'ownerPreviews'>,
  userId: string,
  input: PublicProfileInput,
): Promise<PublicProfile> {
  if (isReservedHandle(input.handle))
    throw new DomainError('validation', creatorMessages.handleReserved, { field: 'handle' });
  for (let attempt = 0; attempt < 5; attempt++) {
    const previous = await deps.creators.profile(userId);
    // Going public starts from no follows: any left by a going private cut short go first.
    if (!previous) await removeFollowers(deps, userId);
    const now = deps.clock.now().toISOString();
    const profile = {
      userId,
      handle: input.handle,
      displayName: input.displayName,
      bio: input.bio ? input.bio : null,
      createdAt: previous?.createdAt ?? now,
      updatedAt: now,
    };
    // A handle given up loses its preview before the change: a failure fails the change.
    if (previous && previous.handle.toLowerCase() !== profile.handle.toLowerCase())
      await deps.share?.pages.remove(previous.handle);
    if ((await deps.creators.save(profile, previous)) === 'saved') {
      // Read back: a hide kept from before going private (or set meanwhile) keeps the page unpreviewed.
      const share = deps.share;
      if (share)
        await deps.creators
          .profile(userId)
          .then((saved) => (saved && !saved.hidden ? publishCreatorPage(share, saved) : undefined))
          .catch((error: unknown) => deps.onShareFailure?.(error));
      await refreshOwnerPreviews(deps, userId);
      return toPublicProfile(profile);
    }
  }
  throw conflict('Your profile changed while saving. Try again.');
}

/**
 * Goes private: the profile and its handle go at once (its page answers not found), then every
 * follow of it with its follower's count ({@link removeFollowers}), so no follower keeps a link to
 * who they were.
 */
export async function goPrivate(
  deps: Pick<CreatorDeps, 'creators' | 'clock' | 'share' | 'onShareFailure' | 'ownerPreviews'>,
  userId: string,
): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    const previous = await deps.creators.profile(userId);
    if (!previous) break;
    // Its preview goes first: a failure fails the change, so no preview outlives the page.
    await deps.share?.pages.remove(previous.handle);
    if ((await deps.creators.remove(previous)) === 'removed') break;
    if (attempt >= 4) throw conflict('Your profile changed while saving. Try again.');
  }
  // Their playlists' previews stop naming them.
  await refreshOwnerPreviews(deps, userId);
  await removeFollowers(deps, userId);
}

/** The user's other previews brought in line; a failure is told, not thrown: the change stands. */
async function refreshOwnerPreviews(
  deps: Pick<CreatorDeps, 'onShareFailure' | 'ownerPreviews'>,
  userId: string,
): Promise<void> {
  await deps.ownerPreviews?.(userId).catch((error: unknown) => deps.onShareFailure?.(error));
}

/**
 * Removes the follows of a creator who is not public made until now (none can be added while
 * they are not: a follow needs a public profile), ten at a time, each with its follower's count, then
 * sets the creator's count to zero unless they are public again (another tab): a run still going then
 * leaves the new profile's follows and count alone. A run cut short (a timeout) is finished by the
 * next, going private again or going public, which starts here; so a public creator's count is exact.
 */
async function removeFollowers(
  deps: Pick<CreatorDeps, 'creators' | 'clock'>,
  creatorId: string,
): Promise<void> {
  const before = deps.clock.now().toISOString();
  // One walk through the index (read again from its start, it could still show follows just removed).
  let after: string | undefined;
  do {
    const page = await deps.creators.followers(creatorId, FOLLOWERS_BATCH, after);
    await inBatches(page.ids, FOLLOW_DROPS_AT_ONCE, (followerId) =>
      deps.creators.dropFollow(followerId, creatorId, before),
    );
    after = page.next;
  } while (after);
  await deps.creators.resetFollowers(creatorId);
}

/**
 * Everything of the user's part in following, for account deletion: their profile and handle, the
 * follows of them and their follows of others, each moving the other side's counter.
 */
export async function removeCreatorData(
  deps: Pick<CreatorDeps, 'creators' | 'clock' | 'share' | 'onShareFailure' | 'ownerPreviews'>,
  userId: string,
): Promise<void> {
  await goPrivate(deps, userId);
  for (const creatorId of await deps.creators.followed(userId))
    await deps.creators.unfollow(userId, creatorId);
  await deps.creators.removeRecords(userId);
}

/** The public, not hidden creator holding `handle`, or not found. */
async function findCreator(deps: Pick<CreatorDeps, 'creators'>, handle: string): Promise<StoredProfile> {
  // A path that cannot be a handle is looked up nowhere.
  const userId = HANDLE_PATTERN.test(handle) ? await deps.creators.holderOf(handle) : undefined;
  const profile = userId ? await deps.creators.profile(userId) : undefined;
  if (!isPublic(profile)) throw notFound(creatorMessages.creatorNotFound);
  return profile;
}

/** Cursors of newest-first pages: the last track's time and id. */
export function encodePosition(position: TrackPosition): string {
  return Buffer.from(JSON.stringify([position.at, position.id])).toString('base64url');
}

export function decodePosition(cursor: string | undefined): TrackPosition | undefined {
  if (!cursor) return undefined;
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(value) && Number.isFinite(value[0]) && typeof value[1] === 'string' && value[1])
      return { at: value[0], id: value[1] };
  } catch {
    // Refused below.
  }
  throw validationError(creatorMessages.cursorInvalid);
}

export const positionOf = (g: Pick<Generation, 'createdAt' | 'id'>): TrackPosition => ({
  at: Date.parse(g.createdAt),
  id: g.id,
});

/** Newest first; tracks of one millisecond by id, descending (the order pages follow). */
export const newestFirst = (a: TrackPosition, b: TrackPosition): number =>
  b.at - a.at || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);

/** A page of `limit` from `candidates` (already after the cursor), with the cursor of the next one. */
function pageOf(candidates: Generation[], limit: number): { items: Generation[]; nextCursor: string | null } {
  const sorted = candidates
    .filter(isGalleryVisible)
    .sort((a, b) => newestFirst(positionOf(a), positionOf(b)));
  const items = sorted.slice(0, limit);
  const last = items.at(-1);
  return { items, nextCursor: sorted.length > limit && last ? encodePosition(positionOf(last)) : null };
}

/** What others see of a listed track: its creator named, no parent (it may be private). */
async function shown(deps: Pick<CreatorDeps, 'playable'>, g: Generation, creator: CreatorRef | null) {
  return deps.playable({ ...toTrack(g), parentId: null, creator });
}

/** `GET /api/creators/{handle}`: the profile, counts, a page of tracks and their public playlists. */
export async function creatorPage(
  deps: CreatorDeps,
  handle: string,
  viewerId: string | undefined,
  options: { cursor?: string; limit?: number } = {},
): Promise<Creator> {
  const after = decodePosition(options.cursor);
  const limit = options.limit ?? CREATOR_TRACKS_PAGE;
  const profile = await findCreator(deps, handle);
  const creator = { handle: profile.handle, displayName: profile.displayName };
  const [counts, followedByMe, newest, playlists] = await Promise.all([
    deps.creators.counts(profile.userId),
    // Not for the creator themselves: their page offers no Follow, and that is how it knows.
    viewerId && viewerId !== profile.userId ? deps.creators.isFollowing(viewerId, profile.userId) : undefined,
    deps.tracks.newest(profile.userId, limit + 1, after),
    deps.playlists.ofOwner(profile.userId, creator),
  ]);
  const page = pageOf(newest, limit);
  return {
    ...toPublicProfile(profile),
    ...counts,
    ...(followedByMe === undefined ? {} : { followedByMe }),
    tracks: await Promise.all(page.items.map((g) => shown(deps, g, creator))),
    nextCursor: page.nextCursor,
    playlists,
  };
}

/** `PUT /api/creators/{handle}/follow`: idempotent. */
export async function follow(
  deps: Pick<CreatorDeps, 'creators' | 'clock'>,
  followerId: string,
  handle: string,
): Promise<FollowState> {
  const creator = await findCreator(deps, handle);
  if (creator.userId === followerId) throw validationError(creatorMessages.cannotFollowSelf);
  const outcome = await deps.creators.follow(
    followerId,
    creator.userId,
    deps.clock.now().toISOString(),
    FOLLOWING_MAX,
  );
  if (outcome === 'creator-gone') throw notFound(creatorMessages.creatorNotFound);
  if (outcome === 'limit') throw conflict(creatorMessages.followingLimit);
  return { following: true, followers: (await deps.creators.counts(creator.userId)).followers };
}

/**
 * `DELETE /api/creators/{handle}/follow`: idempotent; a creator hidden since can still be unfollowed
 * (their page is gone, the follow need not stay).
 */
export async function unfollow(
  deps: Pick<CreatorDeps, 'creators'>,
  followerId: string,
  handle: string,
): Promise<FollowState> {
  const creatorId = HANDLE_PATTERN.test(handle) ? await deps.creators.holderOf(handle) : undefined;
  if (!creatorId || !(await deps.creators.profile(creatorId)))
    throw notFound(creatorMessages.creatorNotFound);
  await deps.creators.unfollow(followerId, creatorId);
  return { following: false, followers: (await deps.creators.counts(creatorId)).followers };
}

/** Runs `work` over `items`, at most `parallel` at a time, answers in order. */
async function inBatches<T, R>(items: readonly T[], parallel: number, work: (item: T) => Promise<R>) {
  const out: R[] = [];
  for (let i = 0; i < items.length; i += parallel)
    out.push(...(await Promise.all(items.slice(i, i + parallel).map(work))));
  return out;
}

/**
 * `GET /api/feed`: the newest listed tracks of the creators the user follows (fan-out on read,
 * decision 059). Each followed creator who is public gives at most `limit + 1` tracks after the
 * cursor from their own partition; the merge keeps the newest `limit`. The cursor is the last
 * track's (time, id), so pages neither repeat nor skip a track, whoever posts meanwhile.
 */
export async function feed(
  deps: CreatorDeps,
  userId: string,
  options: { cursor?: string; limit?: number } = {},
): Promise<TrackPage> {
  const after = decodePosition(options.cursor);
  const limit = options.limit ?? CREATOR_TRACKS_PAGE;
  const followed = await deps.creators.followed(userId);
  const names = await deps.names.names(followed);
  const visible = followed.filter((id) => names.has(id));
  const candidates = (
    await inBatches(visible, FEED_PARALLEL, (id) => deps.tracks.newest(id, limit + 1, after))
  ).flat();
  const page = pageOf(candidates, limit);
  return {
    tracks: await Promise.all(page.items.map((g) => shown(deps, g, names.get(g.userId) ?? null))),
    nextCursor: page.nextCursor,
  };
}

import type { CreatorRef } from '@tunesmith/shared/tracks';
import type { CreatorStore, CreatorTracks, StoredProfile } from '../domain/community/creators';
import { newestFirst, positionOf } from '../domain/community/creators';
import type { CreatorNames } from '../domain/community/ports';
import { conflict } from '../domain/errors';
import { type Generation, isGalleryVisible } from '../domain/tracks/track';

/** Profiles, handles and follows in memory, with the table's rules (one holder per handle, exact counts). */
export function inMemoryCreators() {
  const profiles = new Map<string, StoredProfile>();
  /** A hide kept on a user who went private (the table keeps it on the profile item). */
  const hiddenUsers = new Set<string>();
  const handles = new Map<string, string>();
  /** Each follow, with when it was made. */
  const follows = new Map<string, string>();
  const counts = new Map<string, { followers: number; following: number }>();
  const key = (followerId: string, creatorId: string) => `${followerId}>${creatorId}`;
  const countOf = (userId: string) => counts.get(userId) ?? { followers: 0, following: 0 };
  const move = (userId: string, name: 'followers' | 'following', by: number) => {
    counts.set(userId, { ...countOf(userId), [name]: countOf(userId)[name] + by });
  };

  const store: CreatorStore = {
    profile: async (userId) => profiles.get(userId),
    holderOf: async (handle) => handles.get(handle.toLowerCase()),
    async save(profile, previous) {
      const current = profiles.get(profile.userId);
      if (current?.handle.toLowerCase() !== previous?.handle.toLowerCase()) return 'changed';
      const holder = handles.get(profile.handle.toLowerCase());
      if (holder && holder !== profile.userId) throw conflict('That handle is taken. Choose another.');
      if (previous) handles.delete(previous.handle.toLowerCase());
      handles.set(profile.handle.toLowerCase(), profile.userId);
      profiles.set(profile.userId, {
        ...profile,
        hidden: hiddenUsers.has(profile.userId) || !!current?.hidden,
      });
      return 'saved';
    },
    async remove(previous) {
      const current = profiles.get(previous.userId);
      if (current?.handle.toLowerCase() !== previous.handle.toLowerCase()) return 'changed';
      if (current.hidden) hiddenUsers.add(previous.userId);
      profiles.delete(previous.userId);
      handles.delete(previous.handle.toLowerCase());
      return 'removed';
    },
    counts: async (userId) => countOf(userId),
    isFollowing: async (followerId, creatorId) => follows.has(key(followerId, creatorId)),
    async follow(followerId, creatorId, at, max) {
      if (follows.has(key(followerId, creatorId))) return 'already';
      const creator = profiles.get(creatorId);
      if (!creator || creator.hidden) return 'creator-gone';
      if (countOf(followerId).following >= max) return 'limit';
      follows.set(key(followerId, creatorId), at);
      move(followerId, 'following', 1);
      move(creatorId, 'followers', 1);
      return 'followed';
    },
    async unfollow(followerId, creatorId) {
      if (!follows.delete(key(followerId, creatorId))) return false;
      move(followerId, 'following', -1);
      move(creatorId, 'followers', -1);
      return true;
    },
    async dropFollow(followerId, creatorId, before) {
      const made = follows.get(key(followerId, creatorId));
      if (made === undefined || made > before) return false;
      follows.delete(key(followerId, creatorId));
      move(followerId, 'following', -1);
      return true;
    },
    async resetFollowers(creatorId) {
      if (profiles.has(creatorId)) return false;
      if (counts.has(creatorId)) counts.set(creatorId, { ...countOf(creatorId), followers: 0 });
      return true;
    },
    followed: async (followerId) =>
      [...follows.keys()].filter((k) => k.startsWith(`${followerId}>`)).map((k) => k.split('>')[1] as string),
    async followers(creatorId, limit, after) {
      const all = [...follows.keys()]
        .filter((k) => k.endsWith(`>${creatorId}`))
        .map((k) => k.split('>')[0] as string)
        .sort();
      const from = after === undefined ? 0 : all.findIndex((id) => id > after);
      const ids = from < 0 ? [] : all.slice(from, from + limit);
      const last = ids.at(-1);
      return last !== undefined && all.indexOf(last) < all.length - 1 ? { ids, next: last } : { ids };
    },
    async removeRecords(userId) {
      counts.delete(userId);
      profiles.delete(userId);
      hiddenUsers.delete(userId);
    },
  };

  /** What an administrator's hide does (decision 061). */
  const hide = (userId: string) => {
    const profile = profiles.get(userId);
    if (profile) profiles.set(userId, { ...profile, hidden: true });
  };

  const names: CreatorNames = {
    async names(userIds) {
      const found = new Map<string, CreatorRef>();
      for (const id of userIds) {
        const p = profiles.get(id);
        if (p && !p.hidden) found.set(id, { handle: p.handle, displayName: p.displayName });
      }
      return found;
    },
  };

  return { store, names, hide, profiles, handles, follows, counts };
}

/** The `ranking` index's creator partitions over a list of generations: listed tracks only. */
export function inMemoryCreatorTracks(all: () => Iterable<Generation>): CreatorTracks {
  return {
    async newest(userId, count, after) {
      return [...all()]
        .filter((g) => g.userId === userId && isGalleryVisible(g))
        .filter((g) => !after || newestFirst(positionOf(g), after) > 0)
        .sort((a, b) => newestFirst(positionOf(a), positionOf(b)))
        .slice(0, count);
    },
  };
}

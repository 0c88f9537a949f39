import type { GallerySort } from '@tunesmith/shared/community';
import {
  type GalleryIndex,
  type LikeStore,
  type Listener,
  type PlayStore,
  type TrackReader,
  weeksCounting,
} from '../domain/community/likes';
import { validationError } from '../domain/errors';
import { CURSOR_INVALID, type Generation, isGalleryVisible } from '../domain/tracks/track';

/**
 * Likes, plays and the gallery's indexes in memory, over a map of generations, keeping the counters
 * on the generations the way the table's `ADD`s do (decision 057). Rank entries stay behind when a
 * track stops being listed, as they do in the table.
 */
export function inMemoryCommunity(initial: Generation[] = []) {
  const generations = new Map(initial.map((g) => [g.id, g]));
  const likes = new Map<string, { userId: string; trackId: string; likedAt: string }>();
  const plays = new Map<string, { trackId: string; listener: string; userId?: string }>();
  const ranks = new Map<string, Map<string, number>>();
  const likeKey = (userId: string, trackId: string) => `${userId}|${trackId}`;

  const move = (id: string, counter: 'likes' | 'plays', by: number) => {
    const g = generations.get(id);
    if (g) generations.set(id, { ...g, [counter]: (g[counter] ?? 0) + by });
  };
  const rank = (partition: string, trackId: string, by: number) => {
    const scores = ranks.get(partition) ?? new Map<string, number>();
    scores.set(trackId, (scores.get(trackId) ?? 0) + by);
    ranks.set(partition, scores);
  };

  const tracks: TrackReader = {
    async get(id) {
      return generations.get(id);
    },
    async getMany(ids) {
      return new Map(
        ids.flatMap((id) => (generations.has(id) ? [[id, generations.get(id) as Generation]] : [])),
      );
    },
  };

  const likeStore: LikeStore = {
    async like(userId, trackId, at) {
      if (likes.has(likeKey(userId, trackId))) return false;
      likes.set(likeKey(userId, trackId), { userId, trackId, likedAt: at });
      move(trackId, 'likes', 1);
      for (const day of weeksCounting(at.slice(0, 10))) rank(`week#${day}`, trackId, 1);
      return true;
    },
    async unlike(userId, trackId) {
      const like = likes.get(likeKey(userId, trackId));
      if (!like) return false;
      likes.delete(likeKey(userId, trackId));
      move(trackId, 'likes', -1);
      for (const day of weeksCounting(like.likedAt.slice(0, 10))) rank(`week#${day}`, trackId, -1);
      return true;
    },
    async likedAmong(userId, trackIds) {
      return new Set(trackIds.filter((id) => likes.has(likeKey(userId, id))));
    },
    async listByUser(userId, { limit, cursor }) {
      const mine = [...likes.values()]
        .filter((l) => l.userId === userId)
        .sort((a, b) => `${b.likedAt}#${b.trackId}`.localeCompare(`${a.likedAt}#${a.trackId}`));
      const start = cursor === undefined ? 0 : Number(cursor);
      if (!Number.isInteger(start) || start < 0) throw validationError(CURSOR_INVALID);
      const items = mine.slice(start, start + limit).map(({ trackId, likedAt }) => ({ trackId, likedAt }));
      return { items, ...(mine.length > start + limit ? { cursor: String(start + limit) } : {}) };
    },
    async removeAllOf(userId) {
      for (const like of [...likes.values()].filter((l) => l.userId === userId)) {
        await likeStore.unlike(userId, like.trackId);
      }
    },
  };

  const playStore: PlayStore = {
    async record(trackId, listener: Listener, day) {
      const who = listener.kind === 'user' ? `u#${listener.userId}` : `v#${listener.id}`;
      const key = `${trackId}|${day}|${who}`;
      if (plays.has(key)) return false;
      plays.set(key, {
        trackId,
        listener: who,
        ...(listener.kind === 'user' ? { userId: listener.userId } : {}),
      });
      move(trackId, 'plays', 1);
      rank('plays', trackId, 1);
      return true;
    },
    async removeAllOf(userId) {
      for (const [key, play] of [...plays]) {
        if (play.userId !== userId) continue;
        plays.delete(key);
        move(play.trackId, 'plays', -1);
        rank('plays', play.trackId, -1);
      }
    },
  };

  const index: GalleryIndex = {
    async read(sort: GallerySort, { day, limit, cursor }) {
      const ordered: { id: string }[] =
        sort === 'new'
          ? [...generations.values()]
              .filter(isGalleryVisible)
              .sort((a, b) => `${b.createdAt}#${b.id}`.localeCompare(`${a.createdAt}#${a.id}`))
          : [...(ranks.get(sort === 'most-played' ? 'plays' : `week#${day}`) ?? new Map<string, number>())]
              .filter(([, score]) => score > 0)
              .sort((a, b) => b[1] - a[1] || b[0].localeCompare(a[0]))
              .map(([id]) => ({ id }));
      const prefix = `${sort}:`;
      if (cursor !== undefined && !cursor.startsWith(prefix)) throw validationError(CURSOR_INVALID);
      const start = cursor === undefined ? 0 : Number(cursor.slice(prefix.length));
      const slice = ordered.slice(start, start + limit);
      return {
        entries: slice.map((entry, i) => {
          const generation = generations.get(entry.id);
          return { ...(generation ? { generation } : {}), cursor: `${prefix}${start + i + 1}` };
        }),
        done: start + limit >= ordered.length,
      };
    },
  };

  return { generations, likes: likeStore, plays: playStore, tracks, index, rawLikes: likes, rawPlays: plays };
}

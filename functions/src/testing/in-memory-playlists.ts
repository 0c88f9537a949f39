import type { PlaylistStore, PlaylistTracks, StoredPlaylist } from '../domain/community/playlists';
import type { Generation } from '../domain/tracks/track';

/** Playlists in memory, with the same owner checks and cap as the table's. */
export function inMemoryPlaylists(): PlaylistStore & { all: Map<string, StoredPlaylist> } {
  const all = new Map<string, StoredPlaylist>();
  const owned = (userId: string) => [...all.values()].filter((p) => p.userId === userId);
  const listByOwner = async (userId: string) =>
    owned(userId)
      .sort((a, b) => `${b.createdAt}#${b.id}`.localeCompare(`${a.createdAt}#${a.id}`))
      .map((p) => structuredClone(p));
  return {
    all,
    async create(playlist, max) {
      if (owned(playlist.userId).length >= max) return false;
      all.set(playlist.id, structuredClone(playlist));
      return true;
    },
    async get(id) {
      const found = all.get(id);
      return found ? structuredClone(found) : undefined;
    },
    async headsByOwner(userId, only) {
      return (await listByOwner(userId))
        .filter((p) => only === undefined || p.visibility === only)
        .map(({ trackIds: _, ...head }) => head);
    },
    async update(id, userId, change) {
      const found = all.get(id);
      if (!found || found.userId !== userId) return undefined;
      const defined = Object.fromEntries(Object.entries(change).filter(([, v]) => v !== undefined));
      const next = { ...found, ...defined };
      all.set(id, next);
      return structuredClone(next);
    },
    async delete(id, userId) {
      const found = all.get(id);
      if (!found || found.userId !== userId) return false;
      all.delete(id);
      return true;
    },
    async removeAll(userId) {
      for (const p of owned(userId)) all.delete(p.id);
    },
  };
}

/** Tracks by id from a map of generations. */
export const playlistTracksOf = (generations: { all: Map<string, Generation> }): PlaylistTracks => ({
  async many(ids) {
    return new Map(
      ids.flatMap((id) => {
        const g = generations.all.get(id);
        return g ? [[id, structuredClone(g)] as const] : [];
      }),
    );
  },
});

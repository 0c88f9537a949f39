/**
 * The community's entities in the single table (decision 056), apart from `keys.ts` so the route
 * groups that have none of them do not carry their builders. Counters move with `ADD`; the
 * `ranking` index sorts by a number (`rankScore`), so a moved counter keeps its item in place.
 *
 * | entity            | pk                  | sk                   | index (pk / sk)                          |
 * |-------------------|---------------------|----------------------|------------------------------------------|
 * | playlist          | PLAYLIST#id         | PLAYLIST             | gsi1: USER#userId / PLAYLIST#createdAt#id |
 * | playlist count    | USER#userId         | PLAYLISTCOUNT        |                                          |
 * (each section below lists its own rows)
 */

// ---- Likes and plays ---------------------------------------------------------------------------

export const likeKeys = {};

// ---- Playlists ---------------------------------------------------------------------------------

// A playlist keeps its tracks' ids in order on its own item (at most 500 ids, well inside 400 KB).
export const playlistKeys = {
  playlist: (id: string) => ({ pk: `PLAYLIST#${id}`, sk: 'PLAYLIST' }),
  /** In its owner's gsi1 partition, newest last. */
  byOwner: (userId: string, createdAt: string, id: string) => ({
    gsi1pk: `USER#${userId}`,
    gsi1sk: `PLAYLIST#${createdAt}#${id}`,
  }),
  ownerPartition: (userId: string) => `USER#${userId}`,
  ownerPrefix: 'PLAYLIST#',
  /** How many playlists the user keeps, moved with `ADD` in the transactions that make and delete them. */
  count: (userId: string) => ({ pk: `USER#${userId}`, sk: 'PLAYLISTCOUNT' }),
};

// ---- Public profiles, following and the feed ---------------------------------------------------

export const creatorKeys = {};

// ---- Remixes -----------------------------------------------------------------------------------

export const remixKeys = {};

// ---- Reports -----------------------------------------------------------------------------------

export const reportKeys = {};

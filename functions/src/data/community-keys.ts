/**
 * The community's entities in the single table (decision 056), apart from `keys.ts` so the route
 * groups that have none of them do not carry their builders. Counters move with `ADD`; the
 * `ranking` index sorts by a number (`rankScore`), so a moved counter keeps its item in place.
 *
 * | entity            | pk                  | sk                   | index (pk / sk)                          |
 * |-------------------|---------------------|----------------------|------------------------------------------|
 * (each section below lists its own rows)
 */

// ---- Likes and plays ---------------------------------------------------------------------------

export const likeKeys = {};

// ---- Playlists ---------------------------------------------------------------------------------

export const playlistKeys = {};

// ---- Public profiles, following and the feed ---------------------------------------------------

export const creatorKeys = {};

// ---- Remixes -----------------------------------------------------------------------------------

// | remix of a track | REMIXES#sourceId | createdAt#remixId | (none)                                  |
// An entry names the remix only, never its owner (decision 060): a deleted remix leaves an entry that
// points at nothing, skipped and removed when the list is read.
export const remixKeys = {
  partition: (sourceId: string) => `REMIXES#${sourceId}`,
  entry: (sourceId: string, createdAt: string, remixId: string) => ({
    pk: `REMIXES#${sourceId}`,
    sk: `${createdAt}#${remixId}`,
  }),
};

// ---- Reports -----------------------------------------------------------------------------------

export const reportKeys = {};

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

export const remixKeys = {};

// ---- Reports -----------------------------------------------------------------------------------

export const reportKeys = {};

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
//
// | like              | LIKE#userId         | TRACK#trackId        | gsi1: LIKES#userId / likedAt#trackId     |
// | play (per day)    | PLAY#trackId#day    | u#userId or v#id     | gsi1 (users only): PLAYS#userId / day#trackId; visitors' expire |
// | rank: plays       | TRACKRANK#trackId   | PLAYS                | ranking: RANK#most-played / plays        |
// | rank: a week      | TRACKRANK#trackId   | WEEK#lastDay         | ranking: RANK#top-week#lastDay / likes in the 7 days to lastDay; expires |
//
// A like on day D moves the week items ending D…D+6, so `top-week` on day T is one partition read,
// sorted by the likes of the 7 days ending T (decision 057).

export const likeKeys = {
  like: (userId: string, trackId: string) => ({ pk: `LIKE#${userId}`, sk: `TRACK#${trackId}` }),
  likePartition: (userId: string) => `LIKE#${userId}`,
  likedByUser: (userId: string, likedAt: string, trackId: string) => ({
    gsi1pk: `LIKES#${userId}`,
    gsi1sk: `${likedAt}#${trackId}`,
  }),
  likedByUserPartition: (userId: string) => `LIKES#${userId}`,
  play: (trackId: string, day: string, listener: string) => ({ pk: `PLAY#${trackId}#${day}`, sk: listener }),
  playedByUser: (userId: string, day: string, trackId: string) => ({
    gsi1pk: `PLAYS#${userId}`,
    gsi1sk: `${day}#${trackId}`,
  }),
  playedByUserPartition: (userId: string) => `PLAYS#${userId}`,
  playsRank: (trackId: string) => ({ pk: `TRACKRANK#${trackId}`, sk: 'PLAYS' }),
  mostPlayedPartition: 'RANK#most-played',
  weekRank: (trackId: string, lastDay: string) => ({ pk: `TRACKRANK#${trackId}`, sk: `WEEK#${lastDay}` }),
  topWeekPartition: (lastDay: string) => `RANK#top-week#${lastDay}`,
};

// ---- Playlists ---------------------------------------------------------------------------------

export const playlistKeys = {};

// ---- Public profiles, following and the feed ---------------------------------------------------

export const creatorKeys = {};

// ---- Remixes -----------------------------------------------------------------------------------

export const remixKeys = {};

// ---- Reports -----------------------------------------------------------------------------------

export const reportKeys = {};

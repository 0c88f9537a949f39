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

//
// | public profile    | USER#id             | PUBLIC_PROFILE       |                                          |
// | handle claim      | HANDLE#lowercased   | HANDLE               |                                          |
// | follow counts     | USER#id             | FOLLOW_COUNTS        |                                          |
// | follow            | USER#followerId     | FOLLOWS#creatorId    | gsi1: FOLLOWERS#creatorId / followerId   |

export const creatorKeys = {
  /** A user's public profile (decision 059); present with a handle only while they are public. */
  profile: (userId: string) => ({ pk: `USER#${userId}`, sk: 'PUBLIC_PROFILE' }),
  /** Who holds a handle, compared lowercased: written with the profile, so no two users share one. */
  handle: (handle: string) => ({ pk: `HANDLE#${handle.toLowerCase()}`, sk: 'HANDLE' }),
  /** Followers and following, moved with `ADD` by each follow and unfollow; absent is zero. */
  counts: (userId: string) => ({ pk: `USER#${userId}`, sk: 'FOLLOW_COUNTS' }),
  /** `followerId` follows `creatorId`, found from both sides. */
  follow: (followerId: string, creatorId: string) => ({
    pk: `USER#${followerId}`,
    sk: `FOLLOWS#${creatorId}`,
  }),
  followPrefix: 'FOLLOWS#',
  followersPartition: (creatorId: string) => `FOLLOWERS#${creatorId}`,
  /** The follow in its creator's partition of gsi1, for the creator's followers. */
  follower: (followerId: string, creatorId: string) => ({
    gsi1pk: `FOLLOWERS#${creatorId}`,
    gsi1sk: followerId,
  }),
};

// ---- Remixes -----------------------------------------------------------------------------------

export const remixKeys = {};

// ---- Reports -----------------------------------------------------------------------------------

export const reportKeys = {};

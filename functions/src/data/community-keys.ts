/**
 * The community's entities in the single table (decision 056), apart from `keys.ts` so the route
 * groups that have none of them do not carry their builders. Counters move with `ADD`; the
 * `ranking` index sorts by a number (`rankScore`), so a moved counter keeps its item in place.
 *
 * | entity            | pk                  | sk                   | index (pk / sk)                          |
 * |-------------------|---------------------|----------------------|------------------------------------------|
 * | playlist          | PLAYLIST#id         | PLAYLIST             | gsi1: USER#userId / PLAYLIST#createdAt#id |
 * | playlist's tracks | PLAYLIST#id         | TRACKS               |                                          |
 * | playlist count    | USER#userId         | PLAYLISTCOUNT        |                                          |
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

// A playlist is two items in one partition: the card (title, visibility, owner; listed in the
// owner's gsi1 partition) and its tracks' ids in order (at most 500, well inside 400 KB), apart so a
// list of cards reads a few hundred bytes per playlist whatever it holds (decision 062).
export const playlistKeys = {
  playlist: (id: string) => ({ pk: `PLAYLIST#${id}`, sk: 'PLAYLIST' }),
  tracks: (id: string) => ({ pk: `PLAYLIST#${id}`, sk: 'TRACKS' }),
  partition: (id: string) => `PLAYLIST#${id}`,
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

// | report            | REPORT#id           | REPORT               | gsi1 REPORTER#userId / createdAt#id; gsi2 REPORTS#open / createdAt#id, REPORTS#resolved / resolvedAt#id |
// | open report claim | REPORTED#kind#id    | REPORTER#userId      | gsi1 REPORTOWNER#ownerId / REPORT#id     |
// A claim exists while its report is open: one open report per reporter per subject, the subject's open
// reports in one partition, and the open reports about a user's content under their id.

export const reportKeys = {
  report: (id: string) => ({ pk: `REPORT#${id}`, sk: 'REPORT' }),
  byReporter: (reporterId: string, createdAt: string, id: string) => ({
    gsi1pk: `REPORTER#${reporterId}`,
    gsi1sk: `${createdAt}#${id}`,
  }),
  reporterPartition: (reporterId: string) => `REPORTER#${reporterId}`,
  open: (createdAt: string, id: string) => ({ gsi2pk: 'REPORTS#open', gsi2sk: `${createdAt}#${id}` }),
  resolved: (resolvedAt: string, id: string) => ({
    gsi2pk: 'REPORTS#resolved',
    gsi2sk: `${resolvedAt}#${id}`,
  }),
  openPartition: 'REPORTS#open',
  resolvedPartition: 'REPORTS#resolved',
  claim: (kind: 'track' | 'profile', subjectId: string, reporterId: string) => ({
    pk: `REPORTED#${kind}#${subjectId}`,
    sk: `REPORTER#${reporterId}`,
  }),
  claimPartition: (kind: 'track' | 'profile', subjectId: string) => `REPORTED#${kind}#${subjectId}`,
  claimOfOwner: (ownerId: string, reportId: string) => ({
    gsi1pk: `REPORTOWNER#${ownerId}`,
    gsi1sk: `REPORT#${reportId}`,
  }),
  ownerPartition: (ownerId: string) => `REPORTOWNER#${ownerId}`,
};

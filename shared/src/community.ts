/**
 * The community's calls' shapes (decision 056): likes and plays, the gallery's sorts, playlists,
 * public profiles and following, remixes and reports. Track objects carry `likes`, `plays`,
 * `likedByMe`, `remixable`, `creator` and `remixOf` (`tracks.ts`).
 */
import * as z from 'zod/mini';
import './schema-messages';
import { audioToMusicSchema } from './generations';
import { creatorRefSchema, trackSchema, visibilities } from './tracks';

// ---- Likes and plays -------------------------------------------------------------------------

/** `PUT`/`DELETE /api/track/{id}/like` */
export const likeStateSchema = z.object({ liked: z.boolean(), likes: z.number() });
export type LikeState = z.infer<typeof likeStateSchema>;

/** A play counts once it has lasted this long, or half the track when that is shorter. */
export const PLAY_COUNTS_AFTER_SECONDS = 30;
/** A visitor's anonymous listener id (random, kept by their browser). */
export const LISTENER_ID_PATTERN = /^[A-Za-z0-9_-]{16,64}$/;

/** `POST /api/track/{id}/play` */
export const recordPlaySchema = z.object({
  /** Seconds of the track actually played. */
  listenedSeconds: z.number().check(z.minimum(0), z.maximum(24 * 3600)),
  /** Visitors only: their anonymous id. Ignored for a signed-in user. */
  listenerId: z.optional(z.string().check(z.regex(LISTENER_ID_PATTERN, 'The listener id is not valid.'))),
});
export type RecordPlayRequest = z.infer<typeof recordPlaySchema>;
/** `counted`: whether this play was counted now (false: already counted today, the owner, too short, a bot). */
export const playRecordedSchema = z.object({ counted: z.boolean(), plays: z.number() });
export type PlayRecorded = z.infer<typeof playRecordedSchema>;

// ---- Finding music ---------------------------------------------------------------------------

export const gallerySorts = ['new', 'top-week', 'most-played'] as const;
export type GallerySort = (typeof gallerySorts)[number];
export const PAGE_LIMIT_MAX = 50;

/**
 * `GET /api/public-tracks?sort=&cursor=&limit=`. Without `sort` and `cursor` it answers the spec's
 * array (the newest public tracks); with either, a {@link trackPageSchema}.
 */
export const publicTracksQuerySchema = z.object({
  sort: z.optional(z.enum(gallerySorts)),
  cursor: z.optional(z.string().check(z.maxLength(2048, 'The cursor is not valid.'))),
  limit: z.optional(
    z.string().check(z.regex(/^([1-9]|[1-4][0-9]|50)$/, 'limit is a whole number from 1 to 50.')),
  ),
});

/** A page of tracks and the cursor of the next one (null on the last page). */
export const trackPageSchema = z.object({ tracks: z.array(trackSchema), nextCursor: z.nullable(z.string()) });
export type TrackPage = z.infer<typeof trackPageSchema>;

/** `?cursor=&limit=` of the other paged lists (liked tracks, the feed, a creator's tracks). */
export const pageQuerySchema = z.object({
  cursor: publicTracksQuerySchema.shape.cursor,
  limit: publicTracksQuerySchema.shape.limit,
});

// ---- Playlists -------------------------------------------------------------------------------

export const PLAYLIST_TITLE_MAX = 100;
export const PLAYLIST_DESCRIPTION_MAX = 1000;
/**
 * 1000 as "1,000", as en-US writes it, without Intl: a message made when the module loads would
 * otherwise load the locale's number formats into every cold start that reads this file.
 */
const withThousands = (n: number) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
export const PLAYLIST_TRACKS_MAX = 500;

/** `POST /api/playlists` */
export const createPlaylistSchema = z.object({
  title: z
    .string()
    .check(
      z.trim(),
      z.minLength(1, 'Give the playlist a title.'),
      z.maxLength(PLAYLIST_TITLE_MAX, `Keep the title to ${PLAYLIST_TITLE_MAX} characters.`),
    ),
  description: z.optional(
    z
      .string()
      .check(
        z.trim(),
        z.maxLength(
          PLAYLIST_DESCRIPTION_MAX,
          `Keep the description to ${withThousands(PLAYLIST_DESCRIPTION_MAX)} characters.`,
        ),
      ),
  ),
  visibility: z.enum(visibilities),
});
export type CreatePlaylistRequest = z.infer<typeof createPlaylistSchema>;
/** `PATCH /api/playlists/{id}`: any of the fields. */
export const updatePlaylistSchema = z.partial(createPlaylistSchema);
export type UpdatePlaylistRequest = z.infer<typeof updatePlaylistSchema>;
/** `PUT /api/playlists/{id}/tracks`: the whole list, in order. */
export const setPlaylistTracksSchema = z.object({
  trackIds: z
    .array(z.string().check(z.minLength(1), z.maxLength(100)))
    .check(z.maxLength(PLAYLIST_TRACKS_MAX)),
});
export type SetPlaylistTracksRequest = z.infer<typeof setPlaylistTracksSchema>;

/**
 * A playlist in lists (the owner's, a creator's page): what its own item says, none of its tracks
 * (decision 062: a list costs the same whatever the playlists hold).
 */
export const playlistCardSchema = z.object({
  id: z.string(),
  title: z.string(),
  description: z.nullable(z.string()),
  visibility: z.enum(visibilities),
  /** Its owner's public profile; null: anonymous. */
  owner: z.nullable(creatorRefSchema),
  /** Whether the viewer owns it. */
  ownedByMe: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type PlaylistCard = z.infer<typeof playlistCardSchema>;
/** A playlist opened: a card with the tracks the viewer may see counted. */
export const playlistSummarySchema = z.extend(playlistCardSchema, {
  /** Tracks the viewer may see. */
  trackCount: z.number(),
});
export type PlaylistSummary = z.infer<typeof playlistSummarySchema>;
/** `GET /api/playlists/{id}`: the tracks the viewer may see, in the playlist's order. */
export const playlistSchema = z.extend(playlistSummarySchema, { tracks: z.array(trackSchema) });
export type Playlist = z.infer<typeof playlistSchema>;

/** `GET /api/playlists`: the signed-in user's own, newest first. */
export const playlistListSchema = z.object({ playlists: z.array(playlistCardSchema) });
export type PlaylistList = z.infer<typeof playlistListSchema>;

/** Playlists one user may keep (decision 058). */
export const PLAYLISTS_MAX = 200;

/** What the playlist calls answer in words (decision 058). */
export const playlistMessages = {
  notFound: 'Playlist not found',
  tooMany: `You have ${PLAYLISTS_MAX} playlists, the most one can keep. Delete one to make another.`,
  /** Tracks the owner may not see (private to someone else, hidden, unfinished, deleted or unknown). */
  tracksNotAllowed: (ids: readonly string[]) =>
    `${ids.length === 1 ? 'This track cannot' : 'These tracks cannot'} be in the playlist: ${ids.join(', ')}.`,
  nothingToChange: 'Send a title, a description or a visibility to change.',
} as const;

// ---- Public profiles and following -----------------------------------------------------------

export const HANDLE_PATTERN = /^[A-Za-z0-9_-]{3,30}$/;
/** The longest handle {@link HANDLE_PATTERN} takes. */
export const HANDLE_MAX = 30;
export const DISPLAY_NAME_MAX = 50;
export const BIO_MAX = 300;

/** `PUT /api/user/public-profile` */
export const publicProfileInputSchema = z.object({
  handle: z.string().check(z.trim(), z.regex(HANDLE_PATTERN, 'A handle is 3 to 30 letters, digits, _ or -.')),
  displayName: z
    .string()
    .check(
      z.trim(),
      z.minLength(1, 'Enter a display name.'),
      z.maxLength(DISPLAY_NAME_MAX, `Keep the display name to ${DISPLAY_NAME_MAX} characters.`),
    ),
  bio: z.optional(z.string().check(z.trim(), z.maxLength(BIO_MAX, `Keep the bio to ${BIO_MAX} characters.`))),
});
export type PublicProfileInput = z.infer<typeof publicProfileInputSchema>;
export const publicProfileSchema = z.object({
  handle: z.string(),
  displayName: z.string(),
  bio: z.nullable(z.string()),
  createdAt: z.string(),
});
export type PublicProfile = z.infer<typeof publicProfileSchema>;

/** `GET /api/creators/{handle}` */
export const creatorSchema = z.extend(publicProfileSchema, {
  followers: z.number(),
  following: z.number(),
  /** For a signed-in viewer other than the creator (absent for the creator and for visitors). */
  followedByMe: z.optional(z.boolean()),
  /** Their public tracks, newest first (the first page; more through `nextCursor`). */
  tracks: z.array(trackSchema),
  nextCursor: z.nullable(z.string()),
  /** Their public playlists, newest first. */
  playlists: z.array(playlistCardSchema),
});
export type Creator = z.infer<typeof creatorSchema>;
/** `PUT`/`DELETE /api/creators/{handle}/follow` */
export const followStateSchema = z.object({ following: z.boolean(), followers: z.number() });
export type FollowState = z.infer<typeof followStateSchema>;

/**
 * Handles no one may take (compared lowercased): words that would pass for the site speaking, and
 * every top-level path of the SPA, so `/@handle` never reads as one of its pages (decision 059).
 */
export const RESERVED_HANDLES: readonly string[] = [
  'admin',
  'api',
  'app',
  'about',
  'settings',
  'help',
  'support',
  'tunesmith',
  'gallery',
  'library',
  'create',
  'pricing',
  'profile',
  'login',
  'logout',
  'register',
  'developers',
  'playlist',
  'playlists',
  'track',
  'tracks',
  'me',
  'null',
  'undefined',
  'root',
  'system',
  'moderator',
  'staff',
  'contact',
  'privacy',
  'terms',
  'auth',
  'check-email',
  'verify-email',
  'reset-password',
  'feed',
  'following',
  'creators',
  'creator',
  'assets',
  'share',
  'official',
  'everyone',
  'anonymous',
];
/** At most this many creators followed at once: the feed merges their newest tracks on every read. */
export const FOLLOWING_MAX = 200;
export const creatorMessages = {
  handleReserved: 'That handle is reserved. Choose another.',
  handleTaken: 'That handle is taken. Choose another.',
  noPublicProfile: 'You have no public profile.',
  creatorNotFound: 'There is no creator with that handle.',
  cannotFollowSelf: 'You cannot follow yourself.',
  followingLimit: `You can follow at most ${FOLLOWING_MAX} creators. Unfollow one to follow another.`,
  cursorInvalid: 'The cursor is not valid.',
} as const;
/** Whether `handle` is one no one may take. */
export const isReservedHandle = (handle: string): boolean =>
  RESERVED_HANDLES.includes(handle.trim().toLowerCase());

// ---- Remixes ---------------------------------------------------------------------------------

/** `PATCH /api/generation/{id}/remixable` */
export const setRemixableSchema = z.object({ remixable: z.boolean() });
/** `POST /api/generation/{id}/remix`: restyle's fields; the input audio is the source track's. */
export const remixSchema = z.omit(audioToMusicSchema, { inputAudioUrl: true });
export type RemixRequest = z.infer<typeof remixSchema>;
export type RemixInput = z.input<typeof remixSchema>;
/** `GET /api/track/{id}/remixes` */
export const remixListSchema = z.object({
  remixes: z.array(trackSchema),
  /** To the source's owner only: remixes they may not see (private ones). */
  privateCount: z.optional(z.number()),
});

// ---- Reports ---------------------------------------------------------------------------------

export const reportReasons = [
  'spam',
  'harassment',
  'hate',
  'sexual',
  'violence',
  'copyright',
  'impersonation',
  'other',
] as const;
export type ReportReason = (typeof reportReasons)[number];
export const REPORT_DETAILS_MAX = 1000;
/** `POST /api/track/{id}/report`, `POST /api/creators/{handle}/report` → 201 `{ reported: true }` */
export const reportSchema = z.object({
  reason: z.enum(reportReasons),
  details: z.optional(z.string().check(z.trim(), z.maxLength(REPORT_DETAILS_MAX))),
});
export type ReportRequest = z.infer<typeof reportSchema>;

/**
 * What an administrator does with a report: hide the subject, dismiss the report, suspend the
 * subject's owner (their profile is hidden with them, and so is the subject), or restore what a
 * hide or a suspension did (decision 061).
 */
export const reportActions = ['hide', 'dismiss', 'suspend', 'restore'] as const;
export type ReportAction = (typeof reportActions)[number];
/** `restored`: a hide or suspension undone; `closed`: the subject's account was deleted. */
export const reportStatuses = ['open', 'hidden', 'dismissed', 'suspended', 'restored', 'closed'] as const;
export type ReportStatus = (typeof reportStatuses)[number];
/** `POST /api/admin/reports/{reportId}` */
export const resolveReportSchema = z.object({ action: z.enum(reportActions) });
/** What the admin Reports page lists. */
export const adminReportSchema = z.object({
  id: z.string(),
  subject: z.object({
    kind: z.enum(['track', 'profile']),
    /** The track's id, or the profile's user id. */
    id: z.string(),
    /** The track's title or the profile's handle, as it was reported. */
    label: z.string(),
  }),
  /** Whose content it is. */
  ownerId: z.string(),
  reporterId: z.string(),
  reason: z.enum(reportReasons),
  details: z.nullable(z.string()),
  status: z.enum(reportStatuses),
  createdAt: z.string(),
  resolvedAt: z.nullable(z.string()),
  resolvedBy: z.nullable(z.string()),
});
export type AdminReport = z.infer<typeof adminReportSchema>;

/** `GET /api/admin/reports`: the open reports, oldest first, then the latest resolved ones, newest first. */
export const adminReportListSchema = z.object({ reports: z.array(adminReportSchema) });
export type AdminReportList = z.infer<typeof adminReportListSchema>;

/** What the remix calls answer when they refuse (decision 060). */
export const remixMessages = {
  cannotRemix: 'This track cannot be remixed.',
  ownTrack: 'This is your own track: make a variation of it in the studio instead.',
  privateNotRemixable: 'Only a public track can be remixed. Make it public first.',
} as const;

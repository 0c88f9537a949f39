import * as z from 'zod/mini';
import { loudnessSchema, trackLicenseSchema } from './ownership';
import './schema-messages';
import { editKinds, trackStatuses, visibilities } from './track-values';

// The plain values and helpers live apart from the schemas, so that a page
// which only needs them (a track card) does not load zod with them.
export * from './track-values';

/** How a track was made from its parent, as recorded at creation. */
export const trackEditSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('variation') }),
  z.object({ kind: z.literal('extend'), seconds: z.number(), at: z.enum(['start', 'end']) }),
  z.object({ kind: z.literal('repaint'), start: z.number(), end: z.number(), variance: z.number() }),
]);
export type TrackEdit = z.infer<typeof trackEditSchema>;

/**
 * A track's family on its page: where it came from and what was made from it,
 * each version with its state (its owner sees unfinished and failed ones).
 * Only tracks the viewer may see are named; a parent that no longer exists is
 * `deleted: true` (and has no title), and is named to the owner only.
 */
export const trackFamilySchema = z.object({
  parent: z.nullable(z.object({ id: z.string(), title: z.nullable(z.string()), deleted: z.boolean() })),
  children: z.array(
    z.object({
      id: z.string(),
      title: z.nullable(z.string()),
      kind: z.enum(editKinds),
      status: z.enum(trackStatuses),
    }),
  ),
});
export type TrackFamily = z.infer<typeof trackFamilySchema>;

/** Tempo and key measured from a track's samples: whole BPM, the key as the create call takes it, 0..1 sureness. */
export const trackAnalysisSchema = z.object({ bpm: z.number(), key: z.string(), confidence: z.number() });
export type TrackAnalysis = z.infer<typeof trackAnalysisSchema>;

/** A creator with a public profile, as tracks and playlists name them (decision 056). */
export const creatorRefSchema = z.object({ handle: z.string(), displayName: z.string() });
export type CreatorRef = z.infer<typeof creatorRefSchema>;

/**
 * Where a remix came from (decision 056). While the source is public (and not hidden) it is named:
 * `trackId`, `title`, and its creator (null: "anonymous"). Once it is deleted, made private or hidden,
 * `available` is false and nothing of it is named ("a track that is no longer public").
 */
export const remixCreditSchema = z.object({
  available: z.boolean(),
  trackId: z.nullable(z.string()),
  title: z.nullable(z.string()),
  creator: z.nullable(creatorRefSchema),
});
export type RemixCredit = z.infer<typeof remixCreditSchema>;

/** A track as the API returns it (track card, track page, gallery). */
export const trackSchema = z.object({
  id: z.string(),
  title: z.nullable(z.string()),
  tags: z.string(),
  lyrics: z.nullable(z.string()),
  duration: z.nullable(z.number()),
  status: z.enum(trackStatuses),
  type: z.string(),
  visibility: z.enum(visibilities),
  showInGallery: z.boolean(),
  audioUrl: z.nullable(z.string()),
  createdAt: z.string(),
  /** Made without vocals (lyrics `[instrumental]` to the provider). */
  instrumental: z._default(z.boolean(), false),
  /**
   * The track this one was made from (variation, extend, repaint), if any; it
   * may since be deleted. Only its owner, or anyone who may see the parent, is told.
   */
  parentId: z._default(z.nullable(z.string()), null),
  /** How it was made from `parentId`. */
  edit: z._default(z.nullable(trackEditSchema), null),
  /**
   * A short-lived link to the waveform's peaks (audiowaveform JSON, version 2,
   * 8-bit), beside the audio; null until the track is completed and its peaks made.
   */
  peaksUrl: z._default(z.nullable(z.string()), null),
  /** Integrated loudness, true peak and the stream's gain; null until completed, or for tracks from before it. */
  loudness: z._default(z.nullable(loudnessSchema), null),
  /** What the owner may do with it: the plan's license when it was made; null for tracks from before it. */
  license: z._default(z.nullable(trackLicenseSchema), null),
  /**
   * The WAV download is there. A completed track plays at once; its download (marked, signed,
   * hashed) is ready moments later: until then this is false ("The download is being prepared").
   * Absent (an answer from before it) reads as ready.
   */
  downloadReady: z._default(z.boolean(), true),
  /** Tempo and key measured from the audio; null until completed, or for tracks from before it (until the backfill). */
  analysis: z._default(z.nullable(trackAnalysisSchema), null),
  /** The model it was made with (`shared/src/models.ts`); tracks from before the choice read as the default. */
  model: z.optional(z.string()),
  /** Only on the track page's answer (`GET /api/track/{id}`). */
  family: z.optional(trackFamilySchema),
  /** Likes and counted plays (decision 056); absent in answers from before them. */
  likes: z._default(z.number(), 0),
  plays: z._default(z.number(), 0),
  /** Whether the signed-in viewer likes it; absent for visitors. */
  likedByMe: z.optional(z.boolean()),
  /** Its owner lets others remix it (only while it is public). */
  remixable: z._default(z.boolean(), false),
  /** Its owner's public profile, if they chose one; null: anonymous, as before profiles. */
  creator: z._default(z.nullable(creatorRefSchema), null),
  /** Hidden by an administrator after a report (decision 061): only its owner is answered such a track. */
  hidden: z.optional(z.boolean()),
  /** The track it remixes, when it is a remix. */
  remixOf: z._default(z.nullable(remixCreditSchema), null),
});
export type Track = z.infer<typeof trackSchema>;

export const trackListSchema = z.array(trackSchema);

import * as z from 'zod/mini';
import './schema-messages';
import { loudnessSchema } from './ownership';

/*
 * Stems: a finished track taken apart into its voices (decision 044). The
 * shapes of `POST /api/generation/{id}/stems`, `GET /api/track/{id}/stems` and
 * `GET /api/generation/{id}/stems/download`.
 */

/** The sets a track separates into: 4 (vocals, drums, bass, other) or 6 (adds guitar and piano). */
export const STEM_SETS = ['4', '6'] as const;
export type StemSet = (typeof STEM_SETS)[number];

/** The stems of each set, in the order they are listed. */
export const STEM_NAMES = {
  '4': ['vocals', 'drums', 'bass', 'other'],
  '6': ['vocals', 'drums', 'bass', 'guitar', 'piano', 'other'],
} as const satisfies Record<StemSet, readonly string[]>;
export type StemName = (typeof STEM_NAMES)['6'][number];

/** Where a track's stems are: none asked for, being made, there, or the last attempt failed. */
export const STEMS_STATUSES = ['none', 'processing', 'ready', 'failed'] as const;
export type StemsStatus = (typeof STEMS_STATUSES)[number];

/** `POST /api/generation/{id}/stems`: which set (default "4"). */
export const stemsRequestSchema = z.object({
  set: z._default(z.enum(STEM_SETS, { error: 'The set must be "4" or "6".' }), '4'),
});
export type StemsRequest = z.infer<typeof stemsRequestSchema>;

/** The answer to asking for stems (202). */
export const stemsStartedSchema = z.object({ status: z.enum(STEMS_STATUSES) });
export type StemsStarted = z.infer<typeof stemsStartedSchema>;

/** One stem as a viewer sees it: signed links like the track's own audio. */
export const stemSchema = z.object({
  name: z.string(),
  /** The Ogg Opus copy players stream (the WAV when there is no copy). */
  audioUrl: z.nullable(z.string()),
  peaksUrl: z.nullable(z.string()),
  /** SHA-256 (hex) of the stem's WAV as stored (with its marking); null while its download is being prepared. */
  sha256: z.nullable(z.string()),
  loudness: z.nullable(loudnessSchema),
});
export type Stem = z.infer<typeof stemSchema>;

/** `GET /api/track/{id}/stems?set=4|6`: one set's state; the set asked for last without it. */
export const trackStemsQuerySchema = z.object({
  set: z.optional(z.enum(STEM_SETS, { error: 'The set must be "4" or "6".' })),
});

/** `GET /api/track/{id}/stems`. */
export const trackStemsSchema = z.object({
  status: z.enum(STEMS_STATUSES),
  set: z.optional(z.enum(STEM_SETS)),
  stems: z.array(stemSchema),
});
export type TrackStems = z.infer<typeof trackStemsSchema>;

/** `GET /api/generation/{id}/stems/download`: a link to the zip and the name it saves as. */
export const stemsDownloadSchema = z.object({ url: z.string(), filename: z.string() });
export type StemsDownload = z.infer<typeof stemsDownloadSchema>;

export const stemsMessages = {
  /** The plan does not separate into this set; `plans` names the plans that do. */
  setNotOnPlan: (set: StemSet, plans: string[]) =>
    plans.length
      ? `${set} stems are for the ${listNames(plans)} ${plans.length === 1 ? 'plan' : 'plans'}. Upgrade to separate this track.`
      : `${set} stems are not offered on any plan.`,
  notReady: 'The stems of this track are not ready.',
  downloadNeedsPaidPlan: 'Stem downloads need a paid plan. Upgrade to download stems.',
} as const;

function listNames(names: string[]): string {
  if (names.length <= 1) return names[0] ?? '';
  return `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}

import * as z from 'zod/mini';
import { loudnessSchema } from './ownership';
import './schema-messages';

/**
 * A track taken apart into stems (issue 36): the sets the separation offers,
 * the call that asks for one and the answer that says how far it is.
 */

/** The sets a track can be separated into: "4" (vocals, drums, bass, other) or "6" (adds guitar and piano). */
export const STEM_SETS = ['4', '6'] as const;
export type StemSet = (typeof STEM_SETS)[number];

/** The set asked for when the call names none. */
export const DEFAULT_STEM_SET: StemSet = '4';

/** Each set's stems, in the order the mixer shows them. */
export const STEM_NAMES = {
  '4': ['vocals', 'drums', 'bass', 'other'],
  '6': ['vocals', 'drums', 'bass', 'guitar', 'piano', 'other'],
} as const satisfies Record<StemSet, readonly string[]>;

export const stemsStatuses = ['none', 'processing', 'ready', 'failed'] as const;
export type StemsStatus = (typeof stemsStatuses)[number];

/** `POST /api/generation/{id}/stems`. */
export const requestStemsSchema = z.object({ set: z.optional(z.enum(STEM_SETS)) });
export type RequestStemsInput = z.infer<typeof requestStemsSchema>;

/** Its 202 answer: the state of the set asked for (a repeat ask answers the same, and costs nothing). */
export const stemsRequestedSchema = z.object({ status: z.enum(stemsStatuses) });
export type StemsRequested = z.infer<typeof stemsRequestedSchema>;

/** One stem: its audio (a short-lived link), its waveform's peaks, the WAV's SHA-256 and its loudness. */
export const stemSchema = z.object({
  name: z.string(),
  audioUrl: z.string(),
  peaksUrl: z.nullable(z.string()),
  sha256: z.string(),
  /** As the master's: integrated loudness, true peak and the stream's gain. */
  loudness: z.nullable(loudnessSchema),
});
export type Stem = z.infer<typeof stemSchema>;

/** `GET /api/track/{id}/stems`: with the same visibility as the track. */
export const trackStemsSchema = z.object({
  status: z.enum(stemsStatuses),
  set: z.optional(z.enum(STEM_SETS)),
  stems: z.array(stemSchema),
});
export type TrackStems = z.infer<typeof trackStemsSchema>;

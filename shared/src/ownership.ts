import * as z from 'zod/mini';
import './schema-messages';

/**
 * Owning your music: what made a track and what its owner may do with it
 * (provenance and license), its loudness, exporting everything and deleting
 * the account. Shared by the API, the SPA and the files we deliver.
 */

/** IPTC's digital source type for media made by a trained model (EU AI Act, Article 50(2) marking). */
export const DIGITAL_SOURCE_TYPE = 'http://cv.iptc.org/newscodes/digitalsourcetype/trainedAlgorithmicMedia';

/** The level streaming services play at; the players' copy is normalised to it by gain only. */
export const STREAM_TARGET_LUFS = -14;
/** The stream's gain never lifts its true peak above this. */
export const STREAM_MAX_TRUE_PEAK_DBTP = -1;

/**
 * A track's loudness (ITU-R BS.1770-4 / EBU R128), measured on the master once
 * the track completes. `integratedLufs` is null for silence (nothing above the
 * absolute gate). `streamGainDb` is the gain applied to the streaming copy:
 * towards -14 LUFS, never past -1 dBTP true peak.
 */
export const loudnessSchema = z.object({
  integratedLufs: z.nullable(z.number()),
  truePeakDbtp: z.number(),
  streamGainDb: z.number(),
});
export type Loudness = z.infer<typeof loudnessSchema>;

/** What the owner may do with a track: the plan's terms when it was made, never changed later. */
export const trackLicenseSchema = z.object({
  commercialUse: z.boolean(),
  summary: z.string(),
  /** The terms page's license section, absolute. */
  termsUrl: z.string(),
});
export type TrackLicense = z.infer<typeof trackLicenseSchema>;

export { licenseSummaries, TERMS_LICENSE_PATH } from './license-text';

export const provenanceInputSchema = z.object({
  /**
   * An uploaded file (audio-to-music), the track it was made from (studio), or another user's track it
   * remixes (decision 060).
   */
  kind: z.enum(['upload', 'parent', 'remix']),
  /** SHA-256 (hex) of the input as it arrived; null when it was not hashed (inputs from before provenance). */
  sha256: z.nullable(z.string()),
  trackId: z.optional(z.string()),
  /** A remix's source: its creator's handle when the remix started, or "anonymous". */
  creator: z.optional(z.string()),
});
export type ProvenanceInput = z.infer<typeof provenanceInputSchema>;

/** `GET /api/track/{id}/provenance`: written when the track is made and never changed. */
export const provenanceSchema = z.object({
  trackId: z.string(),
  createdAt: z.string(),
  aiGenerated: z.literal(true),
  digitalSourceType: z.literal(DIGITAL_SOURCE_TYPE),
  /** Who ran the model: "fal.ai" (the embedded provider answers as fal does). */
  provider: z.string(),
  /** The model, e.g. "ACE-Step". */
  model: z.string(),
  /** The provider endpoint, e.g. "fal-ai/ace-step/audio-outpaint". */
  endpoint: z.string(),
  /** The model's id, e.g. "ace-step" (decision 051); tracks from before the choice read as ACE-Step. */
  modelId: z.optional(z.string()),
  /** Where the model's terms of use are read (its fal page). */
  modelTerms: z.optional(z.string()),
  seed: z.nullable(z.number()),
  /** What the model was asked: tags, lyrics, duration, instrumental, the edit. */
  parameters: z.record(z.string(), z.unknown()),
  inputs: z.array(provenanceInputSchema),
  parentId: z.nullable(z.string()),
  /** SHA-256 (hex) of the WAV download, exactly as delivered; null until completed. */
  audioSha256: z.nullable(z.string()),
  /** The plan's name when the track was made. */
  plan: z.string(),
  license: trackLicenseSchema,
  /** The track's stems, once a separation of it is ready (decision 044): each WAV's hash and what made it. */
  stems: z.optional(
    z.array(
      z.object({
        set: z.string(),
        name: z.string(),
        /** SHA-256 (hex) of the stem's WAV as stored and downloaded. */
        sha256: z.string(),
        /** e.g. "Demucs (htdemucs)". */
        model: z.string(),
        /** The provider endpoint, "fal-ai/demucs". */
        endpoint: z.string(),
      }),
    ),
  ),
});
export type Provenance = z.infer<typeof provenanceSchema>;

// Export everything (POST/GET /api/user/export).

export const exportStatuses = ['preparing', 'ready', 'failed'] as const;
export type ExportStatus = (typeof exportStatuses)[number];

/** How long a ready export's link works, and how long the file is kept. */
export const EXPORT_LINK_SECONDS = 24 * 60 * 60;
export const EXPORT_KEEP_DAYS = 7;

export const startExportSchema = z.strictObject({});
export const exportStartedSchema = z.object({ exportId: z.string() });

export const exportSchema = z.object({
  exportId: z.string(),
  status: z.enum(exportStatuses),
  createdAt: z.string(),
  /** Tracks written so far and in all, while preparing and after. */
  tracksDone: z.int(),
  tracksTotal: z.nullable(z.int()),
  /** When ready: a link to the zip for 24 hours, its size in bytes, and when the link ends. */
  url: z.optional(z.string()),
  size: z.optional(z.int()),
  expiresAt: z.optional(z.string()),
});
export type UserExport = z.infer<typeof exportSchema>;

/** `GET /api/user/export`: the user's latest export, if any (the profile picks up where it was). */
export const latestExportSchema = z.object({ export: z.nullable(exportSchema) });

// Delete my account (DELETE /api/user).

export const deleteAccountSchema = z.object({
  currentPassword: z
    .string({ error: 'Current password is required' })
    .check(z.minLength(1, 'Current password is required'), z.maxLength(256)),
});
export type DeleteAccountInput = z.infer<typeof deleteAccountSchema>;

/** The words the profile asks the user to type before deleting the account. */
export const DELETE_ACCOUNT_CONFIRMATION = 'DELETE';

export const ownershipMessages = {
  provenanceNotFound: 'Track not found',
  exportRunning: 'An export of your music is already being prepared.',
  exportNotFound: 'Export not found',
  exportStarted: 'Preparing your music. We will email you a link when it is ready.',
  exportReady: 'Your music is ready to download.',
  exportFailed: 'The export failed. Please try again.',
  accountDeleting: 'Your account is being deleted. We will email you when it is done.',
  /** What happens to a running subscription: the confirmation says it before the user agrees. */
  subscriptionEndsNow:
    'Your subscription is cancelled at once. The rest of the period you have paid for ends with it and is not refunded.',
} as const;

/**
 * The `/api/v1` calls' bodies and answers (decisions 052 and 055). The
 * handlers parse with these schemas and the OpenAPI document is generated
 * from them (decision 054), so the two cannot drift. Apart from
 * developer-api.ts, which the SPA's Profile → Developers reads, so that the
 * site's pages do not carry the generation messages they import.
 */
import * as z from 'zod/mini';
import { generationMessages } from './generation-values';
import './schema-messages';
import { visibilities } from './tracks';

// ---------------------------------------------------------------- /api/v1

/** Every `/api/v1` error: a stable code and a sentence for people. */
export const v1ErrorSchema = z.object({
  error: z.object({ code: z.string(), message: z.string() }),
});
export type V1Error = z.infer<typeof v1ErrorSchema>;

/** The codes `/api/v1` errors carry, by HTTP status. */
export const v1ErrorCodes = {
  400: 'invalid_request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  409: 'conflict',
  413: 'too_large',
  422: 'idempotency_mismatch',
  429: 'rate_limited',
  500: 'internal_error',
  502: 'provider_error',
  503: 'unavailable',
} as const;

export const IDEMPOTENCY_HEADER = 'Idempotency-Key';
export const IDEMPOTENCY_TTL_SECONDS = 24 * 60 * 60;

const visibility = z.enum(visibilities, { error: generationMessages.visibilityInvalid });

/**
 * `POST /api/v1/tracks`: the app's text to music fields, or with `inputAudio`
 * (from `POST /api/v1/uploads`) the app's restyle of an upload. Validated
 * further exactly as the app's calls are (the same schemas, per model).
 */
export const v1CreateTrackSchema = z.object({
  tags: z.string({ error: generationMessages.tagsRequired }),
  lyrics: z.optional(z.nullable(z.string())),
  duration: z.optional(z.number()),
  instrumental: z.optional(z.boolean()),
  model: z.optional(z.string()),
  visibility: z.optional(visibility),
  title: z.optional(z.nullable(z.string())),
  bpm: z.optional(z.nullable(z.number())),
  key: z.optional(z.nullable(z.string())),
  /** The `inputAudio` of `POST /api/v1/uploads`, once the file is uploaded: restyle it. */
  inputAudio: z.optional(z.string()),
});
export type V1CreateTrackRequest = z.infer<typeof v1CreateTrackSchema>;

/** `201` of every call that starts a track. */
export const v1TrackStartedSchema = z.object({
  id: z.string(),
  status: z.enum(['pending', 'processing', 'completed', 'failed']),
});

/** `POST /api/v1/uploads` */
export const v1UploadSchema = z.object({
  filename: z.string(),
  type: z.string(),
  size: z.number(),
});
/** `201` of `POST /api/v1/uploads`: PUT the file to `uploadUrl` with `Content-Type: type`, then pass `inputAudio`. */
export const v1UploadCreatedSchema = z.object({
  uploadUrl: z.string(),
  method: z.literal('PUT'),
  headers: z.record(z.string(), z.string()),
  inputAudio: z.string(),
  expiresAt: z.string(),
});

/** A track as `/api/v1` answers it. */
export const v1TrackSchema = z.object({
  id: z.string(),
  status: z.enum(['pending', 'processing', 'completed', 'failed']),
  type: z.string(),
  title: z.nullable(z.string()),
  tags: z.string(),
  lyrics: z.nullable(z.string()),
  instrumental: z.boolean(),
  duration: z.nullable(z.number()),
  model: z.string(),
  visibility: z.enum(visibilities),
  createdAt: z.string(),
  parentId: z.nullable(z.string()),
  /** Short-lived links once completed: `stream` (Ogg Opus) and `wav` (the download, when the plan allows it and it is ready). */
  audio: z.nullable(
    z.object({
      stream: z.nullable(z.string()),
      wav: z.nullable(z.string()),
      peaks: z.nullable(z.string()),
    }),
  ),
  /** The provenance record's URL (public tracks and the owner's). */
  provenanceUrl: z.nullable(z.string()),
  analysis: z.nullable(z.object({ bpm: z.nullable(z.number()), key: z.nullable(z.string()) })),
  /** The stems, when separated: each stem's name and a short-lived link. */
  stems: z.nullable(z.array(z.object({ name: z.string(), url: z.string() }))),
  /** Timed lyrics, when they exist: lines with start and end seconds. */
  timedLyrics: z.nullable(z.array(z.object({ text: z.string(), start: z.number(), end: z.number() }))),
  /** Why it failed, when it did. */
  error: z.nullable(z.string()),
});
export type V1Track = z.infer<typeof v1TrackSchema>;

/** `GET /api/v1/tracks`: the key owner's tracks, newest first; `next` is the cursor of the next page. */
export const v1TrackListSchema = z.object({
  tracks: z.array(v1TrackSchema),
  next: z.nullable(z.string()),
});

/** The most tracks one page of `GET /api/v1/tracks` holds. */
export const V1_PAGE_MAX = 100;
export const v1ListMessages = {
  limitInvalid: `limit is a whole number from 1 to ${V1_PAGE_MAX}.`,
  cursorInvalid: 'The cursor is not valid.',
} as const;

export const v1ListQuerySchema = z.object({
  cursor: z.optional(z.string().check(z.maxLength(1024, v1ListMessages.cursorInvalid))),
  limit: z.optional(z.string().check(z.regex(/^\d{1,3}$/, v1ListMessages.limitInvalid))),
});

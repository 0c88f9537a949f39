/**
 * What `GET /api/v1/openapi.json` says about each `/api/v1` call beyond the
 * manifest's method and path: its words, and the very schema objects its
 * handler parses and answers with (`developer-api.ts`, `generations.ts`), so
 * the document is generated from what runs and a test holds the two together
 * (decision 054). The SPA never imports this: it fetches the document.
 */
import type * as z from 'zod/mini';
import {
  v1CreateTrackSchema,
  type v1ErrorCodes,
  v1ErrorSchema,
  v1ListQuerySchema,
  v1TrackListSchema,
  v1TrackSchema,
  v1TrackStartedSchema,
  v1UploadCreatedSchema,
  v1UploadSchema,
} from './api-v1-schemas';
import type * as apiV1 from './calls/api-v1';
import {
  audioToMusicSchema,
  extendSchema,
  extendSchemaFor,
  repaintSchema,
  repaintSchemaFor,
  textToMusicSchema,
  variationSchema,
} from './generations';
import { UPLOAD_CONTENT_TYPES, UPLOAD_MAX_LABEL } from './uploads';

/** The id of every `/api/v1` call (the `api-v1` route group). */
export type V1RouteId = (typeof apiV1)[keyof typeof apiV1]['id'];

/** A schema the document names under `components.schemas`. */
export interface NamedSchema {
  name: string;
  schema: z.ZodMiniType;
}

export interface V1RequestBodyDoc extends NamedSchema {
  /**
   * The app's own schemas the handler validates the body with after this one
   * (same rules, same messages): the document takes each field's limits from
   * them where they name the field.
   */
  validatedWith?: readonly z.ZodMiniType[];
  /**
   * On calls about a track: the schema the handler parses for the track's own
   * length (`schema` is its form before the track is known).
   */
  forTrack?: (duration: number | null) => z.ZodMiniType;
}

export interface V1ResponseDoc {
  description: string;
  body?: NamedSchema;
}

export type V1Status = keyof typeof v1ErrorCodes | 200 | 201;

export interface V1RouteDoc {
  summary: string;
  description: string;
  /** The section of the Developers page and the document's tag. */
  tag: 'Tracks' | 'Uploads' | 'Studio' | 'Document';
  requestBody?: V1RequestBodyDoc;
  /** The query string's fields (each a string, as query strings are). */
  query?: NamedSchema;
  responses: Partial<Record<V1Status, V1ResponseDoc>>;
}

export const v1Schemas = {
  error: { name: 'Error', schema: v1ErrorSchema },
  track: { name: 'Track', schema: v1TrackSchema },
  trackList: { name: 'TrackList', schema: v1TrackListSchema },
  trackStarted: { name: 'TrackStarted', schema: v1TrackStartedSchema },
  uploadCreated: { name: 'UploadCreated', schema: v1UploadCreatedSchema },
} as const satisfies Record<string, NamedSchema>;

/** What each error status means on `/api/v1`; every error body is `Error`. */
export const v1ErrorDescriptions: Record<keyof typeof v1ErrorCodes, string> = {
  400: 'The body or query is not valid: the message names the first field the app refuses, and nothing was made.',
  401: 'No API key, or one that is not valid, revoked, or whose owner is suspended or deleted.',
  403: "The key lacks this call's scope, or the owner's plan does not include API access or this model.",
  404: 'No such track, or one the key owner does not own.',
  409: 'A request with the same Idempotency-Key is still being processed: retry shortly.',
  413: 'The body is too large.',
  422: 'The Idempotency-Key was used with a different request.',
  429: "Too many requests for this key, or the owner's weekly quota is used up: wait for Retry-After seconds.",
  500: 'Something went wrong on our side.',
  502: 'The music provider refused or failed.',
  503: 'The service is unavailable: retry later.',
};

const errors = (...statuses: (keyof typeof v1ErrorCodes)[]): V1RouteDoc['responses'] =>
  Object.fromEntries(
    statuses.map((status) => [status, { description: v1ErrorDescriptions[status], body: v1Schemas.error }]),
  );

/** Errors of every call made with a key. */
const keyErrors = [401, 403, 429] as const;
/** Errors of every call that starts work (a POST with an Idempotency-Key). */
const startErrors = [400, ...keyErrors, 409, 422] as const;

const trackStarted: V1ResponseDoc = {
  description:
    'The track is started: poll `GET /api/v1/tracks/{id}` until its status is completed or failed.',
  body: v1Schemas.trackStarted,
};

const studioNote =
  'Tags and lyrics are the parent track’s when left out. Charges one track of the weekly quota, as in the app.';

export const v1Docs = {
  v1OpenApi: {
    summary: 'This document',
    description:
      'The OpenAPI 3.1 description of `/api/v1`, generated from the schemas the API validates with.',
    tag: 'Document',
    responses: { 200: { description: 'The OpenAPI document.' } },
  },
  v1CreateTrack: {
    summary: 'Create a track',
    description:
      'Starts a song from tags and lyrics (or instrumental), with the same rules, quota, plan and model checks as the app. ' +
      'With `inputAudio` (from `POST /api/v1/uploads`, once the file is uploaded) it restyles that audio instead. ' +
      'Charges one track of the weekly quota.',
    tag: 'Tracks',
    requestBody: {
      name: 'CreateTrackRequest',
      schema: v1CreateTrackSchema,
      validatedWith: [textToMusicSchema, audioToMusicSchema],
    },
    responses: { 201: trackStarted, ...errors(...startErrors, 404, 502) },
  },
  v1ListTracks: {
    summary: 'List your tracks',
    description:
      'The key owner’s tracks, newest first, a page at a time: pass the answer’s `next` as `cursor` for the next page (null on the last).',
    tag: 'Tracks',
    query: { name: 'ListTracksQuery', schema: v1ListQuerySchema },
    responses: {
      200: { description: 'A page of tracks.', body: v1Schemas.trackList },
      ...errors(400, ...keyErrors),
    },
  },
  v1GetTrack: {
    summary: 'Get a track',
    description:
      'The track’s status; once completed, short-lived audio links, its provenance link, and its stems and timed lyrics when they exist.',
    tag: 'Tracks',
    responses: { 200: { description: 'The track.', body: v1Schemas.track }, ...errors(...keyErrors, 404) },
  },
  v1CreateUpload: {
    summary: 'Upload audio to restyle',
    description:
      `Reserves an upload: PUT the file to \`uploadUrl\` with the answer’s headers before \`expiresAt\`, then pass \`inputAudio\` to \`POST /api/v1/tracks\`. ` +
      `Types: ${UPLOAD_CONTENT_TYPES.join(', ')}; at most ${UPLOAD_MAX_LABEL}.`,
    tag: 'Uploads',
    requestBody: { name: 'CreateUploadRequest', schema: v1UploadSchema },
    responses: {
      201: {
        description: 'Where to upload the file, and the inputAudio value.',
        body: v1Schemas.uploadCreated,
      },
      ...errors(...startErrors),
    },
  },
  v1ExtendTrack: {
    summary: 'Extend a track',
    description: `A new track that continues this one at its start or end by \`seconds\` (the song stays within the longest length). ${studioNote}`,
    tag: 'Studio',
    requestBody: { name: 'ExtendRequest', schema: extendSchema, forTrack: extendSchemaFor },
    responses: { 201: trackStarted, ...errors(...startErrors, 404, 502) },
  },
  v1RepaintTrack: {
    summary: 'Repaint a section',
    description: `A new track with the section from \`start\` to \`end\` seconds (at least a second, inside the track) made again; \`variance\` from 0 (close) to 1 (free). ${studioNote}`,
    tag: 'Studio',
    requestBody: {
      name: 'RepaintRequest',
      schema: repaintSchema,
      forTrack: (duration) => repaintSchemaFor(duration ?? 0),
    },
    responses: { 201: trackStarted, ...errors(...startErrors, 404, 502) },
  },
  v1CreateVariation: {
    summary: 'Make a variation',
    description: `A new track from the same tags, lyrics, length and input, with a new seed. ${studioNote}`,
    tag: 'Studio',
    requestBody: { name: 'VariationRequest', schema: variationSchema },
    responses: { 201: trackStarted, ...errors(...startErrors, 404, 502) },
  },
} as const satisfies Record<V1RouteId, V1RouteDoc>;

/**
 * Each key's limits per minute: all requests, and the starts among them (the
 * POSTs that create work). Separate from the app's own limits.
 */
export const V1_RATE_LIMITS = { requestsPerMinute: 60, startsPerMinute: 10 } as const;

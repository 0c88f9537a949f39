import * as z from 'zod/mini';
import {
  DURATION_DEFAULT_SECONDS,
  DURATION_MAX_SECONDS,
  DURATION_MIN_SECONDS,
  TITLE_MAX_LENGTH,
} from './constants';
import './schema-messages';
import { trackSchema, visibilities } from './tracks';

export const TAGS_MAX_LENGTH = 500;
export const LYRICS_MAX_LENGTH = 5000;
export const LYRICS_PROMPT_MAX_LENGTH = 1000;
export const INPUT_AUDIO_URL_MAX_LENGTH = 2048;

/** Seconds as a person types them: whole seconds plain, others to a tenth (`12`, `12.5`). */
export function secondsText(seconds: number): string {
  const rounded = Math.round(seconds * 10) / 10;
  return Number.isInteger(rounded) ? String(rounded) : rounded.toFixed(1);
}

/** The last tenth of a second inside a track of `duration` seconds: where its sections may end, as shown. */
const sectionLimit = (duration: number) => Math.floor(Math.max(0, duration) * 10 + 1e-9) / 10;

/**
 * The most whole seconds a track of `duration` seconds can be extended by:
 * a song is at most DURATION_MAX_SECONDS long (below DURATION_MIN_SECONDS, none).
 */
export function extendRoom(duration: number | null): number {
  return Math.floor(DURATION_MAX_SECONDS - (duration ?? 0));
}

const EXTEND_NO_ROOM = `This track is already as long as a track can be (${DURATION_MAX_SECONDS} seconds).`;

/** Messages of the create, library and lyrics calls; verbatim from the specification where it has them. */
export const generationMessages = {
  tagsRequiredTitle: 'Missing Tags',
  tagsRequired: 'Please enter at least one genre tag.',
  tagsTooLong: `Tags must be ${TAGS_MAX_LENGTH} characters or less.`,
  lyricsTooLong: `Lyrics must be ${LYRICS_MAX_LENGTH} characters or less.`,
  durationInvalid: `Duration must be a whole number of seconds from ${DURATION_MIN_SECONDS} to ${DURATION_MAX_SECONDS}.`,
  titleEmpty: 'Title cannot be empty.',
  titleTooLong: 'Title must be 100 characters or less.',
  visibilityInvalid: 'Visibility must be public or private.',
  audioMissingTitle: 'Missing Audio File',
  audioMissing: 'Please upload an audio file first.',
  inputAudioUrlRequired: 'Audio file URL is required',
  inputAudioUrlTooLong: 'Audio file URL is too long.',
  promptRequiredTitle: 'Prompt required',
  promptRequired: 'Please enter what your song is about.',
  promptTooLong: `Please keep the description to ${LYRICS_PROMPT_MAX_LENGTH} characters or less.`,
  privateNeedsPaidPlan: 'Private tracks need a paid plan. Upgrade to keep tracks private.',
  trackNotFound: 'Track not found',
  startFailed: 'Failed to start music generation. Please try again.',
  statusFailed: 'There was an error generating your music. Please try again.',
  instrumentalWithLyrics: 'An instrumental has no lyrics. Clear the lyrics or turn off Instrumental.',
  notCompleted: 'This track is not finished yet. Try again once it has completed.',
  /** Extend's seconds for a track with room for `max` more: from DURATION_MIN_SECONDS to `max`. */
  extendSecondsInvalid: (max: number) =>
    max < DURATION_MIN_SECONDS
      ? EXTEND_NO_ROOM
      : `Extend by a whole number of seconds from ${DURATION_MIN_SECONDS} to ${max}.`,
  /** The hint beside extend's seconds: the same range as its error. */
  extendSecondsHint: (max: number) =>
    `From ${DURATION_MIN_SECONDS} to ${max} seconds (a track is at most ${DURATION_MAX_SECONDS} seconds long).`,
  extendNoRoom: EXTEND_NO_ROOM,
  extendAtInvalid: 'Extend at the start or the end.',
  sectionTimeInvalid: 'Start and end must be times in seconds.',
  sectionOrder: 'The section must start before it ends.',
  sectionTooShort: 'The section must be at least 1 second long.',
  /** A start or end before 0 or past the track's end. */
  sectionOutside: (duration: number) =>
    `The section must lie within the track (0 to ${secondsText(sectionLimit(duration))} seconds).`,
  /** The hint beside repaint's start and end: the same range as its error. */
  sectionHint: (duration: number) =>
    `Anywhere from 0 to ${secondsText(sectionLimit(duration))} seconds, at least 1 second long.`,
  varianceInvalid: 'Variance must be between 0 and 1.',
} as const;

const tags = z
  .string({ error: generationMessages.tagsRequired })
  .check(
    z.trim(),
    z.minLength(1, generationMessages.tagsRequired),
    z.maxLength(TAGS_MAX_LENGTH, generationMessages.tagsTooLong),
  );

/** Optional; empty means instrumental. */
const lyrics = z.pipe(
  z.nullish(z.string().check(z.trim(), z.maxLength(LYRICS_MAX_LENGTH, generationMessages.lyricsTooLong))),
  z.transform((v: string | null | undefined) => v ?? ''),
);

const duration = z._default(
  z
    .number({ error: generationMessages.durationInvalid })
    .check(
      z.int(generationMessages.durationInvalid),
      z.gte(DURATION_MIN_SECONDS, generationMessages.durationInvalid),
      z.lte(DURATION_MAX_SECONDS, generationMessages.durationInvalid),
    ),
  DURATION_DEFAULT_SECONDS,
);

/** Optional on create: trimmed, empty becomes no title. */
const optionalTitle = z.pipe(
  z.nullish(z.string().check(z.trim(), z.maxLength(TITLE_MAX_LENGTH, generationMessages.titleTooLong))),
  z.transform((v: string | null | undefined) => (v ? v : undefined)),
);

const visibility = z.enum(visibilities, { error: generationMessages.visibilityInvalid });

/** `POST /api/generate-text-to-music` */
export const textToMusicSchema = z
  .object({
    tags,
    lyrics,
    duration,
    title: optionalTitle,
    visibility: z._default(visibility, 'public'),
    /** No vocals: the provider gets lyrics `[instrumental]`; lyrics must be empty. */
    instrumental: z._default(z.boolean({ error: 'Instrumental must be true or false.' }), false),
  })
  .check(
    z.refine((v) => !(v.instrumental && v.lyrics), {
      message: generationMessages.instrumentalWithLyrics,
      path: ['lyrics'],
    }),
  );
export type TextToMusicRequest = z.infer<typeof textToMusicSchema>;
export type TextToMusicInput = z.input<typeof textToMusicSchema>;

/** `POST /api/generate-audio-to-music` */
export const audioToMusicSchema = z.object({
  tags,
  lyrics,
  inputAudioUrl: z
    .string({ error: generationMessages.inputAudioUrlRequired })
    .check(
      z.trim(),
      z.minLength(1, generationMessages.inputAudioUrlRequired),
      z.maxLength(INPUT_AUDIO_URL_MAX_LENGTH, generationMessages.inputAudioUrlTooLong),
    ),
  title: optionalTitle,
  visibility: z._default(visibility, 'public'),
});
export type AudioToMusicRequest = z.infer<typeof audioToMusicSchema>;
export type AudioToMusicInput = z.input<typeof audioToMusicSchema>;

/** Tags and lyrics of a studio call: optional, the parent's when absent. */
const studioText = {
  tags: z.optional(tags),
  lyrics: z.optional(
    z.string().check(z.trim(), z.maxLength(LYRICS_MAX_LENGTH, generationMessages.lyricsTooLong)),
  ),
};

/** `POST /api/generation/{id}/variation`: the parent's tags, lyrics, duration and input, a new seed. */
export const variationSchema = z.object({});
export type VariationRequest = z.infer<typeof variationSchema>;

/**
 * `POST /api/generation/{id}/extend` for a track of `duration` seconds:
 * whole seconds from DURATION_MIN_SECONDS to what keeps the song within
 * DURATION_MAX_SECONDS ({@link extendRoom}), every refusal naming that range.
 */
export function extendSchemaFor(duration: number | null) {
  const max = extendRoom(duration);
  const secondsInvalid = generationMessages.extendSecondsInvalid(max);
  return z.object({
    seconds: z.number({ error: secondsInvalid }).check(
      z.int(secondsInvalid),
      z.gte(DURATION_MIN_SECONDS, secondsInvalid),
      z.lte(Math.max(max, DURATION_MIN_SECONDS), secondsInvalid),
      z.refine(() => max >= DURATION_MIN_SECONDS, secondsInvalid),
    ),
    at: z._default(z.enum(['start', 'end'], { error: generationMessages.extendAtInvalid }), 'end'),
    ...studioText,
  });
}

/** `POST /api/generation/{id}/extend` before the track is known: a song of 0 seconds has room for 240. */
export const extendSchema = extendSchemaFor(0);
export type ExtendRequest = z.infer<typeof extendSchema>;
export type ExtendInput = z.input<typeof extendSchema>;

/**
 * `POST /api/generation/{id}/repaint` for a track of `duration` seconds: a
 * section of at least a second inside the track; a time before 0 or past the
 * end names the track's range.
 */
export function repaintSchemaFor(duration: number) {
  const outside = generationMessages.sectionOutside(duration);
  const time = z
    .number({ error: generationMessages.sectionTimeInvalid })
    .check(z.refine((t) => t >= 0 && t <= duration, outside));
  return z
    .object({
      start: time,
      end: time,
      variance: z._default(
        z
          .number({ error: generationMessages.varianceInvalid })
          .check(z.gte(0, generationMessages.varianceInvalid), z.lte(1, generationMessages.varianceInvalid)),
        0.5,
      ),
      ...studioText,
    })
    .check(
      z.refine((v) => v.start < v.end, { message: generationMessages.sectionOrder, path: ['end'] }),
      z.refine((v) => v.end - v.start >= 1, { message: generationMessages.sectionTooShort, path: ['end'] }),
    );
}

/** `POST /api/generation/{id}/repaint` before the track is known: within the longest track there can be. */
export const repaintSchema = repaintSchemaFor(DURATION_MAX_SECONDS);
export type RepaintRequest = z.infer<typeof repaintSchema>;
export type RepaintInput = z.input<typeof repaintSchema>;

/** `PATCH /api/generation/{id}/visibility`: the client always sends both fields. */
export const updateGenerationSchema = z.object({
  title: z
    .string({ error: generationMessages.titleEmpty })
    .check(
      z.trim(),
      z.minLength(1, generationMessages.titleEmpty),
      z.maxLength(TITLE_MAX_LENGTH, generationMessages.titleTooLong),
    ),
  visibility,
});
export type UpdateGenerationRequest = z.infer<typeof updateGenerationSchema>;

/** `POST /api/generate-lyrics` */
export const lyricsRequestSchema = z.object({
  prompt: z
    .string({ error: generationMessages.promptRequired })
    .check(
      z.trim(),
      z.minLength(1, generationMessages.promptRequired),
      z.maxLength(LYRICS_PROMPT_MAX_LENGTH, generationMessages.promptTooLong),
    ),
  duration,
});
export type LyricsRequest = z.infer<typeof lyricsRequestSchema>;

/** `{ generationId }` from both generate calls. */
export const generationStartedSchema = z.object({ generationId: z.string() });
export type GenerationStarted = z.infer<typeof generationStartedSchema>;

/** `201` of the studio calls (variation, extend, repaint): the new track, and its id as the create calls answer it. */
export const studioStartedSchema = z.object({ generationId: z.string(), track: trackSchema });
export type StudioStarted = z.infer<typeof studioStartedSchema>;

const roundTo10 = (n: number) => Math.round(n / 10) * 10;

/**
 * How long a track of `duration` seconds usually takes from submit to
 * playable, the provider's queue aside: what the create screen tells the user
 * and what the workflow waits for before asking the provider itself.
 */
export function usualGenerationSeconds(duration: number): { low: number; high: number } {
  const d = Math.min(DURATION_MAX_SECONDS, Math.max(DURATION_MIN_SECONDS, duration || 60));
  return { low: Math.max(30, roundTo10(15 + d * 0.25)), high: Math.max(60, roundTo10(30 + d * 0.5)) };
}

/** `usually 30-60 seconds`, `usually 1-3 minutes`. */
export function usualGenerationLabel(duration: number): string {
  const { low, high } = usualGenerationSeconds(duration);
  if (high <= 90) return `usually ${low}-${high} seconds`;
  return `usually ${Math.max(1, Math.round(low / 60))}-${Math.ceil(high / 60)} minutes`;
}

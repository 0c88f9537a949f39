import * as z from 'zod';
import {
  DURATION_DEFAULT_SECONDS,
  DURATION_MAX_SECONDS,
  DURATION_MIN_SECONDS,
  TITLE_MAX_LENGTH,
} from './constants';
import { trackSchema, visibilities } from './tracks';

export const TAGS_MAX_LENGTH = 500;
export const LYRICS_MAX_LENGTH = 5000;
export const LYRICS_PROMPT_MAX_LENGTH = 1000;
export const INPUT_AUDIO_URL_MAX_LENGTH = 2048;

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
  extendSecondsInvalid: `Extend by a whole number of seconds from ${DURATION_MIN_SECONDS} to ${DURATION_MAX_SECONDS}.`,
  extendAtInvalid: 'Extend at the start or the end.',
  extendTooLong: (max: number) =>
    max < DURATION_MIN_SECONDS
      ? `This track is already as long as a track can be (${DURATION_MAX_SECONDS} seconds).`
      : `A track can be at most ${DURATION_MAX_SECONDS} seconds long: extend this one by up to ${max} seconds.`,
  sectionTimeInvalid: 'Start and end must be times in seconds.',
  sectionOrder: 'The section must start before it ends.',
  sectionTooShort: 'The section must be at least 1 second long.',
  sectionOutside: (duration: number) => `The section must lie within the track (0 to ${duration} seconds).`,
  varianceInvalid: 'Variance must be between 0 and 1.',
} as const;

const tags = z
  .string({ error: generationMessages.tagsRequired })
  .trim()
  .min(1, generationMessages.tagsRequired)
  .max(TAGS_MAX_LENGTH, generationMessages.tagsTooLong);

/** Optional; empty means instrumental. */
const lyrics = z
  .string()
  .trim()
  .max(LYRICS_MAX_LENGTH, generationMessages.lyricsTooLong)
  .nullish()
  .transform((v) => v ?? '');

const duration = z
  .number({ error: generationMessages.durationInvalid })
  .int(generationMessages.durationInvalid)
  .min(DURATION_MIN_SECONDS, generationMessages.durationInvalid)
  .max(DURATION_MAX_SECONDS, generationMessages.durationInvalid)
  .default(DURATION_DEFAULT_SECONDS);

/** Optional on create: trimmed, empty becomes no title. */
const optionalTitle = z
  .string()
  .trim()
  .max(TITLE_MAX_LENGTH, generationMessages.titleTooLong)
  .nullish()
  .transform((v) => (v ? v : undefined));

const visibility = z.enum(visibilities, { error: generationMessages.visibilityInvalid });

/** `POST /api/generate-text-to-music` */
export const textToMusicSchema = z
  .object({
    tags,
    lyrics,
    duration,
    title: optionalTitle,
    visibility: visibility.default('public'),
    /** No vocals: the provider gets lyrics `[instrumental]`; lyrics must be empty. */
    instrumental: z.boolean({ error: 'Instrumental must be true or false.' }).default(false),
  })
  .refine((v) => !(v.instrumental && v.lyrics), {
    message: generationMessages.instrumentalWithLyrics,
    path: ['lyrics'],
  });
export type TextToMusicRequest = z.infer<typeof textToMusicSchema>;
export type TextToMusicInput = z.input<typeof textToMusicSchema>;

/** `POST /api/generate-audio-to-music` */
export const audioToMusicSchema = z.object({
  tags,
  lyrics,
  inputAudioUrl: z
    .string({ error: generationMessages.inputAudioUrlRequired })
    .trim()
    .min(1, generationMessages.inputAudioUrlRequired)
    .max(INPUT_AUDIO_URL_MAX_LENGTH, generationMessages.inputAudioUrlTooLong),
  title: optionalTitle,
  visibility: visibility.default('public'),
});
export type AudioToMusicRequest = z.infer<typeof audioToMusicSchema>;
export type AudioToMusicInput = z.input<typeof audioToMusicSchema>;

/** Tags and lyrics of a studio call: optional, the parent's when absent. */
const studioText = {
  tags: tags.optional(),
  lyrics: z.string().trim().max(LYRICS_MAX_LENGTH, generationMessages.lyricsTooLong).optional(),
};

/** `POST /api/generation/{id}/variation`: the parent's tags, lyrics, duration and input, a new seed. */
export const variationSchema = z.object({});
export type VariationRequest = z.infer<typeof variationSchema>;

/**
 * `POST /api/generation/{id}/extend`. `seconds` is also limited by the parent:
 * the whole song may be at most DURATION_MAX_SECONDS (checked with the parent).
 */
export const extendSchema = z.object({
  seconds: z
    .number({ error: generationMessages.extendSecondsInvalid })
    .int(generationMessages.extendSecondsInvalid)
    .min(DURATION_MIN_SECONDS, generationMessages.extendSecondsInvalid)
    .max(DURATION_MAX_SECONDS, generationMessages.extendSecondsInvalid),
  at: z.enum(['start', 'end'], { error: generationMessages.extendAtInvalid }).default('end'),
  ...studioText,
});
export type ExtendRequest = z.infer<typeof extendSchema>;
export type ExtendInput = z.input<typeof extendSchema>;

const sectionTime = z
  .number({ error: generationMessages.sectionTimeInvalid })
  .min(0, generationMessages.sectionTimeInvalid)
  .max(DURATION_MAX_SECONDS, generationMessages.sectionTimeInvalid);

/** `POST /api/generation/{id}/repaint`: `end` is also limited by the parent's duration (checked with it). */
export const repaintSchema = z
  .object({
    start: sectionTime,
    end: sectionTime,
    variance: z
      .number({ error: generationMessages.varianceInvalid })
      .min(0, generationMessages.varianceInvalid)
      .max(1, generationMessages.varianceInvalid)
      .default(0.5),
    ...studioText,
  })
  .refine((v) => v.start < v.end, { message: generationMessages.sectionOrder, path: ['end'] })
  .refine((v) => v.end - v.start >= 1, { message: generationMessages.sectionTooShort, path: ['end'] });
export type RepaintRequest = z.infer<typeof repaintSchema>;
export type RepaintInput = z.input<typeof repaintSchema>;

/** `PATCH /api/generation/{id}/visibility`: the client always sends both fields. */
export const updateGenerationSchema = z.object({
  title: z
    .string({ error: generationMessages.titleEmpty })
    .trim()
    .min(1, generationMessages.titleEmpty)
    .max(TITLE_MAX_LENGTH, generationMessages.titleTooLong),
  visibility,
});
export type UpdateGenerationRequest = z.infer<typeof updateGenerationSchema>;

/** `POST /api/generate-lyrics` */
export const lyricsRequestSchema = z.object({
  prompt: z
    .string({ error: generationMessages.promptRequired })
    .trim()
    .min(1, generationMessages.promptRequired)
    .max(LYRICS_PROMPT_MAX_LENGTH, generationMessages.promptTooLong),
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

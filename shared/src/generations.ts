import * as z from 'zod';
import {
  DURATION_DEFAULT_SECONDS,
  DURATION_MAX_SECONDS,
  DURATION_MIN_SECONDS,
  TITLE_MAX_LENGTH,
} from './constants';
import { visibilities } from './tracks';

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
export const textToMusicSchema = z.object({
  tags,
  lyrics,
  duration,
  title: optionalTitle,
  visibility: visibility.default('public'),
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

/*
 * The create, library and studio calls' limits, messages and helpers, free of
 * zod (the schemas are in generations.ts, which re-exports these): the
 * functions that only name a message do not build every schema with it
 * (decision 042).
 */
import { DURATION_MAX_SECONDS, DURATION_MIN_SECONDS } from './constants';
import { BPM_MAX, BPM_MIN } from './musical-keys';

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
  bpmInvalid: `Tempo must be a whole number of BPM from ${BPM_MIN} to ${BPM_MAX}.`,
  keyInvalid: 'Key must be a key such as "A minor" or "C# major" (sharps or flats).',
} as const;

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

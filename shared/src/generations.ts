import * as z from 'zod/mini';
import {
  DURATION_DEFAULT_SECONDS,
  DURATION_MAX_SECONDS,
  DURATION_MIN_SECONDS,
  TITLE_MAX_LENGTH,
} from './constants';
import {
  extendRoom,
  generationMessages,
  INPUT_AUDIO_URL_MAX_LENGTH,
  LYRICS_MAX_LENGTH,
  LYRICS_PROMPT_MAX_LENGTH,
  TAGS_MAX_LENGTH,
} from './generation-values';
import { MUSIC_MODELS } from './models';
import { BPM_MAX, BPM_MIN, normaliseKey } from './musical-keys';
import './schema-messages';
import { trackSchema, visibilities } from './tracks';

export * from './generation-values';

const tags = z
  .string({ error: generationMessages.tagsRequired })
  .check(
    z.trim(),
    z.minLength(1, generationMessages.tagsRequired),
    z.maxLength(TAGS_MAX_LENGTH, generationMessages.tagsTooLong),
  );

/** The shortest song any registered model makes. */
const MODEL_DURATION_MIN_SECONDS = Math.min(
  ...MUSIC_MODELS.map((m) => m.duration?.min ?? DURATION_MIN_SECONDS),
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

/**
 * A song's length as a generation asks for it: optional, whole seconds within
 * what any registered model makes; the chosen model's own range (or its
 * deciding the length itself) is checked with the model (decision 051), and
 * its absence means the model's default.
 */
export const songDurationInvalid = `Duration must be a whole number of seconds from ${MODEL_DURATION_MIN_SECONDS} to ${DURATION_MAX_SECONDS}.`;
const songDuration = z.optional(
  z
    .number({ error: songDurationInvalid })
    .check(
      z.int(songDurationInvalid),
      z.gte(MODEL_DURATION_MIN_SECONDS, songDurationInvalid),
      z.lte(DURATION_MAX_SECONDS, songDurationInvalid),
    ),
);

/** The model to run (`shared/src/models.ts`); absent: the site's default. Checked against the settings. */
const model = z.optional(
  z
    .string({ error: 'model must be a model id.' })
    .check(
      z.trim(),
      z.minLength(1, 'model must be a model id.'),
      z.maxLength(100, 'model must be a model id.'),
    ),
);

/** Optional on create: trimmed, empty becomes no title. */
const optionalTitle = z.pipe(
  z.nullish(z.string().check(z.trim(), z.maxLength(TITLE_MAX_LENGTH, generationMessages.titleTooLong))),
  z.transform((v: string | null | undefined) => (v ? v : undefined)),
);

/** Optional: a whole tempo the music is asked to keep. */
const bpm = z.pipe(
  z.nullish(
    z
      .number({ error: generationMessages.bpmInvalid })
      .check(
        z.int(generationMessages.bpmInvalid),
        z.gte(BPM_MIN, generationMessages.bpmInvalid),
        z.lte(BPM_MAX, generationMessages.bpmInvalid),
      ),
  ),
  z.transform((v: number | null | undefined) => v ?? undefined),
);

/** Optional: a key ("A minor", "Eb major"), stored in one spelling ("D# major"); empty means none. */
const musicalKey = z.pipe(
  z.nullish(
    z.string({ error: generationMessages.keyInvalid }).check(
      z.trim(),
      z.refine((v) => v === '' || normaliseKey(v) !== undefined, generationMessages.keyInvalid),
    ),
  ),
  z.transform((v: string | null | undefined) => (v ? normaliseKey(v) : undefined)),
);

const visibility = z.enum(visibilities, { error: generationMessages.visibilityInvalid });

/** `POST /api/generate-text-to-music` */
export const textToMusicSchema = z
  .object({
    tags,
    lyrics,
    duration: songDuration,
    title: optionalTitle,
    visibility: z._default(visibility, 'public'),
    model,
    /** No vocals: the provider gets lyrics `[instrumental]`; lyrics must be empty. */
    instrumental: z._default(z.boolean({ error: 'Instrumental must be true or false.' }), false),
    bpm,
    key: musicalKey,
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
  model,
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
export const studioStartedSchema = z.object({
  generationId: z.string(),
  track: trackSchema,
  /** The model the new track is made with (decision 051): the track's own where it runs the action. */
  model: z.optional(z.string()),
});
export type StudioStarted = z.infer<typeof studioStartedSchema>;

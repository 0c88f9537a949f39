/**
 * fal's own schemas of the text-to-music endpoints Tunesmith calls, copied
 * from fal's generated client types (fal-ai/fal-js, which fal generates from
 * its OpenAPI documents): `libs/client/src/types/audio/zod.gen.ts` at
 * 53241327a7e17ad9f964eb904a9769299cccaf58 (2026-02-03) for the ranges and
 * enums, `libs/client/src/types/endpoints.ts` at
 * 381105e138b85502b528fb8f6c16d909e30e462a (2026-08-02) for MiniMax 2.5 and
 * the `channel` of MiniMax's AudioSetting, which the earlier file lacks.
 * Strict: a field fal does not document fails the parse. The contract tests
 * hold the adapter's inputs (and the embedded provider's answers) to them.
 */
import { z } from 'zod';

/** fal's File (`zFile`). */
export const falFile = z.object({
  url: z.string(),
  content_type: z.string().optional(),
  file_name: z.string().optional(),
  file_size: z.int().optional(),
  file_data: z.string().optional(),
});

/** `zAceStepInput` (fal-ai/ace-step). */
export const aceStepInput = z
  .object({
    tags: z.string(),
    lyrics: z.string().optional(),
    duration: z.number().gte(5).lte(240).optional(),
    number_of_steps: z.int().gte(3).lte(60).optional(),
    seed: z.int().optional(),
    scheduler: z.enum(['euler', 'heun']).optional(),
    guidance_type: z.enum(['cfg', 'apg', 'cfg_star']).optional(),
    granularity_scale: z.number().optional(),
    guidance_interval: z.number().optional(),
    guidance_interval_decay: z.number().optional(),
    guidance_scale: z.number().optional(),
    minimum_guidance_scale: z.number().optional(),
    tag_guidance_scale: z.number().optional(),
    lyric_guidance_scale: z.number().optional(),
  })
  .strict();

/** `zAceStepOutput`. */
export const aceStepOutput = z.object({
  audio: falFile,
  seed: z.int(),
  tags: z.string(),
  lyrics: z.string(),
});

/** `AudioSetting` of MiniMax Music 2.0 (`zAudioSetting`, plus `channel` from endpoints.ts). */
const minimaxAudioSetting = z
  .object({
    format: z.enum(['mp3', 'pcm', 'flac']).optional(),
    sample_rate: z
      .union([
        z.literal(8000),
        z.literal(16000),
        z.literal(22050),
        z.literal(24000),
        z.literal(32000),
        z.literal(44100),
      ])
      .optional(),
    bitrate: z.union([z.literal(32000), z.literal(64000), z.literal(128000), z.literal(256000)]).optional(),
    channel: z.union([z.literal(1), z.literal(2)]).optional(),
  })
  .strict();

/**
 * `zMinimaxMusicV2Input` (fal-ai/minimax-music/v2). The schema allows a prompt
 * of 2000 characters; its own description (and fal's page) says 10-300, the
 * limit the registry keeps.
 */
export const minimaxMusicV2Input = z
  .object({
    prompt: z.string().min(10).max(2000),
    lyrics_prompt: z.string().min(10).max(3000),
    audio_setting: minimaxAudioSetting.optional(),
  })
  .strict();

/** `AudioSetting25` (endpoints.ts). */
const minimax25AudioSetting = z
  .object({
    format: z.enum(['mp3', 'wav', 'pcm']).optional(),
    sample_rate: z.union([z.literal(16000), z.literal(24000), z.literal(32000), z.literal(44100)]).optional(),
    bitrate: z.union([z.literal(32000), z.literal(64000), z.literal(128000), z.literal(256000)]).optional(),
  })
  .strict();

/**
 * `MinimaxMusicV25Input` (fal-ai/minimax-music/v2.5), with the limits of its
 * field descriptions ("Max 2000 characters", "Max 3500 characters. Required
 * when is_instrumental is false and lyrics_optimizer is false").
 */
export const minimaxMusicV25Input = z
  .object({
    prompt: z.string().max(2000),
    lyrics: z.string().max(3500).optional(),
    is_instrumental: z.boolean().optional(),
    lyrics_optimizer: z.boolean().optional(),
    audio_setting: minimax25AudioSetting.optional(),
  })
  .strict()
  .refine((i) => i.is_instrumental || i.lyrics_optimizer || (i.lyrics ?? '') !== '', {
    path: ['lyrics'],
    message: 'lyrics are required when is_instrumental and lyrics_optimizer are false',
  });

/** `{ audio: File }`: MiniMax 2.0 (`zMinimaxMusicV2Output`) and 2.5 (`DiaOutput`). */
export const minimaxMusicOutput = z.object({ audio: falFile });

/** `zMusicGeneratorInput` (CassetteAI/music-generator). */
export const cassetteInput = z.object({ prompt: z.string(), duration: z.int().gte(10).lte(180) }).strict();

/** `zMusicGeneratorOutput`: the field is `audio_file`. */
export const cassetteOutput = z.object({ audio_file: falFile });

/** `zStableAudio25TextToAudioInput` (fal-ai/stable-audio-25/text-to-audio). */
export const stableAudio25Input = z
  .object({
    prompt: z.string(),
    seconds_total: z.int().gte(1).lte(190).optional(),
    num_inference_steps: z.int().gte(4).lte(8).optional(),
    guidance_scale: z.int().gte(1).lte(25).optional(),
    sync_mode: z.boolean().optional(),
    seed: z.int().optional(),
  })
  .strict();

/** `zStableAudio25TextToAudioOutput`. */
export const stableAudio25Output = z.object({ seed: z.int(), audio: falFile });

/** Each text endpoint's input and output schema, by endpoint. */
export const FAL_TEXT_SCHEMAS = {
  'fal-ai/ace-step': { input: aceStepInput, output: aceStepOutput },
  'fal-ai/minimax-music/v2': { input: minimaxMusicV2Input, output: minimaxMusicOutput },
  'fal-ai/minimax-music/v2.5': { input: minimaxMusicV25Input, output: minimaxMusicOutput },
  'CassetteAI/music-generator': { input: cassetteInput, output: cassetteOutput },
  'fal-ai/stable-audio-25/text-to-audio': { input: stableAudio25Input, output: stableAudio25Output },
} as const;

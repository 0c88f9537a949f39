/**
 * Each registered model's text-to-music input as fal documents it, and the
 * file each answers with. The fields and their limits are fal's own (its model
 * pages and the OpenAPI types of its `@fal-ai/client`, fal-js
 * `libs/client/src/types/audio/zod.gen.ts` and `types/endpoints.ts`); the
 * contract tests hold every input to a copy of those schemas (fal-schemas.ts).
 * Only documented fields are sent. None of these models has a tempo or key
 * field: they reach it inside the description, where the workflow put them
 * (`120 bpm, A minor`).
 */
import { musicModel } from '@tunesmith/shared/models';
import { MusicProviderError, type TextToMusicRequest } from '../../domain/generations/music-provider';

/** What ACE-Step reads as "no vocals" in place of lyrics. */
const ACE_STEP_INSTRUMENTAL = '[instrumental]';

/**
 * The best sound each MiniMax model documents: 44.1 kHz (2.0 defaults to 32 kHz
 * MP3 at 128 kbps), lossless where it can (2.0 writes FLAC, 2.5 WAV). The
 * bitrate only matters to MP3, but fal documents it with the format.
 */
const MINIMAX_2_AUDIO = { format: 'flac', sample_rate: 44100, bitrate: 256000 } as const;
const MINIMAX_2_5_AUDIO = { format: 'wav', sample_rate: 44100, bitrate: 256000 } as const;

const refused = (message: string): never => {
  throw new MusicProviderError(message, 'rejected');
};

/** The seconds asked of a model that takes a length; `whole` where fal's schema takes an integer. */
function seconds(request: TextToMusicRequest, name: string, whole = true): number {
  if (request.duration === null) return refused(`${name} needs a duration`);
  return whole ? Math.round(request.duration) : request.duration;
}

/** The endpoint and input of a text-to-music request, by the model it names. */
export function falTextToMusic(request: TextToMusicRequest): {
  endpoint: string;
  input: Record<string, unknown>;
} {
  const model = musicModel(request.model);
  if (!model) return refused(`Unknown model ${request.model}`);
  const endpoint = model.endpoints.text;
  const { tags, lyrics } = request;
  const instrumental = request.instrumental === true;
  switch (model.id) {
    case 'ace-step':
      // fal-ai/ace-step: tags, lyrics, duration (5-240 s, a number).
      return {
        endpoint,
        input: {
          tags,
          lyrics: instrumental ? ACE_STEP_INSTRUMENTAL : lyrics,
          duration: seconds(request, model.name, false),
        },
      };
    case 'minimax-music-2':
      // fal-ai/minimax-music/v2: prompt (10-300 chars documented), lyrics_prompt (required, 10-3000),
      // audio_setting. No duration and no instrumental mode: it always sings.
      if (instrumental || !lyrics.trim()) return refused(`${model.name} always sings: it needs lyrics`);
      return { endpoint, input: { prompt: tags, lyrics_prompt: lyrics, audio_setting: MINIMAX_2_AUDIO } };
    case 'minimax-music-2.5':
      // fal-ai/minimax-music/v2.5: prompt (max 2000), lyrics (max 3500; required unless instrumental),
      // is_instrumental, audio_setting. No duration.
      if (instrumental || !lyrics.trim())
        return { endpoint, input: { prompt: tags, is_instrumental: true, audio_setting: MINIMAX_2_5_AUDIO } };
      return {
        endpoint,
        input: { prompt: tags, lyrics, is_instrumental: false, audio_setting: MINIMAX_2_5_AUDIO },
      };
    case 'cassetteai':
      // CassetteAI/music-generator: prompt, duration (required, 10-180 s). Instrumental only.
      return { endpoint, input: { prompt: tags, duration: seconds(request, model.name) } };
    case 'stable-audio-2.5':
      // fal-ai/stable-audio-25/text-to-audio: prompt, seconds_total (1-190), always sent: its default is 190.
      return { endpoint, input: { prompt: tags, seconds_total: seconds(request, model.name) } };
    default:
      return refused(`${model.name} has no text-to-music input here`);
  }
}

/**
 * The URL of the audio a finished job returned: `audio` (ACE-Step, MiniMax,
 * Stable Audio) or `audio_file` (CassetteAI), each a fal File `{ url, ... }`.
 */
export function musicFileUrl(data: unknown): string | undefined {
  const out = data as { audio?: { url?: unknown } | null; audio_file?: { url?: unknown } | null } | null;
  const url = out?.audio?.url ?? out?.audio_file?.url;
  return typeof url === 'string' && url ? url : undefined;
}

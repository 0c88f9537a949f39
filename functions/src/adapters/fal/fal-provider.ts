/**
 * The music provider on fal.ai through `@fal-ai/client` (see shared/notes/fal.md):
 * text by each registered model's endpoint and input (fal-model-inputs.ts),
 * `fal-ai/ace-step/audio-to-audio` (remix) for uploads,
 * `openrouter/router` for the lyrics helper. With `baseUrl` (FAL_BASE_URL) set, a
 * requestMiddleware sends every request to `${baseUrl}/${host}${path}${search}`
 * instead (the embedded provider of local/).
 */
import type { RequestMiddleware } from '@fal-ai/client';
import {
  MUSIC_ENDPOINTS,
  type MusicJobKind,
  type MusicJobStatus,
  type MusicProvider,
  MusicProviderError,
  TRANSCRIPTION_ENDPOINT,
  type TranscribedWord,
} from '../../domain/generations/music-provider';
import { falTextToMusic, musicFileUrl } from './fal-model-inputs';

// The names live with the port: a track's provenance records the endpoint it was made on.
export const FAL_TEXT_ENDPOINT = MUSIC_ENDPOINTS.text;
export const FAL_AUDIO_ENDPOINT = MUSIC_ENDPOINTS.audio;
export const FAL_EXTEND_ENDPOINT = MUSIC_ENDPOINTS.extend;
export const FAL_REPAINT_ENDPOINT = MUSIC_ENDPOINTS.repaint;
export const FAL_LYRICS_ENDPOINT = 'openrouter/router';
export const DEFAULT_LYRICS_MODEL = 'google/gemini-2.5-flash';

export interface FalMusicProviderOptions {
  /** The fal API key (from site settings, or env `FAL_KEY`; the caller decides). */
  key: string;
  /** `FAL_BASE_URL`: when set, every request goes there instead of fal's hosts. */
  baseUrl?: string;
  /** LLM behind openrouter/router for lyrics. */
  lyricsModel?: string;
  /** Poll interval while waiting for the lyrics job (default 500 ms). */
  pollIntervalMs?: number;
  /**
   * How long the lyrics call may take before it is given up (and cancelled at
   * fal): below the API function's own timeout (default LYRICS_DEADLINE_MS).
   */
  lyricsTimeoutMs?: number;
  /** Poll interval while waiting for a transcription (default 1 s). */
  transcriptionPollMs?: number;
  /** How long a transcription may take (default TRANSCRIPTION_DEADLINE_MS). */
  transcriptionTimeoutMs?: number;
  /** Extra headers on every request (tests use the embedded provider's failure header). */
  headers?: Record<string, string>;
}

/** Rewrites `https://host/path?q` to `${baseUrl}/host/path?q`; leaves requests alone without a base URL. */
export function falBaseUrlMiddleware(
  baseUrl: string | undefined,
  headers?: Record<string, string>,
): RequestMiddleware {
  const base = baseUrl?.replace(/\/+$/, '');
  return async (request) => {
    const withHeaders = headers ? { ...request, headers: { ...request.headers, ...headers } } : request;
    if (!base) return withHeaders;
    const u = new URL(request.url);
    return { ...withHeaders, url: `${base}/${u.host}${u.pathname}${u.search}` };
  };
}

/** The endpoint a job of each kind was submitted to: the client's status, result and cancel calls need it. */
export const FAL_ENDPOINTS: Readonly<Record<MusicJobKind, string>> = MUSIC_ENDPOINTS;

/** Where a job is followed: the endpoint it was submitted to, else (an older job) its kind's. */
const endpointOf = (kind: MusicJobKind, endpoint?: string) => endpoint ?? FAL_ENDPOINTS[kind];

const STATUS: Record<string, MusicJobStatus> = {
  IN_QUEUE: 'queued',
  IN_PROGRESS: 'running',
  COMPLETED: 'completed',
};

type FalSdk = typeof import('@fal-ai/client');

/** The client's HTTP errors (its `ApiError`), recognised once the client is loaded. */
let ApiErrorClass: FalSdk['ApiError'] | undefined;

/** Maps the client's errors to the domain's typed error. */
function providerError(
  error: unknown,
  during: 'submit' | 'status' | 'result' | 'cancel' | 'lyrics' | 'transcribe',
): never {
  if (error instanceof MusicProviderError) throw error;
  if (ApiErrorClass && error instanceof ApiErrorClass) {
    const status = error.status;
    const transient = status === 429 || status >= 502;
    // A completed job whose result call errors is a failed job (fal has no FAILED status).
    const reason = transient
      ? 'unavailable'
      : during === 'result'
        ? 'failed'
        : status >= 400 && status < 500 && during !== 'status'
          ? 'rejected'
          : 'unavailable';
    throw new MusicProviderError(
      `Music provider ${during} failed (${status}): ${error.message}`,
      reason,
      status,
      error.body,
    );
  }
  throw new MusicProviderError(
    `Music provider ${during} failed: ${error instanceof Error ? error.message : String(error)}`,
    'unavailable',
  );
}

/**
 * The lyrics call's deadline: the generation API function has 10 s, so the
 * answer (the spec's 'Failed to generate lyrics. Please try again.') goes out
 * before API Gateway's bare timeout, and the job stops billing at fal.
 */
export const LYRICS_DEADLINE_MS = 8_000;

/** How long a timed transcription may take: below the lyrics step function's 240 s. */
export const TRANSCRIPTION_DEADLINE_MS = 200_000;

/** fal-ai/whisper's word chunks (`{ text, timestamp: [start, end] }`) as timed words; others are left out. */
export function heardWords(data: unknown): TranscribedWord[] {
  const chunks = (data as { chunks?: unknown } | null)?.chunks;
  if (!Array.isArray(chunks))
    throw new MusicProviderError('The transcription returned no chunks', 'failed', undefined, data);
  const words: TranscribedWord[] = [];
  for (const chunk of chunks as Array<{ text?: unknown; timestamp?: unknown }>) {
    const [start, end] = Array.isArray(chunk?.timestamp) ? chunk.timestamp : [];
    const text = typeof chunk?.text === 'string' ? chunk.text.trim() : '';
    // whisper leaves the end of a last chunk it could not place as null.
    if (!text || typeof start !== 'number' || !Number.isFinite(start)) continue;
    words.push({ text, start, end: typeof end === 'number' && Number.isFinite(end) ? end : start });
  }
  return words;
}

const LYRICS_SYSTEM_PROMPT = [
  'You write song lyrics for a music generator.',
  'Answer with the lyrics only: no title, no commentary.',
  'Mark every section on its own line with [verse], [chorus] or [bridge].',
  'Keep the lyrics singable in the requested number of seconds (about two short lines per 10 seconds).',
].join(' ');

export function falMusicProvider(options: FalMusicProviderOptions): MusicProvider {
  // The client is loaded with the first call: most requests of the groups that hold a provider make none.
  let loaded: ReturnType<typeof load> | undefined;
  const load = async () => {
    const sdk = await import('@fal-ai/client');
    ApiErrorClass = sdk.ApiError;
    const fal = sdk.createFalClient({
      credentials: options.key,
      requestMiddleware: falBaseUrlMiddleware(options.baseUrl, options.headers),
    });
    // The client's endpoint types are per endpoint; the adapter builds the inputs itself.
    const queue = fal.queue as unknown as {
      submit(
        endpoint: string,
        o: { input: Record<string, unknown>; webhookUrl?: string },
      ): Promise<{ request_id: string }>;
      status(endpoint: string, o: { requestId: string; logs: boolean }): Promise<{ status: string }>;
      result(endpoint: string, o: { requestId: string }): Promise<{ data: unknown; requestId: string }>;
      cancel(endpoint: string, o: { requestId: string }): Promise<void>;
    };
    const subscribe = fal.subscribe as unknown as (
      endpoint: string,
      o: { input: Record<string, unknown>; pollInterval?: number; timeout?: number },
    ) => Promise<{ data: unknown }>;
    return { queue, subscribe };
  };
  const client = () => {
    loaded ??= load();
    return loaded;
  };

  const submit = async (endpoint: string, input: Record<string, unknown>, webhookUrl?: string) => {
    try {
      const { request_id } = await (await client()).queue.submit(endpoint, {
        input,
        ...(webhookUrl ? { webhookUrl } : {}),
      });
      return { requestId: request_id };
    } catch (error) {
      return providerError(error, 'submit');
    }
  };

  return {
    submitTextToMusic: async (request) => {
      const { endpoint, input } = falTextToMusic(request);
      return submit(endpoint, input, request.webhookUrl);
    },

    submitAudioToMusic: ({ audioUrl, tags, lyrics, originalTags, webhookUrl }) =>
      submit(
        FAL_AUDIO_ENDPOINT,
        { audio_url: audioUrl, edit_mode: 'remix', tags, lyrics, original_tags: originalTags },
        webhookUrl,
      ),

    submitExtend: ({ audioUrl, tags, lyrics, before, after, webhookUrl }) =>
      submit(
        FAL_EXTEND_ENDPOINT,
        {
          audio_url: audioUrl,
          tags,
          lyrics,
          extend_before_duration: before,
          extend_after_duration: after,
        },
        webhookUrl,
      ),

    submitRepaint: ({ audioUrl, tags, lyrics, start, end, variance, webhookUrl }) =>
      submit(
        FAL_REPAINT_ENDPOINT,
        {
          audio_url: audioUrl,
          tags,
          lyrics,
          // Both counted from the song's start (fal's default `*_relative_to`).
          start_time: start,
          end_time: end,
          variance,
        },
        webhookUrl,
      ),

    // fal-ai/demucs: input audio_url, model, stems, output_format ("wav" | "mp3"; fal's client types, decision
    // 048); output one File ({ url, ... }) or null per stem. WAV is asked for: the stems are marked and measured.
    submitStems: ({ audioUrl, model, stems, webhookUrl }) =>
      submit(
        MUSIC_ENDPOINTS.stems,
        { audio_url: audioUrl, model, stems: [...stems], output_format: 'wav' },
        webhookUrl,
      ),

    async stemsResult(requestId) {
      let data: unknown;
      try {
        data = (await (await client()).queue.result(MUSIC_ENDPOINTS.stems, { requestId })).data;
      } catch (error) {
        return providerError(error, 'result');
      }
      const stems: Record<string, string> = {};
      for (const [name, file] of Object.entries((data ?? {}) as Record<string, unknown>)) {
        const url = (file as { url?: unknown } | null)?.url;
        if (typeof url === 'string' && url) stems[name] = url;
      }
      if (!Object.keys(stems).length)
        throw new MusicProviderError('The provider returned no stems', 'failed', undefined, data);
      return { stems };
    },

    async status(kind, requestId, endpoint) {
      let raw: string;
      try {
        raw = (await (await client()).queue.status(endpointOf(kind, endpoint), { requestId, logs: false }))
          .status;
      } catch (error) {
        return providerError(error, 'status');
      }
      const status = STATUS[raw];
      if (!status) throw new MusicProviderError(`Unknown job status ${raw}`, 'unavailable');
      return status;
    },

    async result(kind, requestId, endpoint) {
      let data: unknown;
      try {
        data = (await (await client()).queue.result(endpointOf(kind, endpoint), { requestId })).data;
      } catch (error) {
        return providerError(error, 'result');
      }
      const out = data as { seed?: unknown; duration?: unknown } | null;
      const audioUrl = musicFileUrl(data);
      if (typeof audioUrl !== 'string' || !audioUrl)
        throw new MusicProviderError('The provider returned no audio', 'failed', undefined, data);
      return {
        audioUrl,
        seed: typeof out?.seed === 'number' ? out.seed : 0,
        ...(typeof out?.duration === 'number' ? { duration: out.duration } : {}),
      };
    },

    async cancel(kind, requestId, endpoint) {
      try {
        await (await client()).queue.cancel(endpointOf(kind, endpoint), { requestId });
      } catch (error) {
        providerError(error, 'cancel');
      }
    },

    async transcribe({ audioUrl }) {
      let data: unknown;
      try {
        data = (
          await (
            await client()
          ).subscribe(TRANSCRIPTION_ENDPOINT, {
            // No language: the lyrics may be in any, and whisper finds it.
            input: { audio_url: audioUrl, task: 'transcribe', chunk_level: 'word' },
            pollInterval: options.transcriptionPollMs ?? 1000,
            // Below the lyrics step's own timeout; the client cancels the job at fal when it passes.
            timeout: options.transcriptionTimeoutMs ?? TRANSCRIPTION_DEADLINE_MS,
          })
        ).data;
      } catch (error) {
        return providerError(error, 'transcribe');
      }
      return heardWords(data);
    },

    async writeLyrics({ prompt, duration }) {
      let data: unknown;
      try {
        data = (
          await (
            await client()
          ).subscribe(FAL_LYRICS_ENDPOINT, {
            input: {
              prompt: `${prompt}\n\nLength: ${Math.round(duration)} seconds.`,
              model: options.lyricsModel ?? DEFAULT_LYRICS_MODEL,
              system_prompt: LYRICS_SYSTEM_PROMPT,
              temperature: 0.8,
              max_tokens: 800,
            },
            pollInterval: options.pollIntervalMs ?? 500,
            // The client cancels the job at fal and rejects once this passes.
            timeout: options.lyricsTimeoutMs ?? LYRICS_DEADLINE_MS,
          })
        ).data;
      } catch (error) {
        return providerError(error, 'lyrics');
      }
      const output = (data as { output?: unknown } | null)?.output;
      if (typeof output !== 'string' || !output.trim())
        throw new MusicProviderError('The provider returned no lyrics', 'failed', undefined, data);
      return output.trim();
    },
  };
}

/**
 * The embedded provider's other music models (shared/src/models.ts): MiniMax
 * Music 2.0 and 2.5, CassetteAI and Stable Audio 2.5, each with fal's input
 * (its limits refused with a 422 as fal refuses them) and fal's output, and
 * real audio from the same synthesiser as ACE-Step's, played by a palette of
 * the model's own (instruments, tempo feel, mix and space) so that a listener
 * hears which model made a song:
 *
 * - MiniMax Music 2.0: a bright, punchy band around a lead voice that sings the
 *   lyrics; FLAC, mono unless `channel: 2`, at the asked sample rate.
 * - MiniMax Music 2.5: a fuller arrangement (wide saw pads, sevenths, shaker),
 *   sung or instrumental (`is_instrumental`); WAV, stereo.
 * - CassetteAI: a beat (heavy kick, sub bass, plucks), instrumental; WAV 44.1 kHz stereo.
 * - Stable Audio 2.5: slow, soft and spacious (sine pads, bells, echoes, few
 *   drums), instrumental; WAV 44.1 kHz stereo.
 *
 * MiniMax decides a song's length: here, the bars its lyrics take. The
 * renders are not at 48 kHz, so extend, repaint and separation never take
 * them for ACE-Step renders: separation splits them approximately. Their WAVs
 * carry the words they sing (`RenderMeta.sung`) for the embedded recogniser;
 * a FLAC's words are remembered by its samples (see `sampleDigest`).
 */
import { createHash } from 'node:crypto';
import { encodeFlac, int16Interleaved } from './flac';
import { writeLyrics } from './lyrics';
import {
  askedTempoAndKey,
  encodeWav,
  metaFor,
  parseLyrics,
  planFor,
  type RenderMeta,
  type RenderPlan,
  renderSteps,
  SAMPLE_RATE,
  type Style,
  type SungLyric,
} from './synth';

export const MINIMAX_2_ENDPOINT = 'fal-ai/minimax-music/v2';
export const MINIMAX_2_5_ENDPOINT = 'fal-ai/minimax-music/v2.5';
export const CASSETTE_ENDPOINT = 'CassetteAI/music-generator';
export const STABLE_AUDIO_ENDPOINT = 'fal-ai/stable-audio-25/text-to-audio';
export const MODEL_ENDPOINTS = [
  MINIMAX_2_ENDPOINT,
  MINIMAX_2_5_ENDPOINT,
  CASSETTE_ENDPOINT,
  STABLE_AUDIO_ENDPOINT,
] as const;
export type ModelEndpoint = (typeof MODEL_ENDPOINTS)[number];

export const isModelEndpoint = (endpoint: string): endpoint is ModelEndpoint =>
  (MODEL_ENDPOINTS as readonly string[]).includes(endpoint);

// ---------------------------------------------------------------- validation (fal's 422 details)

interface Detail {
  loc: Array<string>;
  msg: string;
  type: string;
  ctx?: Record<string, unknown>;
}

const at = (...loc: string[]) => ['body', ...loc];

function requiredString(input: Record<string, unknown>, field: string, errors: Detail[], loc = [field]) {
  const v = input[field];
  if (v === undefined) errors.push({ loc: at(...loc), msg: 'field required', type: 'value_error.missing' });
  else if (typeof v !== 'string')
    errors.push({ loc: at(...loc), msg: 'str type expected', type: 'type_error.str' });
}

function length(input: Record<string, unknown>, field: string, min: number, max: number, errors: Detail[]) {
  const v = input[field];
  if (typeof v !== 'string') return;
  if (v.length < min)
    errors.push({
      loc: at(field),
      msg: `ensure this value has at least ${min} characters`,
      type: 'value_error.any_str.min_length',
      ctx: { limit_value: min },
    });
  if (v.length > max)
    errors.push({
      loc: at(field),
      msg: `ensure this value has at most ${max} characters`,
      type: 'value_error.any_str.max_length',
      ctx: { limit_value: max },
    });
}

function integer(
  input: Record<string, unknown>,
  field: string,
  ge: number,
  le: number,
  errors: Detail[],
  required = false,
) {
  const v = input[field];
  if (v === undefined) {
    if (required) errors.push({ loc: at(field), msg: 'field required', type: 'value_error.missing' });
    return;
  }
  if (typeof v !== 'number' || !Number.isInteger(v))
    errors.push({ loc: at(field), msg: 'value is not a valid integer', type: 'type_error.integer' });
  else if (v < ge || v > le)
    errors.push({
      loc: at(field),
      msg: `ensure this value is between ${ge} and ${le}`,
      type: 'value_error.number.not_in_range',
      ctx: { ge, le },
    });
}

function boolean(input: Record<string, unknown>, field: string, errors: Detail[]) {
  const v = input[field];
  if (v !== undefined && typeof v !== 'boolean')
    errors.push({ loc: at(field), msg: 'value could not be parsed to a boolean', type: 'type_error.bool' });
}

function oneOf(value: unknown, allowed: readonly unknown[], loc: string[], errors: Detail[]) {
  if (value !== undefined && !allowed.includes(value))
    errors.push({
      loc: at(...loc),
      msg: `value is not one of ${allowed.map((a) => (typeof a === 'string' ? `'${a}'` : String(a))).join(', ')}`,
      type: 'type_error.enum',
      ctx: { enum_values: allowed },
    });
}

const BITRATES = [32000, 64000, 128000, 256000];

/**
 * MiniMax's `audio_setting`, its enums as fal documents them; the formats this
 * provider writes are FLAC (2.0) and WAV (2.5): asked for another (MP3, fal's
 * default, or raw PCM), it says so rather than answer a mislabelled file.
 */
function audioSetting(input: Record<string, unknown>, endpoint: ModelEndpoint, errors: Detail[]) {
  const setting = input.audio_setting;
  if (setting === undefined) return;
  if (!setting || typeof setting !== 'object' || Array.isArray(setting)) {
    errors.push({ loc: at('audio_setting'), msg: 'value is not a valid dict', type: 'type_error.dict' });
    return;
  }
  const s = setting as Record<string, unknown>;
  const v2 = endpoint === MINIMAX_2_ENDPOINT;
  const formats = v2 ? ['mp3', 'pcm', 'flac'] : ['mp3', 'wav', 'pcm'];
  const written = v2 ? 'flac' : 'wav';
  oneOf(s.format, formats, ['audio_setting', 'format'], errors);
  if (formats.includes(s.format as string) && s.format !== written)
    errors.push({
      loc: at('audio_setting', 'format'),
      msg: `the embedded provider writes ${written} only for this model`,
      type: 'value_error',
    });
  oneOf(
    s.sample_rate,
    v2 ? [8000, 16000, 22050, 24000, 32000, 44100] : [16000, 24000, 32000, 44100],
    ['audio_setting', 'sample_rate'],
    errors,
  );
  oneOf(s.bitrate, BITRATES, ['audio_setting', 'bitrate'], errors);
  if (v2) oneOf(s.channel, [1, 2], ['audio_setting', 'channel'], errors);
  else if (s.channel !== undefined)
    errors.push({
      loc: at('audio_setting', 'channel'),
      msg: 'extra fields not permitted',
      type: 'value_error.extra',
    });
}

/** fal's 422 details for an input to one of these models, or undefined when it is valid. */
export function validateModelInput(
  endpoint: ModelEndpoint,
  input: Record<string, unknown>,
): Detail[] | undefined {
  const errors: Detail[] = [];
  requiredString(input, 'prompt', errors);
  switch (endpoint) {
    case MINIMAX_2_ENDPOINT:
      // The schema's limits (its description says 10-300 for the prompt; fal's server holds it to 2000).
      length(input, 'prompt', 10, 2000, errors);
      requiredString(input, 'lyrics_prompt', errors);
      length(input, 'lyrics_prompt', 10, 3000, errors);
      audioSetting(input, endpoint, errors);
      break;
    case MINIMAX_2_5_ENDPOINT: {
      length(input, 'prompt', 1, 2000, errors);
      if (input.lyrics !== undefined && typeof input.lyrics !== 'string')
        errors.push({ loc: at('lyrics'), msg: 'str type expected', type: 'type_error.str' });
      length(input, 'lyrics', 0, 3500, errors);
      boolean(input, 'is_instrumental', errors);
      boolean(input, 'lyrics_optimizer', errors);
      const lyrics = typeof input.lyrics === 'string' ? input.lyrics.trim() : '';
      if (!lyrics && input.is_instrumental !== true && input.lyrics_optimizer !== true)
        errors.push({
          loc: at('lyrics'),
          msg: 'lyrics are required when is_instrumental and lyrics_optimizer are false',
          type: 'value_error',
        });
      audioSetting(input, endpoint, errors);
      break;
    }
    case CASSETTE_ENDPOINT:
      integer(input, 'duration', 10, 180, errors, true);
      break;
    case STABLE_AUDIO_ENDPOINT:
      integer(input, 'seconds_total', 1, 190, errors);
      integer(input, 'num_inference_steps', 4, 8, errors);
      integer(input, 'guidance_scale', 1, 25, errors);
      if (input.seed !== undefined && !Number.isInteger(input.seed))
        errors.push({ loc: at('seed'), msg: 'value is not a valid integer', type: 'type_error.integer' });
      boolean(input, 'sync_mode', errors);
      break;
  }
  return errors.length ? errors : undefined;
}

// ---------------------------------------------------------------- each model's sound

interface Palette {
  /** Style changes over the genre the prompt names. */
  style: Partial<Style>;
  /** Tempo feel: the genre's tempo times this, unless the prompt asks a tempo. */
  tempo: number;
  /** Echoes: delay (s), feedback and mix, 0 for none. */
  echo: { delay: number; feedback: number; mix: number };
  /** Stereo width: 0 mono-ish, 1 as rendered. */
  width: number;
  /** Sings the lyrics it is given. */
  sings: boolean;
}

export const PALETTES: Record<ModelEndpoint, Palette> = {
  [MINIMAX_2_ENDPOINT]: {
    style: {
      padWave: 'square',
      padLevel: 0.12,
      leadWave: 'square',
      bassWave: 'saw',
      bassStyle: 'eighths',
      groove: 'pop',
      hats16: true,
      brightness: 0.95,
      masterCutoff: 0,
      drumLevel: 1.2,
      crackle: false,
    },
    tempo: 1.06,
    echo: { delay: 0, feedback: 0, mix: 0 },
    width: 0.3,
    sings: true,
  },
  [MINIMAX_2_5_ENDPOINT]: {
    style: {
      padWave: 'saw',
      padLevel: 0.2,
      sevenths: true,
      shaker: true,
      bassWave: 'tri',
      bassStyle: 'walking',
      leadWave: 'bell',
      leadStyle: 'melody',
      brightness: 0.7,
      masterCutoff: 9000,
      drumLevel: 1,
    },
    tempo: 1,
    echo: { delay: 0.18, feedback: 0.2, mix: 0.12 },
    width: 1,
    sings: true,
  },
  [CASSETTE_ENDPOINT]: {
    style: {
      groove: 'boombap',
      padWave: 'tri',
      padLevel: 0.08,
      bassWave: 'sine',
      bassStyle: 'sub',
      leadWave: 'pluck',
      leadStyle: 'pluck',
      kickLength: 0.7,
      hats16: true,
      brightness: 0.45,
      masterCutoff: 6500,
      drumLevel: 1.35,
      voice: 0,
    },
    tempo: 0.95,
    echo: { delay: 0, feedback: 0, mix: 0 },
    width: 0.8,
    sings: false,
  },
  [STABLE_AUDIO_ENDPOINT]: {
    style: {
      groove: 'none',
      padWave: 'sine',
      padLevel: 0.3,
      bassWave: 'sine',
      bassStyle: 'root',
      leadWave: 'bell',
      leadStyle: 'bells',
      brightness: 0.2,
      masterCutoff: 3000,
      drumLevel: 0.35,
      swing: 0,
      voice: 0,
      crackle: false,
    },
    tempo: 0.75,
    echo: { delay: 0.42, feedback: 0.45, mix: 0.35 },
    width: 1,
    sings: false,
  },
};

/** Bars before the first line and after the last (the synthesiser's intro and a closing two). */
const FRAME_BARS = 4;

/**
 * How long a MiniMax song is: the bars its lyrics take at its tempo (as the
 * synthesiser paces them: a line spans as many bars as its syllables need),
 * with an intro and an ending; 60 s for an instrumental; 10 s to 240 s.
 */
export function lyricsSeconds(lyrics: string, bpm: number): number {
  const lines = parseLyrics(lyrics);
  if (!lines.length) return 60;
  let bars = FRAME_BARS;
  for (const line of lines) {
    const perBar = line.section === 'chorus' ? 6 : line.section === 'bridge' ? 5 : 8;
    bars += Math.max(1, Math.ceil(line.syllables.length / perBar));
  }
  return Math.min(240, Math.max(10, Math.round((bars * 240) / bpm)));
}

/** What one of these models is asked, read from its input (validated). */
export interface ModelAsk {
  prompt: string;
  lyrics: string;
  /** Seconds, or undefined where the model decides. */
  seconds?: number;
  sampleRate: number;
  channels: 1 | 2;
  format: 'wav' | 'flac';
}

export function askOf(endpoint: ModelEndpoint, input: Record<string, unknown>, seed: number): ModelAsk {
  const prompt = String(input.prompt);
  const setting = (input.audio_setting ?? {}) as Record<string, unknown>;
  switch (endpoint) {
    case MINIMAX_2_ENDPOINT:
      return {
        prompt,
        lyrics: String(input.lyrics_prompt),
        sampleRate: (setting.sample_rate as number | undefined) ?? 32000,
        channels: setting.channel === 2 ? 2 : 1,
        format: 'flac',
      };
    case MINIMAX_2_5_ENDPOINT: {
      const given = typeof input.lyrics === 'string' ? input.lyrics.trim() : '';
      const lyrics =
        input.is_instrumental === true ? '' : given || writeLyrics({ prompt, duration: 60, seed }); // lyrics_optimizer: written from the prompt
      return {
        prompt,
        lyrics,
        sampleRate: (setting.sample_rate as number | undefined) ?? 44100,
        channels: 2,
        format: 'wav',
      };
    }
    case CASSETTE_ENDPOINT:
      return {
        prompt,
        lyrics: '',
        seconds: input.duration as number,
        sampleRate: 44100,
        channels: 2,
        format: 'wav',
      };
    case STABLE_AUDIO_ENDPOINT:
      return {
        prompt,
        lyrics: '',
        seconds: (input.seconds_total as number | undefined) ?? 190,
        sampleRate: 44100,
        channels: 2,
        format: 'wav',
      };
  }
}

/** The synthesiser's plan of a model's song: the prompt's genre in the model's palette, its length. */
export function modelPlan(endpoint: ModelEndpoint, ask: ModelAsk, seed: number): RenderPlan {
  const palette = PALETTES[endpoint];
  const lyrics = palette.sings && ask.lyrics.trim() ? ask.lyrics : '[instrumental]';
  const plan = planFor({ tags: ask.prompt, lyrics, duration: ask.seconds ?? 60, seed });
  const asked = askedTempoAndKey(ask.prompt);
  const bpm = asked.bpm ?? Math.round(plan.style.bpm * palette.tempo);
  plan.style = { ...plan.style, ...palette.style, bpm };
  // A singer the prompt does not name is MiniMax's own: a female lead.
  if (palette.sings && plan.style.voice === 0 && lyrics !== '[instrumental]') plan.style.voice = 1;
  const seconds = ask.seconds ?? lyricsSeconds(lyrics === '[instrumental]' ? '' : lyrics, bpm);
  // Exactly the seconds asked (the synthesiser's own floor is 5 s; Stable Audio goes down to 1).
  plan.totalSamples = Math.round(seconds * SAMPLE_RATE);
  return plan;
}

/** Echoes and width: the model's space. */
function space(channels: Float32Array[], palette: Palette): void {
  const [left, right] = channels as [Float32Array, Float32Array];
  const { delay, feedback, mix } = palette.echo;
  if (mix > 0) {
    const d = Math.round(delay * SAMPLE_RATE);
    // Ping-pong: each echo crosses to the other side.
    const l = left.slice();
    const r = right.slice();
    for (let i = d; i < l.length; i++) {
      l[i] = (l[i] as number) + feedback * (r[i - d] as number);
      r[i] = (r[i] as number) + feedback * (l[i - d] as number);
    }
    for (let i = 0; i < left.length; i++) {
      left[i] = (1 - mix) * (left[i] as number) + mix * (l[i] as number);
      right[i] = (1 - mix) * (right[i] as number) + mix * (r[i] as number);
    }
  }
  if (palette.width < 1) {
    for (let i = 0; i < left.length; i++) {
      const mid = ((left[i] as number) + (right[i] as number)) / 2;
      const side = (((left[i] as number) - (right[i] as number)) / 2) * palette.width;
      left[i] = mid + side;
      right[i] = mid - side;
    }
  }
  // Back under full scale (the echoes add up).
  let peak = 0;
  for (const c of channels) for (const v of c) peak = Math.max(peak, Math.abs(v));
  if (peak > 0.891)
    for (const c of channels) for (let i = 0; i < c.length; i++) c[i] = ((c[i] as number) * 0.891) / peak;
}

/** Linear resampling from the synthesiser's 48 kHz. */
function toRate(channel: Float32Array, rate: number): Float32Array {
  if (rate === SAMPLE_RATE) return channel;
  const ratio = SAMPLE_RATE / rate;
  const out = new Float32Array(Math.round(channel.length / ratio));
  for (let i = 0; i < out.length; i++) {
    const x = i * ratio;
    const k = Math.floor(x);
    const a = channel[k] ?? 0;
    const b = channel[k + 1] ?? a;
    out[i] = a + (b - a) * (x - k);
  }
  return out;
}

export interface ModelRender {
  bytes: Uint8Array;
  format: 'wav' | 'flac';
  contentType: string;
  seconds: number;
  sampleRate: number;
  channels: number;
  bpm: number;
  /** The words sung, seconds from the start. */
  sung: SungLyric[];
  /** For a FLAC: the digest of its 16-bit samples, by which its words are known again once it is a WAV. */
  digest?: string;
}

/** Renders a model's song as a generator (the server drives it in slices). */
export function* modelRenderSteps(
  endpoint: ModelEndpoint,
  ask: ModelAsk,
  seed: number,
): Generator<void, ModelRender, void> {
  const plan = modelPlan(endpoint, ask, seed);
  const sink: { sung?: SungLyric[] } = {};
  const rendered = yield* renderSteps(plan, sink);
  space(rendered, PALETTES[endpoint]);
  yield;
  let channels = rendered.map((c) => toRate(c, ask.sampleRate));
  if (ask.channels === 1) {
    const [l, r] = channels as [Float32Array, Float32Array];
    channels = [l.map((v, i) => (v + (r[i] as number)) / 2)];
  }
  yield;
  const sung = sink.sung ?? [];
  const meta: RenderMeta = metaFor(plan, ask.prompt, sung);
  const common = {
    seconds: (channels[0]?.length ?? 0) / ask.sampleRate,
    sampleRate: ask.sampleRate,
    channels: channels.length,
    bpm: plan.style.bpm,
    sung,
  };
  if (ask.format === 'flac')
    return {
      ...common,
      bytes: encodeFlac(channels, ask.sampleRate),
      format: 'flac',
      contentType: 'audio/flac',
      digest: sampleDigest(int16Interleaved(channels)),
    };
  return {
    ...common,
    bytes: encodeWav(channels, ask.sampleRate, meta),
    format: 'wav',
    contentType: 'audio/wav',
  };
}

/** SHA-256 of 16-bit samples as a WAV's data chunk holds them (little-endian, interleaved). */
export function sampleDigest(samples: Int16Array): string {
  const bytes = new Uint8Array(samples.length * 2);
  const view = new DataView(bytes.buffer);
  for (let i = 0; i < samples.length; i++) view.setInt16(i * 2, samples[i] as number, true);
  return createHash('sha256').update(bytes).digest('hex');
}

/** The digest of a 16-bit PCM WAV's samples (its data chunk), or undefined for another file. */
export function wavSampleDigest(wav: Uint8Array): string | undefined {
  const view = new DataView(wav.buffer, wav.byteOffset, wav.byteLength);
  const id = (i: number) => String.fromCharCode(...wav.subarray(i, i + 4));
  if (wav.length < 12 || id(0) !== 'RIFF' || id(8) !== 'WAVE') return undefined;
  let bits = 0;
  for (let i = 12; i + 8 <= wav.length; ) {
    const size = view.getUint32(i + 4, true);
    if (id(i) === 'fmt ') bits = view.getUint16(i + 8 + 14, true);
    if (id(i) === 'data') {
      if (bits !== 16) return undefined;
      return createHash('sha256')
        .update(wav.subarray(i + 8, Math.min(wav.length, i + 8 + size)))
        .digest('hex');
    }
    i += 8 + size + (size % 2);
  }
  return undefined;
}

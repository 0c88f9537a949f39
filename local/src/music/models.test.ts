import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAL_TEXT_SCHEMAS } from '../../../functions/src/adapters/fal/fal-schemas';
import { wavMaster } from '../../../functions/src/workflow/provider-audio';
import {
  CASSETTE_ENDPOINT,
  lyricsSeconds,
  MINIMAX_2_5_ENDPOINT,
  MINIMAX_2_ENDPOINT,
  PALETTES,
  STABLE_AUDIO_ENDPOINT,
} from './models';
import { type MusicProvider, startMusicProvider } from './provider-server';
import { type DecodedAudio, decodeWav } from './restyle';
import { readWavMeta } from './synth';

let provider: MusicProvider;

beforeAll(async () => {
  provider = await startMusicProvider({ minProcessingMs: 50, queueMs: 10 });
});
afterAll(() => provider?.stop());

const queue = (path: string) => `${provider.url}/queue.fal.run/${path}`;

async function submit(endpoint: string, input: unknown): Promise<Response> {
  return fetch(queue(endpoint), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(input),
  });
}

/** Submits, waits for COMPLETED at the app's status URL (owner/alias), and answers the result. */
async function run(endpoint: string, input: unknown): Promise<Record<string, unknown>> {
  const submitted = await submit(endpoint, input);
  expect(submitted.status).toBe(200);
  const { request_id: id, status_url: statusUrl } = (await submitted.json()) as {
    request_id: string;
    status_url: string;
  };
  const app = endpoint.split('/').slice(0, 2).join('/');
  expect(statusUrl).toBe(queue(`${app}/requests/${id}/status`));
  for (;;) {
    const { status } = (await (await fetch(statusUrl)).json()) as { status: string };
    if (status === 'COMPLETED') break;
    await new Promise((r) => setTimeout(r, 20));
  }
  const result = await fetch(queue(`${app}/requests/${id}`));
  expect(result.status).toBe(200);
  return (await result.json()) as Record<string, unknown>;
}

const fileOf = (result: Record<string, unknown>) =>
  (result.audio ?? result.audio_file) as { url: string; content_type: string; file_size: number };

async function audioOf(result: Record<string, unknown>): Promise<{ bytes: Uint8Array; audio: DecodedAudio }> {
  const bytes = new Uint8Array(await (await fetch(fileOf(result).url)).arrayBuffer());
  // As Finish keeps it: a WAV as it came, a FLAC decoded to a WAV.
  const wav = await wavMaster(bytes);
  if (!wav) throw new Error('not audio Finish reads');
  return { bytes, audio: decodeWav(wav.wav) };
}

/** The spectral centroid (Hz) of the mix, over frames of 4096 samples: how bright it sounds. */
function centroid(audio: DecodedAudio): number {
  const n = 4096;
  const mono = (audio.channels[0] as Float32Array).map(
    (_, i) => audio.channels.reduce((sum, c) => sum + (c[i] as number), 0) / audio.channels.length,
  );
  let weighted = 0;
  let total = 0;
  const re = new Float64Array(n);
  const im = new Float64Array(n);
  for (let start = 0; start + n <= mono.length; start += n * 4) {
    for (let i = 0; i < n; i++) {
      re[i] = (mono[start + i] as number) * (0.5 - 0.5 * Math.cos((2 * Math.PI * i) / n));
      im[i] = 0;
    }
    fft(re, im);
    for (let k = 1; k < n / 2; k++) {
      const magnitude = Math.hypot(re[k] as number, im[k] as number);
      weighted += magnitude * ((k * audio.sampleRate) / n);
      total += magnitude;
    }
  }
  return weighted / total;
}

/** In-place radix-2 FFT. */
function fft(re: Float64Array, im: Float64Array): void {
  const n = re.length;
  for (let i = 1, j = 0; i < n; i++) {
    let bit = n >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j ^= bit;
    if (i < j) {
      [re[i], re[j]] = [re[j] as number, re[i] as number];
      [im[i], im[j]] = [im[j] as number, im[i] as number];
    }
  }
  for (let size = 2; size <= n; size <<= 1) {
    const angle = (-2 * Math.PI) / size;
    for (let start = 0; start < n; start += size) {
      for (let k = 0; k < size / 2; k++) {
        const c = Math.cos(angle * k);
        const s = Math.sin(angle * k);
        const a = start + k;
        const b = a + size / 2;
        const tr = (re[b] as number) * c - (im[b] as number) * s;
        const ti = (re[b] as number) * s + (im[b] as number) * c;
        re[b] = (re[a] as number) - tr;
        im[b] = (im[a] as number) - ti;
        re[a] = (re[a] as number) + tr;
        im[a] = (im[a] as number) + ti;
      }
    }
  }
}

const PROMPT = 'pop, upbeat, summer';
const LYRICS = '[verse]\nsunlight on the water\nwe run along the shore\n[chorus]\nhold on hold on tonight';

async function whisperHears(wav: Uint8Array): Promise<string[]> {
  // The recogniser fetches the audio by URL: a tiny server of one file.
  const http = await import('node:http');
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'audio/wav' }).end(wav);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  try {
    const out = await run('fal-ai/whisper', {
      audio_url: `http://127.0.0.1:${port}/song.wav`,
      chunk_level: 'word',
    });
    return (out.chunks as Array<{ text: string }>).map((c) => c.text.trim());
  } finally {
    await new Promise((r) => server.close(r));
  }
}

describe('MiniMax Music 2.0 (fal-ai/minimax-music/v2)', () => {
  it('sings the lyrics in a mono FLAC at the asked rate, as long as the lyrics take', async () => {
    const result = await run(MINIMAX_2_ENDPOINT, {
      prompt: PROMPT,
      lyrics_prompt: LYRICS,
      audio_setting: { format: 'flac', sample_rate: 44100, bitrate: 256000 },
    });
    FAL_TEXT_SCHEMAS[MINIMAX_2_ENDPOINT].output.strict().parse(result);
    expect(fileOf(result).content_type).toBe('audio/flac');
    const { bytes, audio } = await audioOf(result);
    expect(new TextDecoder().decode(bytes.subarray(0, 4))).toBe('fLaC');
    expect(fileOf(result).file_size).toBe(bytes.length);
    expect(audio.sampleRate).toBe(44100);
    expect(audio.channels).toHaveLength(1);
    const bpm = Math.round(112 * 1.08 * PALETTES[MINIMAX_2_ENDPOINT].tempo);
    const seconds = audio.channels[0]?.length ?? 0;
    // The synthesiser's own tempo for the genre moves by up to 2 bpm with the prompt.
    expect(seconds / 44100).toBeGreaterThanOrEqual(lyricsSeconds(LYRICS, bpm + 3) - 0.5);
    expect(seconds / 44100).toBeLessThanOrEqual(lyricsSeconds(LYRICS, bpm - 3) + 0.5);
    // The app keeps it as a WAV of the same samples; the recogniser hears the lyrics there.
    const kept = (await wavMaster(bytes))?.wav as Uint8Array;
    const heard = await whisperHears(kept);
    expect(heard.length).toBeGreaterThan(5);
    expect(heard.join(' ')).toMatch(/water|shore|tonight/);
  });

  it('answers the default sample rate (32 kHz) and stereo when asked for two channels', async () => {
    const result = await run(MINIMAX_2_ENDPOINT, {
      prompt: PROMPT,
      lyrics_prompt: LYRICS,
      audio_setting: { format: 'flac', channel: 2 },
    });
    const { audio } = await audioOf(result);
    expect(audio.sampleRate).toBe(32000);
    expect(audio.channels).toHaveLength(2);
  });

  it.each([
    [{ lyrics_prompt: LYRICS }, ['body', 'prompt'], 'value_error.missing'],
    [{ prompt: 'short', lyrics_prompt: LYRICS }, ['body', 'prompt'], 'value_error.any_str.min_length'],
    [
      { prompt: 'p'.repeat(2001), lyrics_prompt: LYRICS },
      ['body', 'prompt'],
      'value_error.any_str.max_length',
    ],
    [{ prompt: PROMPT }, ['body', 'lyrics_prompt'], 'value_error.missing'],
    [{ prompt: PROMPT, lyrics_prompt: 'la' }, ['body', 'lyrics_prompt'], 'value_error.any_str.min_length'],
    [
      { prompt: PROMPT, lyrics_prompt: 'l'.repeat(3001) },
      ['body', 'lyrics_prompt'],
      'value_error.any_str.max_length',
    ],
    [
      { prompt: PROMPT, lyrics_prompt: LYRICS, audio_setting: { format: 'ogg' } },
      ['body', 'audio_setting', 'format'],
      'type_error.enum',
    ],
    [
      { prompt: PROMPT, lyrics_prompt: LYRICS, audio_setting: { format: 'flac', sample_rate: 48000 } },
      ['body', 'audio_setting', 'sample_rate'],
      'type_error.enum',
    ],
    [
      { prompt: PROMPT, lyrics_prompt: LYRICS, audio_setting: { format: 'flac', bitrate: 320000 } },
      ['body', 'audio_setting', 'bitrate'],
      'type_error.enum',
    ],
    [
      { prompt: PROMPT, lyrics_prompt: LYRICS, audio_setting: { format: 'flac', channel: 6 } },
      ['body', 'audio_setting', 'channel'],
      'type_error.enum',
    ],
    [
      { prompt: PROMPT, lyrics_prompt: LYRICS, audio_setting: { format: 'mp3' } },
      ['body', 'audio_setting', 'format'],
      'value_error',
    ],
  ])('refuses %j with a 422 at %j', async (input, loc, type) => {
    const response = await submit(MINIMAX_2_ENDPOINT, input);
    expect(response.status).toBe(422);
    const { detail } = (await response.json()) as {
      detail: Array<{ loc: string[]; msg: string; type: string }>;
    };
    expect(detail).toContainEqual(expect.objectContaining({ loc, type, msg: expect.any(String) }));
  });
});

describe('MiniMax Music 2.5 (fal-ai/minimax-music/v2.5)', () => {
  it('sings in a stereo WAV at 44.1 kHz, its words in the file', async () => {
    const result = await run(MINIMAX_2_5_ENDPOINT, {
      prompt: PROMPT,
      lyrics: LYRICS,
      is_instrumental: false,
      audio_setting: { format: 'wav', sample_rate: 44100, bitrate: 256000 },
    });
    FAL_TEXT_SCHEMAS[MINIMAX_2_5_ENDPOINT].output.strict().parse(result);
    const { bytes, audio } = await audioOf(result);
    expect(audio.sampleRate).toBe(44100);
    expect(audio.channels).toHaveLength(2);
    expect(readWavMeta(bytes)?.sung?.map((w) => w[0])).toContain('water');
  });

  it('plays an instrumental when asked, and writes its own lyrics with lyrics_optimizer', async () => {
    const instrumental = await audioOf(
      await run(MINIMAX_2_5_ENDPOINT, {
        prompt: PROMPT,
        is_instrumental: true,
        audio_setting: { format: 'wav' },
      }),
    );
    expect(readWavMeta(instrumental.bytes)?.sung ?? []).toEqual([]);
    expect((instrumental.audio.channels[0]?.length ?? 0) / 44100).toBeCloseTo(60, 0);
    const written = await audioOf(
      await run(MINIMAX_2_5_ENDPOINT, {
        prompt: PROMPT,
        lyrics_optimizer: true,
        audio_setting: { format: 'wav' },
      }),
    );
    expect(readWavMeta(written.bytes)?.sung?.length).toBeGreaterThan(5);
  });

  it.each([
    [{ lyrics: LYRICS }, ['body', 'prompt'], 'value_error.missing'],
    [{ prompt: 'p'.repeat(2001), lyrics: LYRICS }, ['body', 'prompt'], 'value_error.any_str.max_length'],
    [{ prompt: PROMPT, lyrics: 'l'.repeat(3501) }, ['body', 'lyrics'], 'value_error.any_str.max_length'],
    [{ prompt: PROMPT }, ['body', 'lyrics'], 'value_error'],
    [{ prompt: PROMPT, is_instrumental: 'yes' }, ['body', 'is_instrumental'], 'type_error.bool'],
    [
      { prompt: PROMPT, lyrics: LYRICS, audio_setting: { format: 'flac' } },
      ['body', 'audio_setting', 'format'],
      'type_error.enum',
    ],
    [
      { prompt: PROMPT, lyrics: LYRICS, audio_setting: { format: 'wav', sample_rate: 22050 } },
      ['body', 'audio_setting', 'sample_rate'],
      'type_error.enum',
    ],
  ])('refuses %j with a 422 at %j', async (input, loc, type) => {
    const response = await submit(MINIMAX_2_5_ENDPOINT, input);
    expect(response.status).toBe(422);
    const { detail } = (await response.json()) as { detail: Array<{ loc: string[]; type: string }> };
    expect(detail).toContainEqual(expect.objectContaining({ loc, type }));
  });
});

describe('CassetteAI (CassetteAI/music-generator)', () => {
  it('plays an instrumental of the asked seconds, WAV 44.1 kHz stereo, as `audio_file`', async () => {
    const result = await run(CASSETTE_ENDPOINT, { prompt: PROMPT, duration: 12 });
    FAL_TEXT_SCHEMAS[CASSETTE_ENDPOINT].output.strict().parse(result);
    const { bytes, audio } = await audioOf(result);
    expect(audio.sampleRate).toBe(44100);
    expect(audio.channels).toHaveLength(2);
    expect(audio.channels[0]).toHaveLength(12 * 44100);
    expect(readWavMeta(bytes)?.sung ?? []).toEqual([]);
  });

  it.each([
    [{ duration: 30 }, ['body', 'prompt'], 'value_error.missing'],
    [{ prompt: PROMPT }, ['body', 'duration'], 'value_error.missing'],
    [{ prompt: PROMPT, duration: 9 }, ['body', 'duration'], 'value_error.number.not_in_range'],
    [{ prompt: PROMPT, duration: 181 }, ['body', 'duration'], 'value_error.number.not_in_range'],
    [{ prompt: PROMPT, duration: 30.5 }, ['body', 'duration'], 'type_error.integer'],
  ])('refuses %j with a 422 at %j', async (input, loc, type) => {
    const response = await submit(CASSETTE_ENDPOINT, input);
    expect(response.status).toBe(422);
    const { detail } = (await response.json()) as { detail: Array<{ loc: string[]; type: string }> };
    expect(detail).toContainEqual(expect.objectContaining({ loc, type }));
  });
});

describe('Stable Audio 2.5 (fal-ai/stable-audio-25/text-to-audio)', () => {
  it('plays the asked seconds (even 1), WAV 44.1 kHz stereo, with its seed', async () => {
    const result = await run(STABLE_AUDIO_ENDPOINT, { prompt: PROMPT, seconds_total: 7, seed: 1234 });
    FAL_TEXT_SCHEMAS[STABLE_AUDIO_ENDPOINT].output.strict().parse(result);
    expect(result.seed).toBe(1234);
    const { audio } = await audioOf(result);
    expect(audio.sampleRate).toBe(44100);
    expect(audio.channels).toHaveLength(2);
    expect(audio.channels[0]).toHaveLength(7 * 44100);
    const short = await audioOf(await run(STABLE_AUDIO_ENDPOINT, { prompt: PROMPT, seconds_total: 1 }));
    expect(short.audio.channels[0]).toHaveLength(44100);
  });

  it.each([
    [{ seconds_total: 10 }, ['body', 'prompt'], 'value_error.missing'],
    [{ prompt: PROMPT, seconds_total: 0 }, ['body', 'seconds_total'], 'value_error.number.not_in_range'],
    [{ prompt: PROMPT, seconds_total: 191 }, ['body', 'seconds_total'], 'value_error.number.not_in_range'],
    [
      { prompt: PROMPT, num_inference_steps: 9 },
      ['body', 'num_inference_steps'],
      'value_error.number.not_in_range',
    ],
    [{ prompt: PROMPT, guidance_scale: 26 }, ['body', 'guidance_scale'], 'value_error.number.not_in_range'],
    [{ prompt: PROMPT, seed: 1.5 }, ['body', 'seed'], 'type_error.integer'],
  ])('refuses %j with a 422 at %j', async (input, loc, type) => {
    const response = await submit(STABLE_AUDIO_ENDPOINT, input);
    expect(response.status).toBe(422);
    const { detail } = (await response.json()) as { detail: Array<{ loc: string[]; type: string }> };
    expect(detail).toContainEqual(expect.objectContaining({ loc, type }));
  });
});

describe('each model sounds like itself', () => {
  it('the same prompt comes out brightest on MiniMax 2.0, darkest on Stable Audio, CassetteAI between', async () => {
    const seconds = 12;
    const [minimax, cassette, stable] = await Promise.all([
      run(MINIMAX_2_ENDPOINT, {
        prompt: PROMPT,
        lyrics_prompt: LYRICS,
        audio_setting: { format: 'flac', sample_rate: 44100 },
      }).then(audioOf),
      run(CASSETTE_ENDPOINT, { prompt: PROMPT, duration: seconds }).then(audioOf),
      run(STABLE_AUDIO_ENDPOINT, { prompt: PROMPT, seconds_total: seconds }).then(audioOf),
    ]);
    const [bright, middle, dark] = [minimax, cassette, stable].map((r) => centroid(r.audio));
    // MiniMax takes no seed, so its song differs on every run: over 25 runs its centroid was 3.8 to 6.5 kHz,
    // CassetteAI's 2.7 to 3.2 kHz and Stable Audio's 0.8 to 1.4 kHz; the darkest MiniMax song is still a fifth brighter.
    expect(bright).toBeGreaterThan((middle as number) * 1.15);
    expect(middle).toBeGreaterThan((dark as number) * 1.5);
  });

  it('fails on demand by a tag in the prompt, as the other endpoints do', async () => {
    const response = await submit(CASSETTE_ENDPOINT, { prompt: 'pop, fail:submit', duration: 10 });
    expect(response.status).toBe(422);
  });
});

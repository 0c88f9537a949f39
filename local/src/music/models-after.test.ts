/**
 * What the app does with a song once a model made it, on the embedded
 * provider: its tempo and key are measured, its stems separated (approximately:
 * these renders are not ACE-Step's, and the separation says so), its words
 * heard where it sings.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseWav } from '../../../functions/src/domain/audio/wav';
import { inThreadAudioWork } from '../../../functions/src/workflow/audio-work';
import { wavMaster } from '../../../functions/src/workflow/provider-audio';
import { CASSETTE_ENDPOINT, MINIMAX_2_5_ENDPOINT, MINIMAX_2_ENDPOINT, STABLE_AUDIO_ENDPOINT } from './models';
import { type MusicProvider, startMusicProvider } from './provider-server';
import { decodeWav } from './restyle';

let provider: MusicProvider;
let files: http.Server;
let filesUrl = '';
const served = new Map<string, Uint8Array>();

beforeAll(async () => {
  provider = await startMusicProvider({ minProcessingMs: 20, queueMs: 10 });
  // Where the app's copies are fetched from (the tracks bucket, locally).
  files = http.createServer((req, res) => {
    const bytes = served.get(req.url ?? '');
    if (!bytes) res.writeHead(404).end();
    else res.writeHead(200, { 'content-type': 'audio/wav' }).end(bytes);
  });
  await new Promise<void>((r) => files.listen(0, '127.0.0.1', r));
  filesUrl = `http://127.0.0.1:${(files.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await provider?.stop();
  await new Promise((r) => files?.close(r));
});

/** The log lines of the last job {@link run} ran. */
let lastLogs: string[] = [];

async function run(endpoint: string, input: unknown): Promise<Record<string, unknown>> {
  const submitted = (await (
    await fetch(`${provider.url}/queue.fal.run/${endpoint}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(input),
    })
  ).json()) as { status_url: string; response_url: string };
  while (((await (await fetch(submitted.status_url)).json()) as { status: string }).status !== 'COMPLETED')
    await new Promise((r) => setTimeout(r, 20));
  const { logs } = (await (await fetch(`${submitted.status_url}?logs=1`)).json()) as {
    logs: Array<{ message: string }>;
  };
  lastLogs = logs.map((l) => l.message);
  return (await (await fetch(submitted.response_url)).json()) as Record<string, unknown>;
}

/** A model's song as the app keeps it (a WAV master), served where the provider can fetch it. */
async function track(endpoint: string, input: unknown): Promise<{ wav: Uint8Array; url: string }> {
  const result = await run(endpoint, input);
  const file = (result.audio ?? result.audio_file) as { url: string };
  const kept = await wavMaster(new Uint8Array(await (await fetch(file.url)).arrayBuffer()));
  if (!kept) throw new Error('not audio the app keeps');
  const path = `/tracks/${served.size}.wav`;
  served.set(path, kept.wav);
  return { wav: kept.wav, url: `${filesUrl}${path}` };
}

const PROMPT = 'pop, 120 bpm, A minor';
const LYRICS = '[verse]\nsunlight on the water\nwe run along the shore\n[chorus]\nhold on hold on tonight';
const songs = {
  [MINIMAX_2_ENDPOINT]: {
    prompt: PROMPT,
    lyrics_prompt: LYRICS,
    audio_setting: { format: 'flac', sample_rate: 44100, bitrate: 256000 },
  },
  [MINIMAX_2_5_ENDPOINT]: {
    prompt: PROMPT,
    lyrics: LYRICS,
    audio_setting: { format: 'wav', sample_rate: 44100 },
  },
  [CASSETTE_ENDPOINT]: { prompt: PROMPT, duration: 16 },
  [STABLE_AUDIO_ENDPOINT]: { prompt: PROMPT, seconds_total: 16 },
};

describe('a song a model made, after it is made', () => {
  it.each(Object.entries(songs))(
    '%s: the key asked for is measured, and a beat its tempo',
    async (endpoint, input) => {
      const { wav } = await track(endpoint, input);
      const analysis = await inThreadAudioWork.tempoAndKey(parseWav(wav));
      expect(analysis?.key).toBe('A minor');
      // Stable Audio plays almost no drums: its tempo is what the measure can tell, or a multiple of it.
      // MiniMax takes no seed, so its song differs every run, and the measure may hear its beat at
      // double or half time (the analysis bench counts those apart): its tempo is 120 or an octave of it.
      const bpm = analysis?.bpm ?? 0;
      if (endpoint === MINIMAX_2_ENDPOINT || endpoint === MINIMAX_2_5_ENDPOINT)
        expect(
          [60, 120, 240].some((beat) => Math.abs(bpm - beat) < 5),
          `${bpm} BPM`,
        ).toBe(true);
      else if (endpoint !== STABLE_AUDIO_ENDPOINT) expect(bpm).toBeCloseTo(120, -1);
    },
  );

  it.each([MINIMAX_2_ENDPOINT, CASSETTE_ENDPOINT] as const)(
    '%s: separates into stems of its length, an approximate split the provider owns up to',
    async (endpoint) => {
      const { wav, url } = await track(endpoint, songs[endpoint]);
      const seconds = parseWav(wav).frames / parseWav(wav).sampleRate;
      const result = (await run('fal-ai/demucs', {
        audio_url: url,
        model: 'htdemucs',
        stems: ['vocals', 'drums', 'bass', 'other'],
        output_format: 'wav',
      })) as Record<string, { url: string }>;
      expect(Object.keys(result).sort()).toEqual(['bass', 'drums', 'other', 'vocals']);
      expect(lastLogs).toContain(
        'Not an ACE-Step song of this provider: stems approximated by frequency bands',
      );
      const drums = decodeWav(new Uint8Array(await (await fetch(result.drums?.url ?? '')).arrayBuffer()));
      expect((drums.channels[0]?.length ?? 0) / drums.sampleRate).toBeCloseTo(seconds, 1);
    },
  );

  it('hears the words MiniMax sang (2.0 from its FLAC kept as a WAV, 2.5 from its WAV), none in an instrumental', async () => {
    for (const endpoint of [MINIMAX_2_ENDPOINT, MINIMAX_2_5_ENDPOINT, CASSETTE_ENDPOINT] as const) {
      const { url } = await track(endpoint, songs[endpoint]);
      const heard = (await run('fal-ai/whisper', { audio_url: url, chunk_level: 'word' })) as {
        chunks: Array<{ text: string }>;
      };
      const words = heard.chunks.map((c) => c.text.trim()).join(' ');
      if (endpoint === CASSETTE_ENDPOINT) expect(words).toBe('');
      else expect(words).toMatch(/sunlight|water|shore|tonight/);
    }
  });
});

import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { MUSIC_MODELS } from '@tunesmith/shared/models';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMusicProvider } from '../../../../local/src/music/provider-server';
import type { TextToMusicRequest } from '../../domain/generations/music-provider';
import { wavMaster } from '../../workflow/provider-audio';
import { falTextToMusic, musicFileUrl } from './fal-model-inputs';
import { falMusicProvider } from './fal-provider';
import { FAL_TEXT_SCHEMAS } from './fal-schemas';

const request = (over: Partial<TextToMusicRequest>): TextToMusicRequest => ({
  model: 'ace-step',
  tags: 'synthwave, female vocals, 100 bpm, A minor',
  lyrics: '[verse]\nneon lights over the bay',
  duration: 42,
  ...over,
});

describe('each model’s input, pinned to the fields fal documents', () => {
  it('has a schema for every registered text endpoint', () => {
    expect(Object.keys(FAL_TEXT_SCHEMAS).sort()).toEqual(MUSIC_MODELS.map((m) => m.endpoints.text).sort());
  });

  it('ACE-Step: tags, lyrics ([instrumental] for none) and duration', () => {
    const sung = falTextToMusic(request({}));
    expect(sung).toEqual({
      endpoint: 'fal-ai/ace-step',
      input: {
        tags: 'synthwave, female vocals, 100 bpm, A minor',
        lyrics: '[verse]\nneon lights over the bay',
        duration: 42,
      },
    });
    const bare = falTextToMusic(request({ instrumental: true, lyrics: '' }));
    expect(bare.input).toMatchObject({ lyrics: '[instrumental]' });
    for (const { input } of [sung, bare]) FAL_TEXT_SCHEMAS['fal-ai/ace-step'].input.parse(input);
  });

  it('MiniMax Music 2.0: prompt, lyrics_prompt and FLAC at 44.1 kHz; no duration; refuses an instrumental', () => {
    const { endpoint, input } = falTextToMusic(request({ model: 'minimax-music-2', duration: null }));
    expect(endpoint).toBe('fal-ai/minimax-music/v2');
    expect(input).toEqual({
      prompt: 'synthwave, female vocals, 100 bpm, A minor',
      lyrics_prompt: '[verse]\nneon lights over the bay',
      audio_setting: { format: 'flac', sample_rate: 44100, bitrate: 256000 },
    });
    FAL_TEXT_SCHEMAS[endpoint as keyof typeof FAL_TEXT_SCHEMAS].input.parse(input);
    expect(() =>
      falTextToMusic(request({ model: 'minimax-music-2', instrumental: true, lyrics: '' })),
    ).toThrow(expect.objectContaining({ reason: 'rejected' }));
  });

  it('MiniMax Music 2.5: prompt, lyrics, is_instrumental and WAV at 44.1 kHz; no duration', () => {
    const sung = falTextToMusic(request({ model: 'minimax-music-2.5', duration: null }));
    expect(sung).toEqual({
      endpoint: 'fal-ai/minimax-music/v2.5',
      input: {
        prompt: 'synthwave, female vocals, 100 bpm, A minor',
        lyrics: '[verse]\nneon lights over the bay',
        is_instrumental: false,
        audio_setting: { format: 'wav', sample_rate: 44100, bitrate: 256000 },
      },
    });
    const bare = falTextToMusic(
      request({ model: 'minimax-music-2.5', duration: null, instrumental: true, lyrics: '' }),
    );
    expect(bare.input).toEqual({
      prompt: 'synthwave, female vocals, 100 bpm, A minor',
      is_instrumental: true,
      audio_setting: { format: 'wav', sample_rate: 44100, bitrate: 256000 },
    });
    for (const { input } of [sung, bare]) FAL_TEXT_SCHEMAS['fal-ai/minimax-music/v2.5'].input.parse(input);
  });

  it('CassetteAI: prompt and a whole-second duration', () => {
    const { endpoint, input } = falTextToMusic(request({ model: 'cassetteai', lyrics: '', duration: 90.4 }));
    expect(endpoint).toBe('CassetteAI/music-generator');
    expect(input).toEqual({ prompt: 'synthwave, female vocals, 100 bpm, A minor', duration: 90 });
    FAL_TEXT_SCHEMAS[endpoint as keyof typeof FAL_TEXT_SCHEMAS].input.parse(input);
  });

  it('Stable Audio 2.5: prompt and seconds_total, always sent (fal’s default is 190 s)', () => {
    const { endpoint, input } = falTextToMusic(
      request({ model: 'stable-audio-2.5', lyrics: '', duration: 20 }),
    );
    expect(endpoint).toBe('fal-ai/stable-audio-25/text-to-audio');
    expect(input).toEqual({ prompt: 'synthwave, female vocals, 100 bpm, A minor', seconds_total: 20 });
    FAL_TEXT_SCHEMAS[endpoint as keyof typeof FAL_TEXT_SCHEMAS].input.parse(input);
  });

  it('the schemas refuse what fal refuses: an undocumented field, a value out of range', () => {
    expect(
      FAL_TEXT_SCHEMAS['CassetteAI/music-generator'].input.safeParse({ prompt: 'x', duration: 5 }).success,
    ).toBe(false);
    expect(
      FAL_TEXT_SCHEMAS['fal-ai/stable-audio-25/text-to-audio'].input.safeParse({ prompt: 'x', duration: 5 })
        .success,
    ).toBe(false);
    expect(
      FAL_TEXT_SCHEMAS['fal-ai/minimax-music/v2.5'].input.safeParse({ prompt: 'x', is_instrumental: false })
        .success,
    ).toBe(false);
  });

  it('refuses an unknown model and a missing duration for a model that needs one', () => {
    expect(() => falTextToMusic(request({ model: 'lyria-2' }))).toThrow(/Unknown model/);
    expect(() => falTextToMusic(request({ model: 'cassetteai', duration: null }))).toThrow(
      /needs a duration/,
    );
  });

  it('reads the audio from `audio` or `audio_file`', () => {
    expect(musicFileUrl({ audio: { url: 'https://f/a.flac' } })).toBe('https://f/a.flac');
    expect(musicFileUrl({ audio_file: { url: 'https://f/b.wav' } })).toBe('https://f/b.wav');
    expect(musicFileUrl({ audio: null })).toBeUndefined();
  });
});

describe('the adapter submits to and follows each model’s endpoint', () => {
  const calls: Array<{ method: string; path: string; body: unknown }> = [];
  let server: http.Server;
  let base = '';
  const outputs: Record<string, unknown> = {
    'fal-ai/minimax-music': { audio: { url: 'https://files.example/song.flac', content_type: 'audio/flac' } },
    'CassetteAI/music-generator': { audio_file: { url: 'https://files.example/beat.wav' } },
    'fal-ai/stable-audio-25': { audio: { url: 'https://files.example/pad.wav' }, seed: 77 },
  };

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      let raw = '';
      req.setEncoding('utf8');
      req.on('data', (c) => {
        raw += c;
      });
      req.on('end', () => {
        const path = new URL(req.url ?? '/', 'http://x').pathname;
        calls.push({ method: req.method ?? '', path, body: raw ? JSON.parse(raw) : undefined });
        const app = /^\/queue\.fal\.run\/([^/]+\/[^/]+)\//.exec(path)?.[1] ?? '';
        const answer = path.endsWith('/status')
          ? { status: 'COMPLETED' }
          : req.method === 'POST'
            ? { request_id: 'job-1', status: 'IN_QUEUE' }
            : req.method === 'PUT'
              ? {}
              : outputs[app];
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((r) => server.close(r)));

  it.each([
    [
      'minimax-music-2',
      'fal-ai/minimax-music/v2',
      'fal-ai/minimax-music',
      'https://files.example/song.flac',
      0,
    ],
    [
      'cassetteai',
      'CassetteAI/music-generator',
      'CassetteAI/music-generator',
      'https://files.example/beat.wav',
      0,
    ],
    [
      'stable-audio-2.5',
      'fal-ai/stable-audio-25/text-to-audio',
      'fal-ai/stable-audio-25',
      'https://files.example/pad.wav',
      77,
    ],
  ])('%s: submits to %s and names the job under %s', async (model, endpoint, app, url, seed) => {
    calls.length = 0;
    const provider = falMusicProvider({ key: 'test-key', baseUrl: base });
    const { requestId } = await provider.submitTextToMusic(
      request({ model, duration: model === 'minimax-music-2' ? null : 30 }),
    );
    expect(calls[0]).toMatchObject({ method: 'POST', path: `/queue.fal.run/${endpoint}` });
    FAL_TEXT_SCHEMAS[endpoint as keyof typeof FAL_TEXT_SCHEMAS].input.parse(calls[0]?.body);
    expect(await provider.status('text', requestId, endpoint)).toBe('completed');
    expect(await provider.result('text', requestId, endpoint)).toEqual({ audioUrl: url, seed });
    await provider.cancel('text', requestId, endpoint);
    expect(calls.slice(1).map((c) => `${c.method} ${c.path}`)).toEqual([
      `GET /queue.fal.run/${app}/requests/job-1/status`,
      `GET /queue.fal.run/${app}/requests/job-1`,
      `PUT /queue.fal.run/${app}/requests/job-1/cancel`,
    ]);
  });

  it('refuses a model’s request before anything is sent when the model cannot honour it', async () => {
    calls.length = 0;
    const provider = falMusicProvider({ key: 'test-key', baseUrl: base });
    await expect(
      provider.submitTextToMusic(
        request({ model: 'minimax-music-2', instrumental: true, lyrics: '', duration: null }),
      ),
    ).rejects.toMatchObject({ reason: 'rejected' });
    expect(calls).toEqual([]);
  });
});

describe('each model through the adapter, against the embedded provider', () => {
  it.each([
    ['minimax-music-2', null, false, 'flac'],
    ['minimax-music-2.5', null, true, 'wav'],
    ['cassetteai', 10, true, 'wav'],
    ['stable-audio-2.5', 6, true, 'wav'],
  ] as const)(
    '%s: accepted, followed at its endpoint, answered with audio Finish keeps',
    async (model, duration, instrumental, from) => {
      const embedded = await startMusicProvider({ minProcessingMs: 20, queueMs: 10 });
      try {
        const provider = falMusicProvider({ key: embedded.env.FAL_KEY, baseUrl: embedded.env.FAL_BASE_URL });
        const endpoint = MUSIC_MODELS.find((m) => m.id === model)?.endpoints.text;
        const { requestId } = await provider.submitTextToMusic(request({ model, duration, instrumental }));
        while ((await provider.status('text', requestId, endpoint)) !== 'completed')
          await new Promise((r) => setTimeout(r, 20));
        const result = await provider.result('text', requestId, endpoint);
        const kept = await wavMaster(new Uint8Array(await (await fetch(result.audioUrl)).arrayBuffer()));
        expect(kept?.from).toBe(from);
      } finally {
        await embedded.stop();
      }
    },
  );
});

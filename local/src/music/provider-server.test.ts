import { createHash, createPublicKey, verify } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createFalClient } from '@fal-ai/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MusicProvider, startMusicProvider } from './provider-server';
import { decodeWav } from './restyle';
import { readWavMeta } from './synth';

let provider: MusicProvider;
let hook: http.Server;
let hookUrl = '';
const received: Array<{ headers: http.IncomingHttpHeaders; body: string }> = [];
let refuseHooks = 0;

/** The product's client, pointed at the provider as notes/fal.md says. */
const client = () =>
  createFalClient({
    credentials: provider.env.FAL_KEY,
    requestMiddleware: async (request) => {
      const u = new URL(request.url);
      return { ...request, url: `${provider.env.FAL_BASE_URL}/${u.host}${u.pathname}${u.search}` };
    },
  });

async function waitFor<T>(fn: () => T | undefined, ms = 15_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = fn();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 25));
  }
}

async function verifyHook(h: { headers: http.IncomingHttpHeaders; body: string }): Promise<boolean> {
  const jwks = (await (await fetch(provider.env.FAL_WEBHOOK_JWKS_URL)).json()) as {
    keys: Array<Record<string, string>>;
  };
  const id = h.headers['x-fal-webhook-request-id'];
  const user = h.headers['x-fal-webhook-user-id'];
  const ts = h.headers['x-fal-webhook-timestamp'];
  const sig = Buffer.from(String(h.headers['x-fal-webhook-signature']), 'hex');
  const message = `${id}\n${user}\n${ts}\n${createHash('sha256').update(h.body).digest('hex')}`;
  expect(Math.abs(Date.now() / 1000 - Number(ts))).toBeLessThan(300);
  return jwks.keys.some((k) => {
    expect(k.kty).toBe('OKP');
    expect(k.crv).toBe('Ed25519');
    return verify(null, Buffer.from(message), createPublicKey({ key: k, format: 'jwk' }), sig);
  });
}

beforeAll(async () => {
  provider = await startMusicProvider({
    minProcessingMs: 300,
    queueMs: 50,
    webhookRetryMs: 50,
    webhookAttempts: 3,
  });
  hook = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      if (refuseHooks > 0) {
        refuseHooks--;
        res.writeHead(500).end();
        return;
      }
      received.push({ headers: req.headers, body });
      res.writeHead(200).end('{}');
    });
  });
  await new Promise<void>((r) => hook.listen(0, '127.0.0.1', r));
  hookUrl = `http://127.0.0.1:${(hook.address() as AddressInfo).port}/hook`;
});

afterAll(async () => {
  await provider?.stop();
  await new Promise((r) => hook?.close(r));
});

const hookFor = (id: string) => () => received.find((h) => h.headers['x-fal-webhook-request-id'] === id);

describe('embedded music provider through @fal-ai/client', () => {
  it('runs text to music: queue states, logs, result, file, signed webhook (after a failed delivery)', async () => {
    const fal = client();
    refuseHooks = 1;
    const input = {
      tags: 'synthwave, female singer',
      lyrics: '[verse]\nneon lights tonight',
      duration: 6,
      seed: 11,
    };
    const { request_id } = await fal.queue.submit('fal-ai/ace-step', { input, webhookUrl: hookUrl });
    const seen = new Set<string>();
    let logs: unknown;
    for (;;) {
      const s = await fal.queue.status('fal-ai/ace-step', { requestId: request_id, logs: true });
      seen.add(s.status);
      if (s.status === 'IN_PROGRESS') logs = s.logs;
      if (s.status === 'COMPLETED') break;
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(seen).toContain('IN_PROGRESS');
    expect(Array.isArray(logs)).toBe(true);
    const result = await fal.queue.result('fal-ai/ace-step', { requestId: request_id });
    expect(result.requestId).toBe(request_id);
    const data = result.data as {
      audio: { url: string; content_type: string; file_size: number };
      seed: number;
    };
    expect(data.seed).toBe(11);
    expect(data.audio.content_type).toBe('audio/wav');
    const wav = new Uint8Array(await (await fetch(data.audio.url)).arrayBuffer());
    expect(wav.length).toBe(data.audio.file_size);
    expect(Buffer.from(wav).readUInt32LE(40)).toBe(6 * 48000 * 4);
    expect(readWavMeta(wav)).toMatchObject({ seed: 11, tags: input.tags, lyrics: input.lyrics });
    const h = await waitFor(hookFor(request_id));
    expect(await verifyHook(h)).toBe(true);
    const body = JSON.parse(h.body);
    expect(body).toMatchObject({
      request_id,
      gateway_request_id: request_id,
      status: 'OK',
      payload: { seed: 11 },
    });
    expect(provider.deliveries.filter((d) => d.requestId === request_id).map((d) => d.status)).toEqual([
      500, 200,
    ]);
    // Same seed, same file.
    const again = await fal.subscribe('fal-ai/ace-step', { input, pollInterval: 50 });
    const wav2 = new Uint8Array(await (await fetch((again.data as typeof data).audio.url)).arrayBuffer());
    expect(Buffer.from(wav2).equals(Buffer.from(wav))).toBe(true);
  });

  it('validates input like fal', async () => {
    const fal = client();
    await expect(
      fal.queue.submit('fal-ai/ace-step', { input: { duration: 10 } as never }),
    ).rejects.toMatchObject({
      status: 422,
    });
    await expect(
      fal.queue.submit('fal-ai/ace-step', { input: { tags: 'pop', duration: 300 } }),
    ).rejects.toMatchObject({ status: 422 });
    await expect(
      fal.queue.submit('fal-ai/ace-step/audio-to-audio', {
        input: { tags: 'pop', original_tags: 'rock' } as never,
      }),
    ).rejects.toMatchObject({ status: 422 });
  });

  it('restyles audio fetched from audio_url (status polled on the app path)', async () => {
    const fal = client();
    const src = await fal.subscribe('fal-ai/ace-step', {
      input: { tags: 'pop', duration: 5, seed: 1 },
      pollInterval: 50,
    });
    const audio_url = (src.data as { audio: { url: string } }).audio.url;
    const out = await fal.subscribe('fal-ai/ace-step/audio-to-audio', {
      input: { audio_url, edit_mode: 'remix', original_tags: 'pop', tags: 'lo-fi', seed: 2 },
      pollInterval: 50,
    });
    const data = out.data as { audio: { url: string; file_size: number } };
    const wav = new Uint8Array(await (await fetch(data.audio.url)).arrayBuffer());
    expect(decodeWav(wav).channels[0]).toHaveLength(5 * 48000);
  });

  it('writes lyrics through openrouter/router', async () => {
    const out = await client().subscribe('openrouter/router', {
      input: { prompt: 'Write lyrics about a rainy Paris night, 30 seconds', model: 'any' },
      pollInterval: 50,
    });
    const { output } = out.data as { output: string };
    expect(output).toContain('[verse]');
    expect(output).toContain('[chorus]');
  });

  it('transcribes its own songs through fal-ai/whisper: word chunks at the times it sang them', async () => {
    const fal = client();
    const lyrics = '[verse]\nHolding on to the summer light\nRunning through the city night';
    const song = await fal.subscribe('fal-ai/ace-step', {
      input: { tags: 'pop, female vocals', lyrics, duration: 12, seed: 4 },
      pollInterval: 50,
    });
    const audio_url = (song.data as { audio: { url: string } }).audio.url;
    const sung = readWavMeta(new Uint8Array(await (await fetch(audio_url)).arrayBuffer()))?.sung ?? [];
    expect(sung.map(([text]) => text)).toEqual(lyrics.split('\n').slice(1).join(' ').split(' '));
    const out = await fal.subscribe('fal-ai/whisper', {
      input: { audio_url, task: 'transcribe', chunk_level: 'word' },
      pollInterval: 50,
    });
    const { text, chunks } = out.data as unknown as {
      text: string;
      chunks: Array<{ timestamp: [number, number]; text: string }>;
    };
    expect(text.length).toBeGreaterThan(0);
    // Every chunk starts when a sung word does (or in a pause, for a word never sung).
    const starts = new Set(sung.map(([, start]) => Math.round(start * 100) / 100));
    const onTime = chunks.filter((c) => starts.has(c.timestamp[0]));
    expect(onTime.length).toBeGreaterThan(sung.length / 2);
    const bad = await fetch(`${provider.env.FAL_BASE_URL}/queue.fal.run/fal-ai/whisper`, {
      method: 'POST',
      headers: { authorization: `Key ${provider.env.FAL_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ audio_url: audio_url, chunk_level: 'phrase' }),
    });
    expect(bad.status).toBe(422);
  });

  it('fail:submit refuses the submission', async () => {
    await expect(
      client().queue.submit('fal-ai/ace-step', { input: { tags: 'pop, fail:submit' } }),
    ).rejects.toMatchObject({ status: 422 });
  });

  it('fail:provider (tag or header) completes with an error result and an ERROR webhook', async () => {
    const fal = createFalClient({
      credentials: provider.env.FAL_KEY,
      requestMiddleware: async (request) => {
        const u = new URL(request.url);
        return {
          ...request,
          url: `${provider.url}/${u.host}${u.pathname}${u.search}`,
          headers: { ...request.headers, 'x-tunesmith-fail': 'fail:provider' },
        };
      },
    });
    const { request_id } = await fal.queue.submit('fal-ai/ace-step', {
      input: { tags: 'pop', duration: 5 },
      webhookUrl: hookUrl,
    });
    const h = await waitFor(hookFor(request_id));
    expect(await verifyHook(h)).toBe(true);
    expect(JSON.parse(h.body)).toMatchObject({ request_id, status: 'ERROR' });
    expect((await fal.queue.status('fal-ai/ace-step', { requestId: request_id, logs: false })).status).toBe(
      'COMPLETED',
    );
    await expect(fal.queue.result('fal-ai/ace-step', { requestId: request_id })).rejects.toMatchObject({
      status: 400,
    });
  });

  it('no-webhook completes without a webhook; fail:timeout never completes until cancelled', async () => {
    const fal = client();
    const quiet = await fal.queue.submit('fal-ai/ace-step', {
      input: { tags: 'pop, no-webhook', duration: 5 },
      webhookUrl: hookUrl,
    });
    const stuck = await fal.queue.submit('fal-ai/ace-step', {
      input: { tags: 'pop, fail:timeout', duration: 5 },
      webhookUrl: hookUrl,
    });
    for (;;) {
      const s = await fal.queue.status('fal-ai/ace-step', { requestId: quiet.request_id, logs: false });
      if (s.status === 'COMPLETED') break;
      await new Promise((r) => setTimeout(r, 30));
    }
    await new Promise((r) => setTimeout(r, 200));
    expect(hookFor(quiet.request_id)()).toBeUndefined();
    expect((await fal.queue.result('fal-ai/ace-step', { requestId: quiet.request_id })).data).toHaveProperty(
      'audio',
    );
    expect(
      (await fal.queue.status('fal-ai/ace-step', { requestId: stuck.request_id, logs: false })).status,
    ).toBe('IN_PROGRESS');
    await fal.queue.cancel('fal-ai/ace-step', { requestId: stuck.request_id });
    expect(
      (await fal.queue.status('fal-ai/ace-step', { requestId: stuck.request_id, logs: false })).status,
    ).toBe('COMPLETED');
    await expect(fal.queue.result('fal-ai/ace-step', { requestId: stuck.request_id })).rejects.toMatchObject({
      status: 400,
    });
    const h = await waitFor(hookFor(stuck.request_id));
    expect(JSON.parse(h.body).status).toBe('ERROR');
  });

  it('answers status polls while a long render runs', async () => {
    const fal = client();
    const { request_id } = await fal.queue.submit('fal-ai/ace-step', {
      input: { tags: 'electronic', duration: 240, seed: 4 },
    });
    await new Promise((r) => setTimeout(r, 80));
    // A render that held the event loop would answer only once it had finished.
    const status = await fal.queue.status('fal-ai/ace-step', { requestId: request_id, logs: false });
    expect(['IN_QUEUE', 'IN_PROGRESS']).toContain(status.status);
    await untilCompleted('fal-ai/ace-step', request_id);
  });
});

/** The interleaved 16-bit samples of a WAV this provider wrote (data chunk at 44). */
const pcm = (wav: Uint8Array) =>
  Buffer.from(wav.buffer, wav.byteOffset + 44, Buffer.from(wav).readUInt32LE(40));

async function submitRaw(
  endpoint: string,
  input: unknown,
): Promise<{ status: number; body: { detail: unknown } }> {
  const response = await fetch(`${provider.url}/queue.fal.run/${endpoint}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Key ${provider.env.FAL_KEY}` },
    body: JSON.stringify(input),
  });
  return { status: response.status, body: (await response.json()) as { detail: unknown } };
}

async function untilCompleted(endpoint: string, requestId: string): Promise<void> {
  for (;;) {
    const s = await client().queue.status(endpoint, { requestId, logs: false });
    if (s.status === 'COMPLETED') return;
    await new Promise((r) => setTimeout(r, 30));
  }
}

describe('extend and repaint through @fal-ai/client', () => {
  const SR = 48000;
  let source: { url: string; wav: Uint8Array };

  beforeAll(async () => {
    const out = await client().subscribe('fal-ai/ace-step', {
      input: { tags: 'electronic', lyrics: '', duration: 6, seed: 3 },
      pollInterval: 50,
    });
    const url = (out.data as { audio: { url: string } }).audio.url;
    source = { url, wav: new Uint8Array(await (await fetch(url)).arrayBuffer()) };
  });

  it('audio-outpaint: queued on the app path, the whole song in fal’s shape, a signed webhook', async () => {
    const fal = client();
    const input = {
      audio_url: source.url,
      tags: 'electronic',
      lyrics: '[instrumental]',
      extend_before_duration: 1.5,
      extend_after_duration: 4,
      seed: 8,
    };
    const submitted = await fal.queue.submit('fal-ai/ace-step/audio-outpaint', {
      input,
      webhookUrl: hookUrl,
    });
    const { request_id } = submitted;
    // fal drops the endpoint's sub-path from the request's URLs, and so does the provider.
    expect(submitted.status_url).toBe(
      `${provider.url}/queue.fal.run/fal-ai/ace-step/requests/${request_id}/status`,
    );
    const seen = new Set<string>();
    for (;;) {
      const s = await fal.queue.status('fal-ai/ace-step/audio-outpaint', {
        requestId: request_id,
        logs: true,
      });
      seen.add(s.status);
      if (s.status === 'COMPLETED') break;
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(seen).toContain('IN_PROGRESS');
    const result = await fal.queue.result('fal-ai/ace-step/audio-outpaint', { requestId: request_id });
    expect(result.requestId).toBe(request_id);
    expect(result.data).toEqual({
      audio: {
        url: `${provider.url}/files/${request_id}.wav`,
        content_type: 'audio/wav',
        file_name: `${request_id}.wav`,
        file_size: expect.any(Number),
      },
      seed: 8,
      tags: 'electronic',
      lyrics: '[instrumental]',
    });
    const data = result.data as { audio: { url: string; file_size: number } };
    const wav = new Uint8Array(await (await fetch(data.audio.url)).arrayBuffer());
    expect(wav.length).toBe(data.audio.file_size);
    expect(decodeWav(wav).channels[0]).toHaveLength(1.5 * SR + 6 * SR + 4 * SR);
    const before = 1.5 * SR * 4;
    expect(
      pcm(wav)
        .subarray(before, before + pcm(source.wav).length)
        .equals(pcm(source.wav)),
    ).toBe(true);
    expect(readWavMeta(wav)).toMatchObject({
      bpm: readWavMeta(source.wav)?.bpm,
      root: readWavMeta(source.wav)?.root,
    });
    const h = await waitFor(hookFor(request_id));
    expect(await verifyHook(h)).toBe(true);
    expect(JSON.parse(h.body)).toMatchObject({ request_id, status: 'OK', payload: result.data as object });
  });

  it('audio-inpaint: same length, the section replaced, the rest unchanged (times from the end too)', async () => {
    const fal = client();
    const input = {
      audio_url: source.url,
      tags: 'electronic',
      start_time: 2,
      end_time: 4,
      variance: 0.7,
      seed: 5,
    };
    const { request_id } = await fal.queue.submit('fal-ai/ace-step/audio-inpaint', {
      input,
      webhookUrl: hookUrl,
    });
    await untilCompleted('fal-ai/ace-step/audio-inpaint', request_id);
    const { data } = await fal.queue.result('fal-ai/ace-step/audio-inpaint', { requestId: request_id });
    expect(data).toMatchObject({
      audio: { content_type: 'audio/wav' },
      seed: 5,
      tags: 'electronic',
      lyrics: '',
    });
    const wav = new Uint8Array(
      await (await fetch((data as { audio: { url: string } }).audio.url)).arrayBuffer(),
    );
    const out = pcm(wav);
    const src = pcm(source.wav);
    expect(out.length).toBe(src.length);
    expect(out.subarray(0, 2 * SR * 4).equals(src.subarray(0, 2 * SR * 4))).toBe(true);
    expect(out.subarray(4 * SR * 4).equals(src.subarray(4 * SR * 4))).toBe(true);
    expect(out.subarray(2 * SR * 4, 4 * SR * 4).equals(src.subarray(2 * SR * 4, 4 * SR * 4))).toBe(false);
    expect(JSON.parse((await waitFor(hookFor(request_id))).body)).toMatchObject({ request_id, status: 'OK' });

    // The same section counted from the end: 4 s to 2 s before it.
    const fromEnd = await fal.subscribe('fal-ai/ace-step/audio-inpaint', {
      input: {
        ...input,
        start_time: 4,
        end_time: 2,
        start_time_relative_to: 'end',
        end_time_relative_to: 'end',
      } as typeof input,
      pollInterval: 50,
    });
    const again = new Uint8Array(
      await (await fetch((fromEnd.data as { audio: { url: string } }).audio.url)).arrayBuffer(),
    );
    expect(pcm(again).equals(out)).toBe(true);
  });

  it('refuses bad input with fal’s 422 body', async () => {
    const cases: Array<[string, Record<string, unknown>, string]> = [
      ['fal-ai/ace-step/audio-outpaint', { tags: 'pop' }, 'audio_url'],
      ['fal-ai/ace-step/audio-outpaint', { audio_url: source.url }, 'tags'],
      ['fal-ai/ace-step/audio-outpaint', { audio_url: 'ftp://x/y.wav', tags: 'pop' }, 'audio_url'],
      [
        'fal-ai/ace-step/audio-outpaint',
        { audio_url: source.url, tags: 'pop', extend_after_duration: 300 },
        'extend_after_duration',
      ],
      [
        'fal-ai/ace-step/audio-outpaint',
        { audio_url: source.url, tags: 'pop', extend_before_duration: -1 },
        'extend_before_duration',
      ],
      ['fal-ai/ace-step/audio-inpaint', { tags: 'pop', start_time: 1, end_time: 2 }, 'audio_url'],
      ['fal-ai/ace-step/audio-inpaint', { audio_url: source.url, start_time: 1, end_time: 2 }, 'tags'],
      [
        'fal-ai/ace-step/audio-inpaint',
        { audio_url: source.url, tags: 'pop', start_time: 3, end_time: 3 },
        'end_time',
      ],
      [
        'fal-ai/ace-step/audio-inpaint',
        { audio_url: source.url, tags: 'pop', start_time: 4, end_time: 2 },
        'end_time',
      ],
      [
        'fal-ai/ace-step/audio-inpaint',
        { audio_url: source.url, tags: 'pop', start_time: -1, end_time: 2 },
        'start_time',
      ],
      ['fal-ai/ace-step/audio-inpaint', { audio_url: source.url, tags: 'pop', end_time: 241 }, 'end_time'],
      [
        'fal-ai/ace-step/audio-inpaint',
        { audio_url: source.url, tags: 'pop', end_time: 2, variance: 1.5 },
        'variance',
      ],
      [
        'fal-ai/ace-step/audio-inpaint',
        { audio_url: source.url, tags: 'pop', end_time: 2, start_time_relative_to: 'middle' },
        'start_time_relative_to',
      ],
    ];
    for (const [endpoint, input, field] of cases) {
      const { status, body } = await submitRaw(endpoint, input);
      expect(status, JSON.stringify(input)).toBe(422);
      expect(body.detail, JSON.stringify(input)).toEqual(
        expect.arrayContaining([expect.objectContaining({ loc: ['body', field], msg: expect.any(String) })]),
      );
    }
    // Through the client too.
    await expect(
      client().queue.submit('fal-ai/ace-step/audio-outpaint', { input: { tags: 'pop' } as never }),
    ).rejects.toMatchObject({ status: 422 });
  });

  it('fails the job when the audio cannot be fetched or decoded, or the section is outside it', async () => {
    const fal = client();
    const cases: Array<[string, Record<string, unknown>, string]> = [
      [
        'fal-ai/ace-step/audio-outpaint',
        { audio_url: `${provider.url}/files/00000000-0000-0000-0000-000000000000.wav`, tags: 'pop' },
        'audio_url',
      ],
      [
        'fal-ai/ace-step/audio-inpaint',
        { audio_url: provider.jwksUrl, tags: 'pop', end_time: 2 },
        'audio_url',
      ],
      [
        'fal-ai/ace-step/audio-inpaint',
        { audio_url: source.url, tags: 'pop', start_time: 100, end_time: 110 },
        'start_time',
      ],
    ];
    for (const [endpoint, input, field] of cases) {
      const { request_id } = await fal.queue.submit(endpoint, { input: input as never, webhookUrl: hookUrl });
      const h = await waitFor(hookFor(request_id));
      expect(await verifyHook(h)).toBe(true);
      expect(JSON.parse(h.body)).toMatchObject({
        request_id,
        status: 'ERROR',
        payload: { detail: [{ loc: ['body', field] }] },
      });
      await expect(fal.queue.result(endpoint, { requestId: request_id })).rejects.toMatchObject({
        status: 422,
      });
    }
  });

  it('honours the failure tags on both endpoints', async () => {
    const fal = client();
    for (const endpoint of ['fal-ai/ace-step/audio-outpaint', 'fal-ai/ace-step/audio-inpaint']) {
      const base = { audio_url: source.url, start_time: 1, end_time: 2, extend_after_duration: 5 };
      await expect(
        fal.queue.submit(endpoint, { input: { ...base, tags: 'pop, fail:submit' } as never }),
      ).rejects.toMatchObject({ status: 422 });
      const failed = await fal.queue.submit(endpoint, {
        input: { ...base, tags: 'pop, fail:provider' } as never,
        webhookUrl: hookUrl,
      });
      expect(JSON.parse((await waitFor(hookFor(failed.request_id))).body).status).toBe('ERROR');
      await expect(fal.queue.result(endpoint, { requestId: failed.request_id })).rejects.toMatchObject({
        status: 400,
      });
      const quiet = await fal.queue.submit(endpoint, {
        input: { ...base, tags: 'pop, no-webhook' } as never,
        webhookUrl: hookUrl,
      });
      await untilCompleted(endpoint, quiet.request_id);
      expect(hookFor(quiet.request_id)()).toBeUndefined();
      expect((await fal.queue.result(endpoint, { requestId: quiet.request_id })).data).toHaveProperty(
        'audio',
      );
      const stuck = await fal.queue.submit(endpoint, {
        input: { ...base, tags: 'pop, fail:timeout' } as never,
      });
      await new Promise((r) => setTimeout(r, 150));
      expect((await fal.queue.status(endpoint, { requestId: stuck.request_id, logs: false })).status).toBe(
        'IN_PROGRESS',
      );
      await fal.queue.cancel(endpoint, { requestId: stuck.request_id });
      await expect(fal.queue.result(endpoint, { requestId: stuck.request_id })).rejects.toMatchObject({
        status: 400,
      });
    }
  });
});

describe('fal-ai/demucs through @fal-ai/client', () => {
  const song = async (tags: string) => {
    const out = await client().subscribe('fal-ai/ace-step', {
      input: { tags, lyrics: '[verse]\nla la la la\n[chorus]\noh oh oh', duration: 6, seed: 4 },
      pollInterval: 50,
    });
    const url = (out.data as { audio: { url: string } }).audio.url;
    return { url, wav: new Uint8Array(await (await fetch(url)).arrayBuffer()) };
  };

  it("answers in fal's shape, one file per stem asked for, the true voices of its own song that sum to it", async () => {
    const source = await song('pop, female vocals');
    const fal = client();
    const { request_id } = await fal.queue.submit('fal-ai/demucs', {
      input: {
        audio_url: source.url,
        model: 'htdemucs',
        stems: ['vocals', 'drums', 'bass', 'other'],
        output_format: 'wav',
      },
      webhookUrl: hookUrl,
    });
    const hook = await waitFor(hookFor(request_id));
    expect(await verifyHook(hook)).toBe(true);
    const status = await fal.queue.status('fal-ai/demucs', { requestId: request_id, logs: true });
    expect(status.status).toBe('COMPLETED');
    expect(JSON.stringify((status as { logs?: unknown }).logs)).toContain("the song's own voices");
    const { data } = await fal.queue.result('fal-ai/demucs', { requestId: request_id });
    const files = data as Record<
      string,
      { url: string; content_type: string; file_name: string; file_size: number }
    >;
    expect(Object.keys(files).sort()).toEqual(['bass', 'drums', 'other', 'vocals']);
    expect(files.vocals).toMatchObject({ content_type: 'audio/wav', file_name: 'vocals.wav' });
    const mix = decodeWav(source.wav).channels;
    const sum = mix.map((c) => new Float32Array(c.length));
    for (const file of Object.values(files)) {
      const stem = decodeWav(new Uint8Array(await (await fetch(file.url)).arrayBuffer())).channels;
      stem.forEach((c, ch) => {
        const to = sum[ch] as Float32Array;
        for (let i = 0; i < c.length; i++) to[i] = (to[i] as number) + (c[i] as number);
      });
    }
    let residual = 0;
    let signal = 0;
    mix.forEach((c, ch) => {
      for (let i = 0; i < c.length; i++) {
        signal += (c[i] as number) ** 2;
        residual += ((c[i] as number) - ((sum[ch] as Float32Array)[i] as number)) ** 2;
      }
    });
    expect(10 * Math.log10(residual / signal)).toBeLessThan(-60);
  });

  it('splits audio it did not make by bands, and says in the job and its own log that the split is approximate', async () => {
    const lines: string[] = [];
    const own = await startMusicProvider({
      minProcessingMs: 50,
      queueMs: 10,
      log: (line) => lines.push(line),
    });
    try {
      const fal = createFalClient({
        credentials: own.env.FAL_KEY,
        requestMiddleware: async (request) => {
          const u = new URL(request.url);
          return { ...request, url: `${own.env.FAL_BASE_URL}/${u.host}${u.pathname}${u.search}` };
        },
      });
      const made = await fal.subscribe('fal-ai/ace-step', {
        input: { tags: 'pop', duration: 5, seed: 1 },
        pollInterval: 20,
      });
      const restyled = await fal.subscribe('fal-ai/ace-step/audio-to-audio', {
        input: {
          audio_url: (made.data as { audio: { url: string } }).audio.url,
          edit_mode: 'remix',
          original_tags: 'pop',
          tags: 'lo-fi',
          seed: 2,
        },
        pollInterval: 20,
      });
      const { request_id } = await fal.queue.submit('fal-ai/demucs', {
        input: { audio_url: (restyled.data as { audio: { url: string } }).audio.url, model: 'htdemucs' },
      });
      for (;;) {
        const status = await fal.queue.status('fal-ai/demucs', { requestId: request_id, logs: true });
        if (status.status === 'COMPLETED') {
          expect(JSON.stringify((status as { logs?: unknown }).logs)).toContain(
            'approximated by frequency bands',
          );
          break;
        }
        await new Promise((r) => setTimeout(r, 20));
      }
      const { data } = await fal.queue.result('fal-ai/demucs', { requestId: request_id });
      expect(Object.keys(data as object).sort()).toEqual(['bass', 'drums', 'other', 'vocals']);
      expect(
        lines.some((line) => line.includes('its stems are an approximate split by frequency bands')),
      ).toBe(true);
    } finally {
      await own.stop();
    }
  });

  it('validates its input like fal, and fails the separation of a song tagged fail:stems', async () => {
    const fal = client();
    await expect(
      fal.queue.submit('fal-ai/demucs', { input: { audio_url: 'ftp://x', model: 'nope' } as never }),
    ).rejects.toMatchObject({ status: 422 });
    await expect(
      fal.queue.submit('fal-ai/demucs', {
        input: { audio_url: 'http://x/a.wav', model: 'htdemucs', stems: ['piano'] } as never,
      }),
    ).rejects.toMatchObject({ status: 422 });
    await expect(
      fal.queue.submit('fal-ai/demucs', {
        input: { audio_url: 'http://x/a.wav', model: 'htdemucs', output_format: 'flac' } as never,
      }),
    ).rejects.toMatchObject({ status: 422 });
    const failing = await song('pop, fail:stems');
    const { request_id } = await fal.queue.submit('fal-ai/demucs', {
      input: { audio_url: failing.url, model: 'htdemucs' },
      webhookUrl: hookUrl,
    });
    expect(JSON.parse((await waitFor(hookFor(request_id))).body).status).toBe('ERROR');
  });
});

import { createHash, createPublicKey, verify } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createFalClient } from '@fal-ai/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MusicProvider, startMusicProvider } from './provider-server';

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
    expect(wav.length).toBe(44 + 6 * 44100 * 4);
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
    expect(data.audio.file_size).toBe(44 + 5 * 44100 * 4);
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
    const t = performance.now();
    await fal.queue.status('fal-ai/ace-step', { requestId: request_id, logs: false });
    expect(performance.now() - t).toBeLessThan(200);
  });
});

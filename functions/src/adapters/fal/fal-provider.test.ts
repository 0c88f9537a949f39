import { createHash, generateKeyPairSync, sign } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type MusicProvider as EmbeddedProvider,
  startMusicProvider,
} from '../../../../local/src/music/provider-server';
import {
  type MusicJobKind,
  type MusicProvider,
  MusicProviderError,
} from '../../domain/generations/music-provider';
import { falBaseUrlMiddleware, falMusicProvider } from './fal-provider';
import { falWebhookVerifier } from './fal-webhook';

let embedded: EmbeddedProvider;
let provider: MusicProvider;
let hook: http.Server;
let hookUrl = '';
const received: Array<{ headers: Record<string, string | undefined>; body: string }> = [];

async function waitFor<T>(fn: () => T | undefined, ms = 15_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = fn();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 25));
  }
}

async function untilCompleted(kind: MusicJobKind, requestId: string): Promise<Set<string>> {
  const seen = new Set<string>();
  for (;;) {
    const status = await provider.status(kind, requestId);
    seen.add(status);
    if (status === 'completed') return seen;
    await new Promise((r) => setTimeout(r, 20));
  }
}

beforeAll(async () => {
  embedded = await startMusicProvider({ minProcessingMs: 200, queueMs: 50, webhookRetryMs: 50 });
  provider = falMusicProvider({
    key: embedded.env.FAL_KEY,
    baseUrl: embedded.env.FAL_BASE_URL,
    pollIntervalMs: 50,
  });
  hook = http.createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      received.push({ headers: req.headers as Record<string, string | undefined>, body });
      res.writeHead(200).end('{}');
    });
  });
  await new Promise<void>((r) => hook.listen(0, '127.0.0.1', r));
  hookUrl = `http://127.0.0.1:${(hook.address() as AddressInfo).port}/hook`;
});

afterAll(async () => {
  await embedded?.stop();
  await new Promise((r) => hook?.close(r));
});

const hookFor = (id: string) => () => received.find((h) => h.headers['x-fal-webhook-request-id'] === id);

describe('falBaseUrlMiddleware', () => {
  it('rewrites to FAL_BASE_URL only when it is set', async () => {
    const request = { url: 'https://queue.fal.run/fal-ai/ace-step?fal_webhook=x', method: 'post' };
    expect((await falBaseUrlMiddleware('http://127.0.0.1:9/')(request)).url).toBe(
      'http://127.0.0.1:9/queue.fal.run/fal-ai/ace-step?fal_webhook=x',
    );
    expect((await falBaseUrlMiddleware(undefined)(request)).url).toBe(request.url);
    expect((await falBaseUrlMiddleware('')(request)).url).toBe(request.url);
  });
});

describe('fal music provider against the embedded provider', () => {
  it('text to music: status progression, result with seed and a fetchable WAV, verified webhook', async () => {
    const { requestId } = await provider.submitTextToMusic({
      model: 'ace-step',
      tags: 'synthwave, female singer',
      lyrics: '[verse]\nneon lights tonight',
      duration: 5,
      webhookUrl: hookUrl,
    });
    expect(requestId).toBeTruthy();
    const seen = await untilCompleted('text', requestId);
    expect(seen).toContain('running');
    const result = await provider.result('text', requestId);
    expect(Number.isInteger(result.seed)).toBe(true);
    const response = await fetch(result.audioUrl);
    const wav = Buffer.from(await response.arrayBuffer());
    expect(wav.subarray(0, 4).toString()).toBe('RIFF');
    expect(wav.subarray(8, 12).toString()).toBe('WAVE');
    expect(wav.readUInt32LE(40)).toBe(5 * 48000 * 4); // the data chunk; a chunk of render parameters follows it

    const delivery = await waitFor(hookFor(requestId));
    const verifier = falWebhookVerifier({ jwksUrl: embedded.env.FAL_WEBHOOK_JWKS_URL });
    const verified = await verifier.verify({
      headers: delivery.headers,
      rawBody: delivery.body,
      now: new Date(),
    });
    expect(verified).toMatchObject({ requestId, status: 'OK', payload: { seed: result.seed } });
  });

  it('audio to music (remix of an earlier result)', async () => {
    const source = await provider.submitTextToMusic({
      model: 'ace-step',
      tags: 'pop',
      lyrics: '',
      duration: 5,
    });
    await untilCompleted('text', source.requestId);
    const { audioUrl } = await provider.result('text', source.requestId);
    const { requestId } = await provider.submitAudioToMusic({
      audioUrl,
      tags: 'lo-fi, chill',
      lyrics: '[inst]',
      originalTags: 'pop',
    });
    await untilCompleted('audio', requestId);
    const result = await provider.result('audio', requestId);
    const wav = Buffer.from(await (await fetch(result.audioUrl)).arrayBuffer());
    expect(wav.readUInt32LE(40)).toBe(5 * 48000 * 4); // the data chunk; a chunk of render parameters follows it
  });

  it('a failed job surfaces as MusicProviderError (failed); refused input as rejected', async () => {
    const { requestId } = await provider.submitTextToMusic({
      model: 'ace-step',
      tags: 'pop, fail:provider',
      lyrics: '',
      duration: 5,
    });
    await untilCompleted('text', requestId);
    const error = await provider.result('text', requestId).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MusicProviderError);
    expect(error).toMatchObject({ reason: 'failed', status: 400 });

    const refused = await provider
      .submitTextToMusic({ model: 'ace-step', tags: 'pop', lyrics: '', duration: 300 })
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(MusicProviderError);
    expect(refused).toMatchObject({ reason: 'rejected', status: 422 });
  });

  it('cancel ends a stuck job as failed', async () => {
    const { requestId } = await provider.submitTextToMusic({
      model: 'ace-step',
      tags: 'pop, fail:timeout',
      lyrics: '',
      duration: 5,
    });
    await provider.cancel('text', requestId);
    expect(await provider.status('text', requestId)).toBe('completed');
    await expect(provider.result('text', requestId)).rejects.toMatchObject({ reason: 'failed' });
  });

  it('writes lyrics through openrouter/router', async () => {
    const lyrics = await provider.writeLyrics({ prompt: 'a rainy Paris night', duration: 30 });
    expect(lyrics).toContain('[verse]');
    expect(lyrics).toContain('[chorus]');
  });
});

describe('fal webhook verification', () => {
  let delivery: { headers: Record<string, string | undefined>; body: string };
  const verifier = () => falWebhookVerifier({ jwksUrl: embedded.env.FAL_WEBHOOK_JWKS_URL });

  beforeAll(async () => {
    const { requestId } = await provider.submitTextToMusic({
      model: 'ace-step',
      tags: 'jazz',
      lyrics: '',
      duration: 5,
      webhookUrl: hookUrl,
    });
    delivery = await waitFor(hookFor(requestId));
  });

  const tsOf = () => Number(delivery.headers['x-fal-webhook-timestamp']);

  it('accepts a real delivery, also near the edge of the 300 s window', async () => {
    const v = verifier();
    expect(await v.verify({ ...delivery, rawBody: delivery.body, now: new Date() })).toBeDefined();
    expect(
      await v.verify({
        ...delivery,
        rawBody: Buffer.from(delivery.body),
        now: new Date((tsOf() + 299) * 1000),
      }),
    ).toBeDefined();
  });

  it('rejects a tampered body', async () => {
    const tampered = delivery.body.replace('"OK"', '"ERROR"');
    expect(tampered).not.toBe(delivery.body);
    expect(
      await verifier().verify({ headers: delivery.headers, rawBody: tampered, now: new Date() }),
    ).toBeUndefined();
  });

  it('rejects a signature by a key that is not in the JWKS', async () => {
    const { privateKey } = generateKeyPairSync('ed25519');
    const h = delivery.headers;
    const message = `${h['x-fal-webhook-request-id']}\n${h['x-fal-webhook-user-id']}\n${h['x-fal-webhook-timestamp']}\n${createHash('sha256').update(delivery.body).digest('hex')}`;
    const forged = sign(null, Buffer.from(message), privateKey).toString('hex');
    expect(
      await verifier().verify({
        headers: { ...h, 'x-fal-webhook-signature': forged },
        rawBody: delivery.body,
        now: new Date(),
      }),
    ).toBeUndefined();
  });

  it('rejects a stale (or future) timestamp', async () => {
    const v = verifier();
    expect(
      await v.verify({
        headers: delivery.headers,
        rawBody: delivery.body,
        now: new Date((tsOf() + 301) * 1000),
      }),
    ).toBeUndefined();
    expect(
      await v.verify({
        headers: delivery.headers,
        rawBody: delivery.body,
        now: new Date((tsOf() - 301) * 1000),
      }),
    ).toBeUndefined();
  });

  it('rejects missing headers', async () => {
    const { 'x-fal-webhook-signature': _, ...rest } = delivery.headers;
    expect(
      await verifier().verify({ headers: rest, rawBody: delivery.body, now: new Date() }),
    ).toBeUndefined();
  });

  it('fetches the keys again when none verifies a delivery (rotation), at most every 5 minutes', async () => {
    const oldKey = generateKeyPairSync('ed25519');
    const newKey = generateKeyPairSync('ed25519');
    const jwksOf = (key: ReturnType<typeof generateKeyPairSync>) => ({
      keys: [{ ...key.publicKey.export({ format: 'jwk' }), kid: 'k' }],
    });
    let served = jwksOf(oldKey);
    let fetches = 0;
    const jwksFetch: typeof fetch = async () => {
      fetches++;
      return new Response(JSON.stringify(served), { headers: { 'content-type': 'application/json' } });
    };
    const signedBy = (key: ReturnType<typeof generateKeyPairSync>, ts: number) => {
      const body = JSON.stringify({ request_id: 'req-9', status: 'OK', payload: {} });
      const digest = createHash('sha256').update(body).digest('hex');
      const signature = sign(null, Buffer.from(`req-9\nuser-1\n${ts}\n${digest}`), key.privateKey);
      return {
        headers: {
          'x-fal-webhook-request-id': 'req-9',
          'x-fal-webhook-user-id': 'user-1',
          'x-fal-webhook-timestamp': String(ts),
          'x-fal-webhook-signature': signature.toString('hex'),
        },
        rawBody: body,
      };
    };
    const v = falWebhookVerifier({ jwksUrl: 'https://keys.test/jwks.json', fetch: jwksFetch });
    const t0 = 1_800_000_000;

    expect(await v.verify({ ...signedBy(oldKey, t0), now: new Date(t0 * 1000) })).toBeDefined();
    expect(fetches).toBe(1);
    // Rotated 10 minutes later: the first delivery signed by the new key fetches the keys again.
    served = jwksOf(newKey);
    const t1 = t0 + 600;
    expect(await v.verify({ ...signedBy(newKey, t1), now: new Date(t1 * 1000) })).toMatchObject({
      requestId: 'req-9',
    });
    expect(fetches).toBe(2);
    // A forged delivery right after does not fetch them yet again.
    const forger = generateKeyPairSync('ed25519');
    expect(await v.verify({ ...signedBy(forger, t1 + 1), now: new Date((t1 + 1) * 1000) })).toBeUndefined();
    expect(fetches).toBe(2);
  });

  it('caches the JWKS for at most 24 h', async () => {
    let fetches = 0;
    const counting: typeof fetch = (input, init) => {
      fetches++;
      return fetch(input, init);
    };
    const v = falWebhookVerifier({
      jwksUrl: embedded.env.FAL_WEBHOOK_JWKS_URL,
      fetch: counting,
      cacheMs: 48 * 3600_000,
    });
    const at = new Date(tsOf() * 1000);
    await v.verify({ headers: delivery.headers, rawBody: delivery.body, now: at });
    await v.verify({ headers: delivery.headers, rawBody: delivery.body, now: at });
    expect(fetches).toBe(1);
    // A day later the keys are fetched again (the delivery is stale by then, so it is refused).
    await v.verify({
      headers: { ...delivery.headers, 'x-fal-webhook-timestamp': String(tsOf() + 86_400) },
      rawBody: delivery.body,
      now: new Date((tsOf() + 86_400) * 1000),
    });
    expect(fetches).toBe(2);
  });
});

describe('fal music provider: the studio endpoints', () => {
  /** A stand-in for fal's queue that records each call and answers as fal does. */
  async function recordingQueue() {
    const calls: Array<{ method: string; path: string; query: string; body: unknown }> = [];
    const server = http.createServer((req, res) => {
      let raw = '';
      req.setEncoding('utf8');
      req.on('data', (c) => {
        raw += c;
      });
      req.on('end', () => {
        const url = new URL(req.url ?? '/', 'http://x');
        calls.push({
          method: req.method ?? '',
          path: url.pathname,
          query: url.search,
          body: raw ? JSON.parse(raw) : undefined,
        });
        const answer = url.pathname.endsWith('/status')
          ? { status: 'COMPLETED' }
          : req.method === 'POST'
            ? { request_id: 'job-1', status: 'IN_QUEUE' }
            : req.method === 'PUT'
              ? {}
              : { audio: { url: 'https://files.example/out.wav' }, seed: 7 };
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return {
      calls,
      studio: falMusicProvider({ key: 'test-key', baseUrl: base }),
      close: () => new Promise((r) => server.close(r)),
    };
  }

  it('extends through audio-outpaint with the seconds before and after, and follows the job there', async () => {
    const queue = await recordingQueue();
    try {
      const { requestId } = await queue.studio.submitExtend({
        audioUrl: 'https://tracks.example/parent.wav?sig=1',
        tags: 'synthwave',
        lyrics: '[instrumental]',
        before: 0,
        after: 30,
        webhookUrl: 'https://app.example/api/webhooks/fal',
      });
      expect(requestId).toBe('job-1');
      expect(queue.calls[0]).toMatchObject({
        method: 'POST',
        path: '/queue.fal.run/fal-ai/ace-step/audio-outpaint',
        body: {
          audio_url: 'https://tracks.example/parent.wav?sig=1',
          tags: 'synthwave',
          lyrics: '[instrumental]',
          extend_before_duration: 0,
          extend_after_duration: 30,
        },
      });
      expect(decodeURIComponent(queue.calls[0]?.query ?? '')).toContain(
        'fal_webhook=https://app.example/api/webhooks/fal',
      );

      expect(await queue.studio.status('extend', requestId)).toBe('completed');
      expect(await queue.studio.result('extend', requestId)).toEqual({
        audioUrl: 'https://files.example/out.wav',
        seed: 7,
      });
      await queue.studio.cancel('extend', requestId);
      // Status, result and cancel name the job under fal's app (fal-ai/ace-step), not a text job's path.
      expect(queue.calls.slice(1).map((c) => `${c.method} ${c.path}`)).toEqual([
        'GET /queue.fal.run/fal-ai/ace-step/requests/job-1/status',
        'GET /queue.fal.run/fal-ai/ace-step/requests/job-1',
        'PUT /queue.fal.run/fal-ai/ace-step/requests/job-1/cancel',
      ]);
    } finally {
      await queue.close();
    }
  });

  it('separates through fal-ai/demucs, asking for WAV stems', async () => {
    const queue = await recordingQueue();
    try {
      await queue.studio.submitStems({
        audioUrl: 'https://tracks.example/song.wav?sig=1',
        model: 'htdemucs',
        stems: ['vocals', 'drums', 'bass', 'other'],
        webhookUrl: 'https://app.example/api/webhooks/fal',
      });
      expect(queue.calls[0]).toMatchObject({
        method: 'POST',
        path: '/queue.fal.run/fal-ai/demucs',
        body: {
          audio_url: 'https://tracks.example/song.wav?sig=1',
          model: 'htdemucs',
          stems: ['vocals', 'drums', 'bass', 'other'],
          output_format: 'wav',
        },
      });
    } finally {
      await queue.close();
    }
  });

  it('repaints through audio-inpaint with the section and the variance', async () => {
    const queue = await recordingQueue();
    try {
      await queue.studio.submitRepaint({
        audioUrl: 'https://tracks.example/parent.wav?sig=2',
        tags: 'rock',
        lyrics: '[chorus]\nagain',
        start: 12.5,
        end: 20,
        variance: 0.3,
      });
      expect(queue.calls[0]).toMatchObject({
        method: 'POST',
        path: '/queue.fal.run/fal-ai/ace-step/audio-inpaint',
        body: {
          audio_url: 'https://tracks.example/parent.wav?sig=2',
          tags: 'rock',
          lyrics: '[chorus]\nagain',
          start_time: 12.5,
          end_time: 20,
          variance: 0.3,
        },
      });
    } finally {
      await queue.close();
    }
  });
});

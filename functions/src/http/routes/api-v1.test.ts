import { IDEMPOTENCY_HEADER, v1ListMessages } from '@tunesmith/shared/api-v1-schemas';
import { developerMessages } from '@tunesmith/shared/developer-api';
import { generationMessages, songDurationInvalid } from '@tunesmith/shared/generations';
import { uploadMessages } from '@tunesmith/shared/uploads';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import type { User } from '../../domain/accounts/user';
import { DomainError } from '../../domain/errors';
import { aGeneration, aPlan, aUser } from '../../testing/fixtures';
import { inMemoryPlans } from '../../testing/in-memory';
import { fakeClock, inMemoryLimiter } from '../../testing/in-memory-accounts';
import { inMemoryGenerationStore, inMemoryQuota } from '../../testing/in-memory-generations';
import { inMemoryIdempotencyStore } from '../../testing/in-memory-idempotency';
import { inMemoryModelSettings } from '../../testing/in-memory-models';
import { errorToResponse } from '../errors';
import type { RouteContext } from '../group-handler';
import { v1Routes } from './api-v1';

const wav = new Uint8Array([...Buffer.from('RIFF'), 36, 0, 0, 0, ...Buffer.from('WAVEfmt '), 16, 0, 0, 0]);

function setup() {
  let n = 0;
  const started: string[] = [];
  const user = aUser({ id: 'me', planStatus: 'free' }) as User;
  const store = inMemoryGenerationStore([
    aGeneration({ id: 'mine', userId: 'me', audioUrl: 's3://tracks/tracks/mine.wav', duration: 30 }),
    aGeneration({ id: 'theirs', userId: 'them', visibility: 'public' }),
  ]);
  const quota = inMemoryQuota();
  const objects: Record<string, Uint8Array> = {};
  const routes = v1Routes({
    generations: {
      generations: store,
      quota,
      clock: fakeClock('2026-11-29T12:00:00.000Z'),
      newId: () => `id-${++n}`,
    },
    plans: inMemoryPlans([aPlan()]),
    siteOrigin: 'https://tunesmith.test',
    workflow: { start: async (id) => void started.push(id) },
    modelSettings: inMemoryModelSettings(),
    uploads: {
      head: async (key) => (objects[key] ? { size: objects[key].length, sha256: 'feed' } : undefined),
      readStart: async (key, bytes) => (objects[key] as Uint8Array).subarray(0, bytes),
      delete: async (key) => void delete objects[key],
      move: async (from, to) => {
        objects[to] = objects[from] as Uint8Array;
        delete objects[from];
      },
      sha256: async () => 'feed',
      recordSha256: async () => {},
    },
    uploadLink: async (key, options) =>
      `https://uploads.test/${key}?type=${options.contentType}&size=${options.size}`,
    uploadLinkSeconds: 900,
    limiter: inMemoryLimiter(),
    audioLinks: async (stored) => (stored ? `https://cdn.test/${stored.slice(5)}` : null),
    downloadLink: async (stored) => `https://cdn.test/${stored.slice(5)}?download`,
    lyrics: { get: async () => undefined },
    idempotency: inMemoryIdempotencyStore(),
    metrics: { count: () => {} },
  });
  const call = async (
    id: keyof ReturnType<typeof v1Routes>,
    options: {
      body?: unknown;
      params?: Record<string, string>;
      headers?: Record<string, string>;
      query?: Record<string, string>;
    } = {},
  ) => {
    const event = {
      rawPath: `/api/v1/${id}/${options.params?.id ?? ''}`,
      requestContext: { http: { method: 'POST' } },
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      headers: { 'content-type': 'application/json', ...options.headers },
      queryStringParameters: options.query,
    } as unknown as APIGatewayProxyEventV2;
    const ctx = { user, cookies: [], params: options.params ?? {} } as unknown as RouteContext;
    try {
      const res = await routes[id]?.(event, ctx);
      return { status: res?.statusCode, headers: res?.headers ?? {}, body: JSON.parse(String(res?.body)) };
    } catch (error) {
      // The group handler's job: errors become answers.
      const res = errorToResponse(error);
      return { status: res.statusCode, headers: res.headers ?? {}, body: JSON.parse(String(res.body)) };
    }
  };
  return { call, store, quota, started, objects };
}

describe('POST /api/v1/tracks', () => {
  it('starts a track from text and answers its id and status', async () => {
    const { call, started, store } = setup();

    const res = await call('v1CreateTrack', { body: { tags: 'lofi', duration: 30 } });

    expect(res.status).toBe(201);
    expect(res.body).toEqual({ id: started[0], status: 'pending' });
    expect(store.all.get(res.body.id)).toMatchObject({ userId: 'me', type: 'text-to-music', tags: 'lofi' });
  });

  it('refuses what the app refuses, with the app’s message', async () => {
    const { call, started } = setup();

    const noTags = await call('v1CreateTrack', { body: { duration: 30 } });
    const tooLong = await call('v1CreateTrack', { body: { tags: 'lofi', duration: 999 } });

    expect(noTags).toMatchObject({ status: 400, body: { message: generationMessages.tagsRequired } });
    expect(tooLong).toMatchObject({ status: 400, body: { message: songDurationInvalid } });
    expect(started).toEqual([]);
  });

  it('restyles the caller’s own upload, taken in from where it was PUT', async () => {
    const { call, objects, store } = setup();
    const upload = await call('v1CreateUpload', {
      body: { filename: 'song.wav', type: 'audio/wav', size: wav.length },
    });
    objects[`incoming/me/${upload.body.inputAudio.split('/').pop()}`] = wav;

    const res = await call('v1CreateTrack', { body: { tags: 'jazz', inputAudio: upload.body.inputAudio } });
    const theirs = await call('v1CreateTrack', {
      body: { tags: 'jazz', inputAudio: '/objects/uploads/them/x.wav' },
    });

    expect(res.status).toBe(201);
    expect(store.all.get(res.body.id)).toMatchObject({
      type: 'audio-to-music',
      inputAudioUrl: upload.body.inputAudio,
    });
    expect(theirs).toMatchObject({ status: 404, body: { message: uploadMessages.notFound } });
  });
});

describe('idempotent POSTs', () => {
  it('replays the first answer to a repeat, starting and charging once', async () => {
    const { call, started, quota } = setup();
    const headers = { [IDEMPOTENCY_HEADER.toLowerCase()]: 'order-1' };

    const first = await call('v1CreateTrack', { body: { tags: 'lofi' }, headers });
    const again = await call('v1CreateTrack', { body: { tags: 'lofi' }, headers });

    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    expect(started).toHaveLength(1);
    expect(quota.counters.get('me')?.used).toBe(1);
  });

  it('replays a refusal in the /api/v1 error shape, and refuses the key with another body', async () => {
    const { call } = setup();
    const headers = { 'idempotency-key': 'order-2' };

    const first = await call('v1CreateTrack', { body: { duration: 30 }, headers });
    const again = await call('v1CreateTrack', { body: { duration: 30 }, headers });
    const other = await call('v1CreateTrack', { body: { tags: 'lofi' }, headers });

    expect(first).toMatchObject({ status: 400, body: { message: generationMessages.tagsRequired } });
    expect(again).toMatchObject({
      status: 400,
      body: { error: { code: 'invalid_request', message: generationMessages.tagsRequired } },
    });
    expect(other).toMatchObject({ status: 422, body: { message: developerMessages.idempotencyMismatch } });
  });

  it('refuses a malformed key before anything runs', async () => {
    const { call, started } = setup();

    const res = await call('v1CreateTrack', {
      body: { tags: 'lofi' },
      headers: { 'idempotency-key': 'has space' },
    });

    expect(res).toMatchObject({ status: 400, body: { message: developerMessages.idempotencyKeyInvalid } });
    expect(started).toEqual([]);
  });
});

describe('GET /api/v1/tracks', () => {
  it('answers the caller’s track, and another user’s (public or not) as not found', async () => {
    const { call } = setup();

    const mine = await call('v1GetTrack', { params: { id: 'mine' } });
    const theirs = await call('v1GetTrack', { params: { id: 'theirs' } });

    expect(mine).toMatchObject({
      status: 200,
      body: {
        id: 'mine',
        status: 'completed',
        audio: { stream: 'https://cdn.test/tracks/tracks/mine.wav', wav: null },
      },
    });
    expect(theirs).toMatchObject({ status: 404, body: { message: generationMessages.trackNotFound } });
  });

  it('pages through the caller’s own tracks', async () => {
    const { call } = setup();
    await call('v1CreateTrack', { body: { tags: 'a' } });

    const first = await call('v1ListTracks', { query: { limit: '1' } });
    const second = await call('v1ListTracks', { query: { limit: '1', cursor: first.body.next } });

    expect(first.body.tracks).toHaveLength(1);
    expect(second.body.tracks.map((t: { id: string }) => t.id)).not.toContain(first.body.tracks[0].id);
    expect(second.body.next).toBeNull();
    expect([...first.body.tracks, ...second.body.tracks].map((t: { id: string }) => t.id)).not.toContain(
      'theirs',
    );
  });

  it.each([
    ['abc', v1ListMessages.limitInvalid],
    ['1000', v1ListMessages.limitInvalid],
    ['0', v1ListMessages.limitInvalid],
  ])('refuses limit %s in words, not a pattern', async (limit, message) => {
    const { call } = setup();
    expect(await call('v1ListTracks', { query: { limit } })).toMatchObject({
      status: 400,
      body: { message },
    });
  });

  it('refuses a cursor too long to be one of ours', async () => {
    const { call } = setup();
    expect(await call('v1ListTracks', { query: { cursor: 'c'.repeat(2000) } })).toMatchObject({
      status: 400,
      body: { message: v1ListMessages.cursorInvalid },
    });
  });
});

describe('POST /api/v1/uploads', () => {
  it('answers a PUT link for the described file and the inputAudio to restyle it', async () => {
    const { call } = setup();

    const res = await call('v1CreateUpload', {
      body: { filename: 'song.wav', type: 'audio/wav', size: 1000 },
    });

    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      method: 'PUT',
      headers: { 'content-type': 'audio/wav' },
      inputAudio: '/objects/uploads/me/id-1.wav',
      expiresAt: '2026-11-29T12:15:00.000Z',
    });
    expect(res.body.uploadUrl).toBe('https://uploads.test/incoming/me/id-1.wav?type=audio/wav&size=1000');
  });

  it('refuses a type or size the app refuses, with its messages', async () => {
    const { call } = setup();

    const exe = await call('v1CreateUpload', { body: { filename: 'x.exe', type: 'audio/wav', size: 10 } });
    const huge = await call('v1CreateUpload', { body: { filename: 'x.wav', type: 'audio/wav', size: 1e12 } });

    expect(exe).toMatchObject({ status: 400, body: { message: uploadMessages.typeNotAllowed } });
    expect(huge).toMatchObject({ status: 400, body: { message: uploadMessages.tooLarge } });
  });
});

describe('POST /api/v1/tracks/{id}/extend|repaint|variation', () => {
  it('starts each from the caller’s track with the app’s bodies, and refuses another user’s as not found', async () => {
    const { call, store } = setup();

    const extend = await call('v1ExtendTrack', { params: { id: 'mine' }, body: { seconds: 10 } });
    const repaint = await call('v1RepaintTrack', { params: { id: 'mine' }, body: { start: 1, end: 5 } });
    const variation = await call('v1CreateVariation', { params: { id: 'mine' }, body: {} });
    const theirs = await call('v1CreateVariation', { params: { id: 'theirs' }, body: 'not even an object' });

    for (const res of [extend, repaint, variation]) expect(res.status).toBe(201);
    expect(store.all.get(extend.body.id)?.edit?.kind).toBe('extend');
    expect(store.all.get(repaint.body.id)?.edit?.kind).toBe('repaint');
    expect(store.all.get(variation.body.id)?.edit?.kind).toBe('variation');
    expect(theirs.status).toBe(404);
  });

  it('refuses a repaint outside the track with the app’s message naming its length', async () => {
    const { call } = setup();

    const res = await call('v1RepaintTrack', { params: { id: 'mine' }, body: { start: 1, end: 40 } });

    expect(res).toMatchObject({ status: 400, body: { message: generationMessages.sectionOutside(30) } });
  });
});

it('a DomainError of kind idempotency-mismatch is a 422', () => {
  expect(errorToResponse(new DomainError('idempotency-mismatch', 'x')).statusCode).toBe(422);
});

import { randomUUID } from 'node:crypto';
import { IDEMPOTENCY_TTL_SECONDS } from '@tunesmith/shared/api-v1-schemas';
import { developerMessages } from '@tunesmith/shared/developer-api';
import { generationMessages } from '@tunesmith/shared/generations';
import { afterAll, describe, expect, it } from 'vitest';
import { dynamoGenerationStore } from '../src/adapters/dynamo/generation-store';
import { dynamoIdempotencyStore } from '../src/adapters/dynamo/idempotency-store';
import { dynamoQuotaStore } from '../src/adapters/dynamo/quota-store';
import { requestHash } from '../src/domain/developers/idempotency';
import { DomainError } from '../src/domain/errors';
import { quotaExhaustedMessage } from '../src/domain/generations/generation-service';
import { quotaWindowStart } from '../src/domain/generations/quota-window';
import { CURSOR_INVALID } from '../src/domain/tracks/track';
import { aGeneration } from '../src/testing/fixtures';
import { signedInUser } from './support/accounts';
import { direct } from './support/direct';
import { apiUrl } from './support/http';
import { localOnly, paidGeneration } from './support/run';
import { wavBytes } from './support/storage';

// `/api/v1` end to end (decision 055): a key made through the Developers
// calls, then the calls a program makes with it, against the local cloud.
// The idempotency records' conditional writes are proved on the real table too.

const store = direct();
const idempotency = dynamoIdempotencyStore(store.documents, store.tableName);
const generations = dynamoGenerationStore(store.documents, store.tableName);
const quota = dynamoQuotaStore(store.documents, store.tableName);

afterAll(() => store.close());

/** Tests that wait for tracks to finish get longer than the suite's 60 s. */
const PIPELINE_TEST_TIMEOUT_MS = 120_000;
const SETTLE_WITHIN_MS = 90_000;

interface Answer {
  status: number;
  headers: Headers;
  body: Record<string, unknown> & { error?: { code: string; message: string } };
}

/** A program's call: the key as a bearer token, no cookies, no Origin. */
async function v1(
  key: string,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<Answer> {
  const response = await fetch(`${apiUrl}${path}`, {
    method,
    redirect: 'manual',
    headers: {
      authorization: `Bearer ${key}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...headers,
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : {} };
}

/** A signed-up user and an API key of theirs with both scopes. */
async function developer(): Promise<{ id: string; key: string }> {
  const { browser, id } = await signedInUser();
  const res = await browser.post('/api/user/api-keys', { name: 'integration', scopes: ['generate', 'read'] });
  expect(res.status).toBe(201);
  return { id, key: String(res.body.key) };
}

/** Polls `GET /api/v1/tracks/{id}` until the track is completed or failed. */
async function settled(key: string, id: string): Promise<Answer['body']> {
  const deadline = Date.now() + SETTLE_WITHIN_MS;
  while (Date.now() < deadline) {
    const res = await v1(key, 'GET', `/api/v1/tracks/${id}`);
    expect(res.status).toBe(200);
    if (res.body.status === 'completed' || res.body.status === 'failed') return res.body;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`Track ${id} did not finish within ${SETTLE_WITHIN_MS / 1000} s`);
}

const usedQuota = async (userId: string) => (await quota.read(userId))?.used ?? 0;

describe('idempotency records on the table', () => {
  const hash = requestHash({ method: 'POST', path: '/api/v1/tracks', body: '{"tags":"pop"}' });
  const now = Math.floor(Date.now() / 1000);
  const record = {
    status: 'in_progress' as const,
    requestHash: hash,
    expiresAt: now + 60,
    lockedUntil: now + 30,
  };

  it('lets exactly one of racing claims win; the others read the winner’s record', async () => {
    const userId = `it-idem-${randomUUID()}`;

    const claims = await Promise.all(
      Array.from({ length: 5 }, () => idempotency.claim(userId, 'k', record, now)),
    );

    expect(claims.filter((c) => c.claimed)).toHaveLength(1);
    for (const lost of claims.filter((c) => !c.claimed)) {
      expect(lost).toMatchObject({ claimed: false, existing: { status: 'in_progress', requestHash: hash } });
    }
  });

  it('keeps the completed answer, and frees the key once it expired or was released', async () => {
    const userId = `it-idem-${randomUUID()}`;
    const answer = { statusCode: 201, body: '{"id":"t"}' };
    await idempotency.claim(userId, 'done', record, now);
    await idempotency.complete(userId, 'done', hash, answer, now + IDEMPOTENCY_TTL_SECONDS);
    await idempotency.claim(userId, 'released', record, now);
    await idempotency.release(userId, 'released', hash);

    const repeat = await idempotency.claim(userId, 'done', record, now);
    const afterExpiry = await idempotency.claim(userId, 'done', record, now + IDEMPOTENCY_TTL_SECONDS);
    const afterRelease = await idempotency.claim(userId, 'released', record, now);

    expect(repeat).toEqual({
      claimed: false,
      existing: { status: 'completed', requestHash: hash, answer, expiresAt: now + IDEMPOTENCY_TTL_SECONDS },
    });
    expect(afterExpiry).toEqual({ claimed: true });
    expect(afterRelease).toEqual({ claimed: true });
  });

  it('refuses a library cursor of another user’s list', async () => {
    const owner = `it-cursor-${randomUUID()}`;
    const ids = [randomUUID(), randomUUID()];
    for (const [i, id] of ids.entries()) {
      await generations.create(
        aGeneration({ id, userId: owner, createdAt: `2026-11-0${i + 1}T00:00:00.000Z` }),
      );
    }
    const page = await generations.listByUser(owner, { limit: 1 });

    const error = await generations
      .listByUser(`it-other-${randomUUID()}`, { limit: 1, cursor: page.cursor as string })
      .catch((e) => e);

    expect(page.cursor).toBeTruthy();
    expect(error).toBeInstanceOf(DomainError);
    expect((error as DomainError).message).toBe(CURSOR_INVALID);
    await Promise.all(ids.map((id) => generations.delete(id, owner)));
  });
});

describe('/api/v1 with an API key', () => {
  paidGeneration.it(
    'creates a track that a poll finds completed with its audio links',
    { timeout: PIPELINE_TEST_TIMEOUT_MS },
    async () => {
      const { key } = await developer();

      const created = await v1(key, 'POST', '/api/v1/tracks', {
        tags: 'lofi, piano',
        duration: 5,
        instrumental: true,
      });

      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({ id: expect.any(String), status: 'pending' });
      const done = await settled(key, String(created.body.id));
      expect(done).toMatchObject({ status: 'completed', tags: 'lofi, piano', error: null });
      const audio = done.audio as { stream: string; wav: string | null; peaks: string | null };
      // The free plan does not download: a stream, no WAV.
      expect(audio.wav).toBeNull();
      const stream = await fetch(audio.stream);
      expect(stream.status).toBe(200);
      expect((await stream.arrayBuffer()).byteLength).toBeGreaterThan(0);
      expect(String(done.provenanceUrl)).toMatch(new RegExp(`/api/track/${created.body.id}/provenance$`));
    },
  );

  it('answers another user’s track as not found, as the app does', async () => {
    const [alice, bob] = await Promise.all([developer(), developer()]);
    const created = await v1(alice.key, 'POST', '/api/v1/tracks', { tags: 'lofi', duration: 5 });
    expect(created.status).toBe(201);

    const res = await v1(bob.key, 'GET', `/api/v1/tracks/${created.body.id}`);

    expect(res.status).toBe(404);
    expect(res.body.error).toEqual({ code: 'not_found', message: generationMessages.trackNotFound });
  });

  it('refuses a body the app refuses, with the app’s message', async () => {
    const { key, id } = await developer();

    const res = await v1(key, 'POST', '/api/v1/tracks', { duration: 30 });

    expect(res.status).toBe(400);
    expect(res.body.error).toEqual({ code: 'invalid_request', message: generationMessages.tagsRequired });
    expect(await usedQuota(id)).toBe(0);
  });

  it('answers 429 with the app’s message once the week’s quota is used', async () => {
    const { key, id } = await developer();
    const now = new Date();
    // The Free plan's 5 of the week, used up.
    await quota.reserve(id, {
      limit: 5,
      windowStart: quotaWindowStart(now),
      now: now.toISOString(),
      units: 5,
    });

    const res = await v1(key, 'POST', '/api/v1/tracks', { tags: 'lofi', duration: 5 });

    expect(res.status).toBe(429);
    expect(res.body.error).toEqual({ code: 'rate_limited', message: quotaExhaustedMessage(5, new Date()) });
  });

  it('makes one track and charges one unit for racing repeats of one Idempotency-Key', async () => {
    const { key, id } = await developer();
    const headers = { 'Idempotency-Key': `race-${randomUUID()}` };
    const body = { tags: 'lofi, race', duration: 5 };

    const answers = await Promise.all(
      Array.from({ length: 5 }, () => v1(key, 'POST', '/api/v1/tracks', body, headers)),
    );

    const created = answers.filter((a) => a.status === 201);
    expect(created.length).toBeGreaterThanOrEqual(1);
    expect(new Set(created.map((a) => a.body.id)).size).toBe(1);
    for (const other of answers.filter((a) => a.status !== 201)) {
      expect(other.status).toBe(409);
      expect(other.body.error).toEqual({
        code: 'conflict',
        message: developerMessages.idempotencyInProgress,
      });
    }
    const page = await v1(key, 'GET', '/api/v1/tracks');
    expect((page.body.tracks as unknown[]).length).toBe(1);
    expect(await usedQuota(id)).toBe(1);
  });

  it('refuses the same key with a different body, and replays the first answer after completion', {
    timeout: PIPELINE_TEST_TIMEOUT_MS,
  }, async () => {
    const { key, id } = await developer();
    const headers = { 'Idempotency-Key': `replay-${randomUUID()}` };
    const first = await v1(key, 'POST', '/api/v1/tracks', { tags: 'lofi', duration: 5 }, headers);
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();

    const mismatch = await v1(key, 'POST', '/api/v1/tracks', { tags: 'jazz', duration: 5 }, headers);
    await settled(key, String(first.body.id));
    const replay = await v1(key, 'POST', '/api/v1/tracks', { duration: 5, tags: 'lofi' }, headers);

    expect(mismatch.status).toBe(422);
    expect(mismatch.body.error).toEqual({
      code: 'idempotency_mismatch',
      message: developerMessages.idempotencyMismatch,
    });
    expect(replay.status).toBe(201);
    expect(replay.body).toEqual(first.body);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(await usedQuota(id)).toBe(1);
  });

  localOnly('the embedded provider restyles').it(
    'uploads a file and restyles it',
    { timeout: PIPELINE_TEST_TIMEOUT_MS },
    async () => {
      const { key } = await developer();
      const wav = wavBytes({ seconds: 3 });
      const upload = await v1(key, 'POST', '/api/v1/uploads', {
        filename: 'riff.wav',
        type: 'audio/wav',
        size: wav.length,
      });
      expect(upload.status).toBe(201);
      const put = await fetch(String(upload.body.uploadUrl), {
        method: 'PUT',
        body: wav,
        headers: upload.body.headers as Record<string, string>,
      });
      expect(put.status).toBe(200);

      const created = await v1(key, 'POST', '/api/v1/tracks', {
        tags: 'rock',
        inputAudio: upload.body.inputAudio,
      });

      expect(created.status).toBe(201);
      const done = await settled(key, String(created.body.id));
      expect(done).toMatchObject({ status: 'completed', type: 'audio-to-music' });
    },
  );

  paidGeneration.it(
    'extends, repaints and varies a finished track with the app’s bodies',
    { timeout: PIPELINE_TEST_TIMEOUT_MS },
    async () => {
      const { key } = await developer();
      const created = await v1(key, 'POST', '/api/v1/tracks', {
        tags: 'lofi',
        duration: 5,
        instrumental: true,
      });
      const parent = String(created.body.id);
      await settled(key, parent);

      const extend = await v1(key, 'POST', `/api/v1/tracks/${parent}/extend`, { seconds: 5 });
      const repaint = await v1(key, 'POST', `/api/v1/tracks/${parent}/repaint`, { start: 1, end: 3 });
      const variation = await v1(key, 'POST', `/api/v1/tracks/${parent}/variation`, {});
      const outside = await v1(key, 'POST', `/api/v1/tracks/${parent}/repaint`, { start: 1, end: 60 });

      for (const res of [extend, repaint, variation]) {
        expect(res.status).toBe(201);
        const track = await v1(key, 'GET', `/api/v1/tracks/${res.body.id}`);
        expect(track.body.parentId).toBe(parent);
      }
      expect(outside.status).toBe(400);
      expect(outside.body.error?.code).toBe('invalid_request');
    },
  );

  it('pages through the caller’s tracks, newest first', async () => {
    const { key } = await developer();
    const ids: string[] = [];
    for (const tags of ['one', 'two', 'three']) {
      const res = await v1(key, 'POST', '/api/v1/tracks', { tags, duration: 5 });
      expect(res.status).toBe(201);
      ids.push(String(res.body.id));
    }

    const first = await v1(key, 'GET', '/api/v1/tracks?limit=2');
    const second = await v1(
      key,
      'GET',
      `/api/v1/tracks?limit=2&cursor=${encodeURIComponent(String(first.body.next))}`,
    );

    const listed = [...(first.body.tracks as { id: string }[]), ...(second.body.tracks as { id: string }[])];
    expect(listed.map((t) => t.id)).toEqual([...ids].reverse());
    expect(second.body.next).toBeNull();
  });
});

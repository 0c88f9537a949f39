import { generationMessages } from '@tunesmith/shared/generations';
import type { Track } from '@tunesmith/shared/tracks';
import { afterAll, describe, expect, it } from 'vitest';
import { dynamoGenerationStore } from '../src/adapters/dynamo/generation-store';
import { dynamoQuotaStore } from '../src/adapters/dynamo/quota-store';
import { quotaWindowStart } from '../src/domain/generations/quota-window';
import type { Generation } from '../src/domain/tracks/track';
import { wavDurationSeconds } from '../src/workflow/wav';
import { signedInUser } from './support/accounts';
import { direct } from './support/direct';
import { Browser } from './support/http';
import { localOnly, paidGeneration } from './support/run';
import { storage } from './support/storage';
import { storedTrack as storedTrackOf } from './support/tracks';

// The studio through the HTTP API: a variation, an extension or a repainted
// section of one of the owner's completed tracks, and instrumental text to
// music. Each is a generation of its own, run by the same workflow (the local
// runner) against the music provider, as generation.int.test.ts does for the
// create calls. Parents made straight in the table serve the calls that never
// reach the provider (bad input, other users' tracks, quota); the others make
// their parent through the pipeline first.

const store = direct();
const files = storage();
const generations = dynamoGenerationStore(store.documents, store.tableName);
const quota = dynamoQuotaStore(store.documents, store.tableName);

afterAll(() => {
  files.close();
  store.close();
});

const PIPELINE_TEST_TIMEOUT_MS = 150_000;
const SETTLE_WITHIN_MS = 60_000;

type Status = { status: string; audioUrl: string | null; duration: number | null; downloadReady: boolean };

/**
 * Polls the status call, as the Create page does, until the track is completed (and its download
 * prepared, so its stored WAV is the one it keeps) or failed.
 */
async function settled(browser: Browser, id: string): Promise<Status> {
  const deadline = Date.now() + SETTLE_WITHIN_MS;
  while (Date.now() < deadline) {
    const res = await browser.get(`/api/generation/${id}/status`);
    expect(res.status).toBe(200);
    const body = res.body as unknown as Status;
    if ((body.status === 'completed' && body.downloadReady) || body.status === 'failed') return body;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`Generation ${id} did not finish within ${SETTLE_WITHIN_MS / 1000} s`);
}

/** A completed track made through the pipeline, as the Create page makes one. */
async function madeTrack(browser: Browser, body: Record<string, unknown> = {}): Promise<Generation> {
  const res = await browser.post('/api/generate-text-to-music', {
    tags: 'synthwave, steady beat',
    lyrics: '[verse]\nneon over water',
    duration: 8,
    title: 'Night Drive',
    ...body,
  });
  expect(res.status).toBe(201);
  const id = String(res.body.generationId);
  expect((await settled(browser, id)).status).toBe('completed');
  return (await generations.get(id)) as Generation;
}

const storedTrack = (userId: string, over: Partial<Generation> = {}) =>
  storedTrackOf({ generations, files }, userId, over);

const used = async (userId: string) => (await quota.read(userId))?.used ?? 0;

/** Starts a studio call and checks its 201 answer: the new track, made from the parent. */
async function started(
  browser: Browser,
  parent: Generation,
  call: 'variation' | 'extend' | 'repaint',
  body: Record<string, unknown> = {},
): Promise<Track> {
  const res = await browser.post(`/api/generation/${parent.id}/${call}`, body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  const track = res.body.track as unknown as Track;
  expect(track).toMatchObject({ id: res.body.generationId, parentId: parent.id, edit: { kind: call } });
  expect(['pending', 'generating']).toContain(track.status);
  return track;
}

/** The finished child's stored record and its WAV's own length. */
async function finished(browser: Browser, id: string) {
  const done = await settled(browser, id);
  expect(done.status).toBe('completed');
  const stored = (await generations.get(id)) as Generation;
  const seconds = wavDurationSeconds(await files.storedBytes(stored.audioUrl as string)) ?? 0;
  return { done, stored, seconds };
}

describe('instrumental text to music', () => {
  paidGeneration.it(
    'records an instrumental with no lyrics and completes it',
    { timeout: PIPELINE_TEST_TIMEOUT_MS },
    async () => {
      const { browser } = await signedInUser();

      const res = await browser.post('/api/generate-text-to-music', {
        tags: 'lo-fi, piano',
        duration: 5,
        instrumental: true,
      });

      expect(res.status).toBe(201);
      const id = String(res.body.generationId);
      expect((await settled(browser, id)).status).toBe('completed');
      expect(await generations.get(id)).toMatchObject({ instrumental: true, lyrics: '' });
      const library = (await browser.get('/api/my-generations')).body as unknown as Track[];
      expect(library.find((t) => t.id === id)?.instrumental).toBe(true);
    },
  );

  it('refuses lyrics on an instrumental, taking no unit', async () => {
    const { browser, id: userId } = await signedInUser();

    const res = await browser.post('/api/generate-text-to-music', {
      tags: 'lo-fi',
      lyrics: '[verse]\nwords',
      instrumental: true,
    });

    expect(res.status).toBe(400);
    expect(res.body.message).toBe(generationMessages.instrumentalWithLyrics);
    expect(await used(userId)).toBe(0);
  });
});

describe('the studio calls, refused', () => {
  it('refuse input that does not fit the track with the spec’s messages, taking no unit', async () => {
    const { browser, id: userId } = await signedInUser();
    const parent = await storedTrack(userId, { duration: 200 });
    const cases: Array<['extend' | 'repaint', unknown, string]> = [
      // Every refusal of the seconds names this track's own range, as the dialog's hint does.
      ['extend', { seconds: 41 }, generationMessages.extendSecondsInvalid(40)],
      ['extend', { seconds: 3 }, generationMessages.extendSecondsInvalid(40)],
      ['extend', { seconds: 10.5 }, generationMessages.extendSecondsInvalid(40)],
      ['extend', {}, generationMessages.extendSecondsInvalid(40)],
      ['extend', { seconds: 10, at: 'middle' }, generationMessages.extendAtInvalid],
      ['repaint', { start: 190, end: 201 }, generationMessages.sectionOutside(200)],
      ['repaint', { start: 20, end: 10 }, generationMessages.sectionOrder],
      ['repaint', { start: 20, end: 20.5 }, generationMessages.sectionTooShort],
      ['repaint', { start: -1, end: 10 }, generationMessages.sectionOutside(200)],
      ['repaint', { start: 'a', end: 10 }, generationMessages.sectionTimeInvalid],
      ['repaint', { start: 0, end: 10, variance: 2 }, generationMessages.varianceInvalid],
    ];
    for (const [call, body, message] of cases) {
      const res = await browser.post(`/api/generation/${parent.id}/${call}`, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.message, JSON.stringify(body)).toBe(message);
    }
    expect(await used(userId)).toBe(0);
    expect((await generations.listByUser(userId, { limit: 10 })).items).toHaveLength(1);
  });

  it("answer 404 for other users' tracks, public or private, and for visitors", async () => {
    const owner = await signedInUser();
    const { browser, id: userId } = await signedInUser();
    const shared = await storedTrack(owner.id, { visibility: 'public' });
    const hidden = await storedTrack(owner.id, { visibility: 'private' });
    const calls: Array<[string, unknown]> = [
      ['variation', {}],
      ['extend', { seconds: 10 }],
      ['repaint', { start: 0, end: 5 }],
    ];
    for (const parent of [shared, hidden]) {
      for (const [call, body] of calls) {
        const res = await browser.post(`/api/generation/${parent.id}/${call}`, body);
        expect(res.status, `${call} ${parent.visibility}`).toBe(404);
        expect(res.body.message).toBe(generationMessages.trackNotFound);
      }
    }
    expect((await new Browser().post(`/api/generation/${shared.id}/variation`, {})).status).toBe(401);
    expect(await used(userId)).toBe(0);
    expect((await generations.listByUser(owner.id, { limit: 10 })).items).toHaveLength(2);
  });

  it('answer 400 for the owner’s track that is not completed yet', async () => {
    const { browser, id: userId } = await signedInUser();
    for (const status of ['pending', 'generating', 'failed'] as const) {
      const parent = await storedTrack(userId, { status, audioUrl: null });
      const res = await browser.post(`/api/generation/${parent.id}/variation`, {});
      expect(res.status, status).toBe(400);
      expect(res.body.message).toBe(generationMessages.notCompleted);
    }
    expect(await used(userId)).toBe(0);
  });

  it('answer 429 once the week’s generations are used, and record nothing', async () => {
    const { browser, id: userId } = await signedInUser();
    const parent = await storedTrack(userId);
    const now = new Date();
    for (let i = 0; i < 5; i++) {
      await quota.reserve(userId, { limit: 5, windowStart: quotaWindowStart(now), now: now.toISOString() });
    }

    for (const [call, body] of [
      ['variation', {}],
      ['extend', { seconds: 10 }],
      ['repaint', { start: 0, end: 5 }],
    ] as const) {
      const res = await browser.post(`/api/generation/${parent.id}/${call}`, body);
      expect(res.status, call).toBe(429);
      expect(res.body.message).toMatch(/^You have used all 5 generations of your plan this week\./);
    }
    expect(await used(userId)).toBe(5);
    expect((await generations.listByUser(userId, { limit: 10 })).items).toHaveLength(1);
  });
});

localOnly('runs the studio against the embedded music provider').describe('the studio calls, run', () => {
  it('make a variation: same tags, lyrics and duration, a new take', {
    timeout: PIPELINE_TEST_TIMEOUT_MS,
  }, async () => {
    const { browser, id: userId } = await signedInUser();
    const parent = await madeTrack(browser);

    const track = await started(browser, parent, 'variation');
    const { stored } = await finished(browser, track.id);

    expect(stored).toMatchObject({
      parentId: parent.id,
      edit: { kind: 'variation' },
      type: 'text-to-music',
      tags: parent.tags,
      lyrics: parent.lyrics,
      title: 'Night Drive',
    });
    expect(stored.duration).toBeCloseTo(parent.duration as number, 0);
    expect(stored.falRequestId).not.toBe(parent.falRequestId);
    expect(await used(userId)).toBe(2);
  });

  it('extend a track: the whole song, the given seconds longer', {
    timeout: PIPELINE_TEST_TIMEOUT_MS,
  }, async () => {
    const { browser, id: userId } = await signedInUser();
    const parent = await madeTrack(browser);

    const track = await started(browser, parent, 'extend', { seconds: 6 });
    expect(track.duration).toBeCloseTo((parent.duration as number) + 6, 1);
    const { stored, seconds } = await finished(browser, track.id);

    expect(stored).toMatchObject({ edit: { kind: 'extend', seconds: 6, at: 'end' }, inputAudioUrl: null });
    expect(Math.abs(seconds - ((parent.duration as number) + 6))).toBeLessThanOrEqual(0.5);
    expect(Math.abs((stored.duration as number) - ((parent.duration as number) + 6))).toBeLessThanOrEqual(
      0.5,
    );
    expect(await used(userId)).toBe(2);
  });

  it('repaint a section: the parent’s duration', { timeout: PIPELINE_TEST_TIMEOUT_MS }, async () => {
    const { browser } = await signedInUser();
    const parent = await madeTrack(browser);

    const track = await started(browser, parent, 'repaint', { start: 2, end: 5, variance: 0.7 });
    const { stored, seconds } = await finished(browser, track.id);

    expect(stored).toMatchObject({ edit: { kind: 'repaint', start: 2, end: 5, variance: 0.7 } });
    expect(Math.abs(seconds - (parent.duration as number))).toBeLessThanOrEqual(0.5);
  });

  it('a provider failure fails the new track and gives the unit back', {
    timeout: PIPELINE_TEST_TIMEOUT_MS,
  }, async () => {
    const { browser, id: userId } = await signedInUser();
    // A variation repeats its parent's tags, so the failure tag rides on the parent.
    const failing = await storedTrack(userId, { tags: 'pop, fail:provider', duration: 5 });

    const variation = await started(browser, failing, 'variation');
    expect((await settled(browser, variation.id)).status).toBe('failed');
    expect(await used(userId)).toBe(0);
  });

  it('an extend or a repaint the provider fails gives the unit back', {
    timeout: PIPELINE_TEST_TIMEOUT_MS,
  }, async () => {
    const { browser, id: userId } = await signedInUser();
    const parent = await madeTrack(browser);

    const extend = await started(browser, parent, 'extend', { seconds: 5, tags: 'pop, fail:provider' });
    const repaint = await started(browser, parent, 'repaint', {
      start: 0,
      end: 2,
      tags: 'pop, fail:provider',
    });
    expect((await settled(browser, extend.id)).status).toBe('failed');
    expect((await settled(browser, repaint.id)).status).toBe('failed');
    // Only the parent's unit stays used.
    expect(await used(userId)).toBe(1);
  });

  it('a deleted parent leaves its child playable, and the child names it as deleted to its owner', {
    timeout: PIPELINE_TEST_TIMEOUT_MS,
  }, async () => {
    const { browser } = await signedInUser();
    const parent = await madeTrack(browser);
    const track = await started(browser, parent, 'variation');
    await finished(browser, track.id);

    const before = (await browser.get(`/api/track/${parent.id}`)).body as unknown as Track;
    expect(before.family?.children).toEqual([
      { id: track.id, title: 'Night Drive', kind: 'variation', status: 'completed' },
    ]);
    const childPage = (await browser.get(`/api/track/${track.id}`)).body as unknown as Track;
    expect(childPage.family?.parent).toEqual({ id: parent.id, title: 'Night Drive', deleted: false });

    expect((await browser.call('DELETE', `/api/generation/${parent.id}`)).status).toBe(204);

    const page = await browser.get(`/api/track/${track.id}`);
    expect(page.status).toBe(200);
    const after = page.body as unknown as Track;
    expect(after).toMatchObject({ status: 'completed', parentId: parent.id });
    expect(after.family?.parent).toEqual({ id: parent.id, title: null, deleted: true });
    const played = await fetch(after.audioUrl as string);
    expect(played.status).toBe(200);
    expect((await generations.get(track.id))?.parentId).toBe(parent.id);
    // A visitor is told nothing of it: a parent that is gone may have been private.
    const visitor = (await new Browser().get(`/api/track/${track.id}`)).body as unknown as Track;
    expect(visitor).toMatchObject({ status: 'completed', parentId: null, family: { parent: null } });
  });
});

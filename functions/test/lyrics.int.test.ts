import { randomUUID } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { type TimedLyrics, timedLyricsSchema } from '@tunesmith/shared/lyrics';
import { afterAll, describe, expect, it } from 'vitest';
import { dynamoGenerationStore } from '../src/adapters/dynamo/generation-store';
import { dynamoLyricsStore } from '../src/adapters/dynamo/lyrics-store';
import { keys } from '../src/data/keys';
import type { Generation } from '../src/domain/tracks/track';
import { signedInUser } from './support/accounts';
import { direct } from './support/direct';
import { Browser } from './support/http';
import { localOnly, paidGeneration } from './support/run';

// Timed lyrics through the HTTP API: a sung track gets them after it plays (the embedded provider's
// fal-ai/whisper, then alignment), as JSON or .lrc, for whoever may see the track; 404 without them.

const store = direct();
const generations = dynamoGenerationStore(store.documents, store.tableName);
const lyricsStore = dynamoLyricsStore(store.documents, store.tableName);
afterAll(() => store.close());

const LYRICS =
  '[verse]\nHolding on to the summer light\nRunning through the city night\n[chorus]\nWe keep on chasing';

async function timedLyrics(browser: Browser, id: string, withinMs = 90_000) {
  const deadline = Date.now() + withinMs;
  for (;;) {
    const res = await browser.get(`/api/track/${id}/lyrics`);
    if (res.status === 200 || Date.now() > deadline) return res;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

const sample: TimedLyrics = {
  source: 'aligned',
  lines: [
    {
      start: 1.5,
      end: 3,
      text: 'Neon over water',
      words: [
        { start: 1.5, end: 2, text: 'Neon' },
        { start: 2, end: 2.5, text: 'over' },
        { start: 2.5, end: 3, text: 'water' },
      ],
    },
  ],
};

async function storedTrack(userId: string, over: Partial<Generation> = {}): Promise<Generation> {
  const at = new Date().toISOString();
  const generation: Generation = {
    id: `lyr-${randomUUID()}`,
    userId,
    type: 'text-to-music',
    title: 'Night Drive',
    tags: 'synthwave',
    lyrics: '[verse]\nNeon over water',
    duration: 30,
    status: 'completed',
    visibility: 'public',
    showInGallery: true,
    inputAudioUrl: null,
    audioUrl: 's3://tracks/tracks/none.wav',
    seed: 1,
    falRequestId: null,
    createdAt: at,
    updatedAt: at,
    ...over,
  };
  await generations.create(generation);
  return generation;
}

describe('a sung track', () => {
  paidGeneration.it(
    "gets its lyrics in time after it plays, in the owner's words, as JSON and .lrc, gone with the track",
    { timeout: 150_000 },
    async () => {
      const owner = await signedInUser();
      const res = await owner.browser.post('/api/generate-text-to-music', {
        tags: 'pop, female vocals',
        lyrics: LYRICS,
        duration: 15,
      });
      expect(res.status).toBe(201);
      const id = String(res.body.generationId);

      const answer = await timedLyrics(owner.browser, id);
      expect(answer.status).toBe(200);
      const timed = timedLyricsSchema.parse(answer.body);
      // The owner's own lines and words, section tags left out, in time order.
      expect(timed.source).toBe('aligned');
      expect(timed.lines.map((l) => l.text)).toEqual([
        'Holding on to the summer light',
        'Running through the city night',
        'We keep on chasing',
      ]);
      expect(timed.lines[0]?.words.map((w) => w.text)).toEqual([
        'Holding',
        'on',
        'to',
        'the',
        'summer',
        'light',
      ]);
      const starts = timed.lines.flatMap((l) => l.words.map((w) => w.start));
      expect([...starts].sort((a, b) => a - b)).toEqual(starts);
      expect(starts.at(-1)).toBeLessThanOrEqual(15);

      // A public track's lyrics are for everyone.
      expect((await new Browser().get(`/api/track/${id}/lyrics`)).body).toEqual(answer.body);

      const lrc = await owner.browser.get(`/api/track/${id}/lyrics?format=lrc`);
      expect(lrc.status).toBe(200);
      expect(lrc.headers.get('content-type')).toBe('text/plain; charset=utf-8');
      const text = String(lrc.body.text);
      expect(text.split('\n').filter((l) => /^\[\d\d:\d\d\.\d\d\]/.test(l))).toHaveLength(3);
      expect(text).toContain(']Holding on to the summer light');

      // Deleting the track deletes its lyrics.
      expect((await owner.browser.call('DELETE', `/api/generation/${id}`)).status).toBeLessThan(300);
      const left = await store.documents.send(
        new GetCommand({ TableName: store.tableName, Key: keys.trackLyrics(id) }),
      );
      expect(left.Item).toBeUndefined();
    },
  );

  paidGeneration.it('an instrumental track has no lyrics to time', { timeout: 150_000 }, async () => {
    const owner = await signedInUser();
    const res = await owner.browser.post('/api/generate-text-to-music', {
      tags: 'ambient',
      lyrics: '',
      instrumental: true,
      duration: 5,
    });
    expect(res.status).toBe(201);
    const id = String(res.body.generationId);
    const deadline = Date.now() + 60_000;
    while ((await owner.browser.get(`/api/generation/${id}/status`)).body.status !== 'completed') {
      if (Date.now() > deadline) throw new Error('not completed');
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const answer = await timedLyrics(owner.browser, id, 3_000);
    expect(answer.status).toBe(404);
    expect(answer.body.message).toBe('This track has no timed lyrics');
  });
});

localOnly('writes tracks straight to the table').describe('lyrics of a stored track', () => {
  it('of a public track are read by a visitor, as JSON and as an .lrc file named after the track', async () => {
    const owner = await signedInUser();
    const track = await storedTrack(owner.id);
    await lyricsStore.put(track.id, sample);
    const visitor = new Browser();

    const json = await visitor.get(`/api/track/${track.id}/lyrics`);
    expect(json.status).toBe(200);
    expect(json.body).toEqual(sample);

    const lrc = await visitor.get(`/api/track/${track.id}/lyrics?format=lrc`);
    expect(lrc.status).toBe(200);
    expect(lrc.headers.get('content-disposition')).toContain('filename="Night Drive.lrc"');
    expect(lrc.body.text).toBe('[ti:Night Drive]\n[length:00:30]\n[00:01.50]Neon over water\n');

    expect((await visitor.get(`/api/track/${track.id}/lyrics?format=srt`)).status).toBe(400);
  });

  it('of a private track are for its owner only', async () => {
    const owner = await signedInUser();
    const stranger = await signedInUser();
    const track = await storedTrack(owner.id, { visibility: 'private', showInGallery: false });
    await lyricsStore.put(track.id, sample);
    expect((await owner.browser.get(`/api/track/${track.id}/lyrics`)).body).toEqual(sample);
    expect((await owner.browser.get(`/api/track/${track.id}/lyrics?format=lrc`)).status).toBe(200);
    for (const browser of [stranger.browser, new Browser()]) {
      expect((await browser.get(`/api/track/${track.id}/lyrics`)).status).toBe(404);
      expect((await browser.get(`/api/track/${track.id}/lyrics?format=lrc`)).status).toBe(404);
    }
  });

  it('answer 404 while a track has none, and for a track that does not exist', async () => {
    const owner = await signedInUser();
    const track = await storedTrack(owner.id);
    expect((await owner.browser.get(`/api/track/${track.id}/lyrics`)).status).toBe(404);
    expect((await owner.browser.get(`/api/track/lyr-${randomUUID()}/lyrics`)).status).toBe(404);
  });
});

import { randomUUID } from 'node:crypto';
import { generationMessages, songDurationInvalid } from '@tunesmith/shared/generations';
import { uploadMessages } from '@tunesmith/shared/uploads';
import { afterAll, describe, expect, it } from 'vitest';
import { dynamoGenerationStore } from '../src/adapters/dynamo/generation-store';
import { dynamoQuotaStore } from '../src/adapters/dynamo/quota-store';
import { keptUploadKey, newUploadKey, objectPathOf } from '../src/domain/uploads/uploads';
import { wavDurationSeconds } from '../src/workflow/wav';
import { signedInUser } from './support/accounts';
import { direct } from './support/direct';
import { Browser } from './support/http';
import { localOnly, paidGeneration } from './support/run';
import { storage, wavBytes } from './support/storage';

// The generation pipeline through the HTTP API, end to end: the create calls
// start a Step Functions execution (the local endpoint and runner), the
// provider renders the audio and posts its signed webhook to
// /api/webhooks/fal, and the finished audio lands in the tracks bucket.
// Tests that rely on the embedded provider's behaviour (its `fail:provider`
// tag, how it restyles) run against the local cloud only; on a stage, tests
// that reach the provider call the real fal, so they run only when the run
// may pay for it (TUNESMITH_ALLOW_FAL_COST=1).

const store = direct();
const files = storage();
const generations = dynamoGenerationStore(store.documents, store.tableName);
const quota = dynamoQuotaStore(store.documents, store.tableName);

afterAll(() => {
  files.close();
  store.close();
});

/** Tests that wait for generations to finish get longer than the suite's 60 s. */
const PIPELINE_TEST_TIMEOUT_MS = 120_000;
/** `settled` gives up before the test times out, so its own message is what fails. */
const SETTLE_WITHIN_MS = 90_000;

type Status = {
  status: string;
  audioUrl: string | null;
  duration: number | null;
  tags: string;
  type: string;
  downloadReady: boolean;
};

/**
 * Polls the status call, as the Create page does, until the track is completed or failed
 * (or, with `until`, until the answer says so).
 */
async function settled(
  browser: Browser,
  id: string,
  until: (body: Status) => boolean = (body) => body.status === 'completed' || body.status === 'failed',
): Promise<Status> {
  const deadline = Date.now() + SETTLE_WITHIN_MS;
  while (Date.now() < deadline) {
    const res = await browser.get(`/api/generation/${id}/status`);
    expect(res.status).toBe(200);
    const body = res.body as unknown as Status;
    if (until(body) || body.status === 'failed') return body;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`Generation ${id} did not finish within ${SETTLE_WITHIN_MS / 1000} s`);
}

const ascii = (bytes: Uint8Array, from: number, to: number) =>
  Buffer.from(bytes.subarray(from, to)).toString('latin1');

/** Puts a file where the user's taken-in uploads are kept (the upload dialog's result); returns its object path. */
async function uploadWav(userId: string, bytes: Uint8Array): Promise<string> {
  const key = keptUploadKey(newUploadKey(userId, randomUUID(), 'song.wav'));
  await files.putUpload(key, bytes);
  return objectPathOf(key);
}

describe('text to music', () => {
  paidGeneration.it(
    'goes pending/generating → completed through the webhook, with duration, seed and playable audio',
    {
      timeout: PIPELINE_TEST_TIMEOUT_MS,
    },
    async () => {
      const { browser, id: userId } = await signedInUser();

      const res = await browser.post('/api/generate-text-to-music', {
        tags: 'jazz, piano',
        lyrics: '',
        duration: 5,
        title: 'Late Set',
        visibility: 'public',
      });

      expect(res.status).toBe(201);
      const generationId = String(res.body.generationId);
      const first = await browser.get(`/api/generation/${generationId}/status`);
      expect(['pending', 'generating']).toContain(first.body.status);

      const done = await settled(browser, generationId);
      expect(done).toMatchObject({ status: 'completed', tags: 'jazz, piano', type: 'text-to-music' });
      expect(done.duration).toBeCloseTo(5, 0);

      // Playable now; the WAV download follows once it is marked, signed and hashed.
      expect(await settled(browser, generationId, (body) => body.downloadReady)).toMatchObject({
        status: 'completed',
        downloadReady: true,
      });
      const stored = await generations.get(generationId);
      expect(stored).toMatchObject({ userId, title: 'Late Set', status: 'completed' });
      expect(typeof stored?.seed).toBe('number');
      expect(stored?.falRequestId).toBeTruthy();
      // Keyed by the track alone: a shared link says nothing about whose track it is.
      expect(stored?.audioUrl).toBe(`s3://${files.tracksBucket}/tracks/${generationId}.wav`);
      const bytes = await files.storedBytes(stored?.audioUrl as string);
      expect(ascii(bytes, 0, 4)).toBe('RIFF');
      expect(ascii(bytes, 8, 12)).toBe('WAVE');
      expect(wavDurationSeconds(bytes)).toBeCloseTo(5, 0);
      expect((await quota.read(userId))?.used).toBe(1);

      // The library hands the owner a link the player can fetch, never the s3:// address.
      const library = (await browser.get('/api/my-generations')).body as unknown as Array<{
        id: string;
        audioUrl: string | null;
      }>;
      const track = library.find((t) => t.id === generationId);
      expect(track?.audioUrl).toMatch(/^https?:\/\//);
      expect(track?.audioUrl).not.toContain(userId);
      const played = await fetch(track?.audioUrl as string);
      expect(played.status).toBe(200);
      // Players get the compressed copy (Ogg Opus; stream-copy.int.test.ts); the WAV is the download.
      const playedBytes = new Uint8Array(await played.arrayBuffer());
      expect(ascii(playedBytes, 0, 4)).toBe('OggS');
    },
  );

  paidGeneration.it(
    'accepts exactly 5 of 20 concurrent requests from a free user and tells the rest why',
    {
      timeout: PIPELINE_TEST_TIMEOUT_MS,
    },
    async () => {
      const { browser, id: userId } = await signedInUser();

      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          browser.post('/api/generate-text-to-music', { tags: `ambient, take ${i}`, duration: 5 }),
        ),
      );

      const accepted = answers.filter((a) => a.status === 201);
      const refused = answers.filter((a) => a.status === 429);
      expect(accepted).toHaveLength(5);
      expect(refused).toHaveLength(15);
      for (const answer of refused) {
        expect(answer.body.message).toMatch(
          /^You have used all 5 generations of your plan this week\. Your quota resets on \w+day, \w+ \d{1,2}\.$/,
        );
      }
      expect((await generations.listByUser(userId, { limit: 50 })).items).toHaveLength(5);
      // Each accepted one runs to the end on its own execution.
      const finished = await Promise.all(accepted.map((a) => settled(browser, String(a.body.generationId))));
      expect(finished.map((f) => f.status)).toEqual(Array(5).fill('completed'));
    },
  );

  it('refuses invalid input with the spec’s messages and takes no unit', async () => {
    const { browser, id: userId } = await signedInUser();
    const cases: Array<[unknown, string]> = [
      [{ tags: '', duration: 30 }, generationMessages.tagsRequired],
      [{ duration: 30 }, generationMessages.tagsRequired],
      // Within what some model makes (1 to 240 s), but outside the default model's own range.
      [
        { tags: 'rock', duration: 3 },
        'ACE-Step makes 5 to 240 seconds: the duration must be a whole number of seconds in that range.',
      ],
      [{ tags: 'rock', duration: 241 }, songDurationInvalid],
      [{ tags: 'rock', duration: 30.5 }, songDurationInvalid],
      [{ tags: 'rock', visibility: 'friends' }, generationMessages.visibilityInvalid],
      [{ tags: 'rock', title: 'x'.repeat(101) }, generationMessages.titleTooLong],
      [{ tags: 'rock', bpm: 39 }, generationMessages.bpmInvalid],
      [{ tags: 'rock', bpm: 241 }, generationMessages.bpmInvalid],
      [{ tags: 'rock', bpm: 120.5 }, generationMessages.bpmInvalid],
      [{ tags: 'rock', bpm: 'fast' }, generationMessages.bpmInvalid],
      [{ tags: 'rock', key: 'H major' }, generationMessages.keyInvalid],
      [{ tags: 'rock', key: 'A dorian' }, generationMessages.keyInvalid],
    ];
    for (const [body, message] of cases) {
      const res = await browser.post('/api/generate-text-to-music', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.message).toBe(message);
    }
    expect((await new Browser().post('/api/generate-text-to-music', { tags: 'rock' })).status).toBe(401);
    expect((await quota.read(userId))?.used ?? 0).toBe(0);
  });

  paidGeneration.it(
    'takes one unit for a valid request and runs it to the end',
    {
      timeout: PIPELINE_TEST_TIMEOUT_MS,
    },
    async () => {
      const { browser, id: userId } = await signedInUser();
      const valid = await browser.post('/api/generate-text-to-music', { tags: 'rock', duration: 5 });
      expect(valid.status).toBe(201);
      expect((await quota.read(userId))?.used).toBe(1);
      // Not left running past the test.
      expect((await settled(browser, String(valid.body.generationId))).status).toBe('completed');
    },
  );
});

describe('audio to music', () => {
  it('refuses a missing, foreign or non-audio upload before taking a unit', async () => {
    const alice = await signedInUser();
    const bob = await signedInUser();
    const bobsUpload = await uploadWav(bob.id, wavBytes({ seconds: 1 }));
    const notAudio = await uploadWav(alice.id, new TextEncoder().encode('definitely not a song'));

    const missing = await alice.browser.post('/api/generate-audio-to-music', { tags: 'rock' });
    const foreign = await alice.browser.post('/api/generate-audio-to-music', {
      tags: 'rock',
      inputAudioUrl: bobsUpload,
    });
    const text = await alice.browser.post('/api/generate-audio-to-music', {
      tags: 'rock',
      inputAudioUrl: notAudio,
    });
    const noTags = await alice.browser.post('/api/generate-audio-to-music', { inputAudioUrl: bobsUpload });

    expect([missing.status, missing.body.message]).toEqual([400, generationMessages.inputAudioUrlRequired]);
    expect([foreign.status, foreign.body.message]).toEqual([404, uploadMessages.notFound]);
    expect([text.status, text.body.message]).toEqual([400, uploadMessages.notAudio]);
    expect([noTags.status, noTags.body.message]).toEqual([400, generationMessages.tagsRequired]);
    expect((await quota.read(alice.id))?.used ?? 0).toBe(0);
  });
});

describe('lyrics helper', () => {
  paidGeneration.it('writes [verse]/[chorus] lyrics from the prompt', async () => {
    const { browser } = await signedInUser();

    const res = await browser.post('/api/generate-lyrics', { prompt: 'a road trip at dawn', duration: 60 });

    expect(res.status).toBe(200);
    expect(res.body.lyrics).toEqual(expect.stringContaining('[verse]'));
    expect(res.body.lyrics).toEqual(expect.stringContaining('[chorus]'));
  });

  it('refuses an empty prompt', async () => {
    const { browser } = await signedInUser();

    const empty = await browser.post('/api/generate-lyrics', { prompt: '  ', duration: 60 });

    expect([empty.status, empty.body.message]).toEqual([400, generationMessages.promptRequired]);
  });
});

describe('provider webhook', () => {
  it('refuses a delivery whose signature does not verify', async () => {
    const body = JSON.stringify({ request_id: 'req-forged', status: 'OK', payload: {} });
    const headers = {
      'content-type': 'application/json',
      'x-fal-webhook-request-id': 'req-forged',
      'x-fal-webhook-user-id': 'someone',
      'x-fal-webhook-timestamp': String(Math.floor(Date.now() / 1000)),
      'x-fal-webhook-signature': 'ab'.repeat(64),
    };

    const forged = await fetch(`${new Browser().origin}/api/webhooks/fal`, { method: 'POST', headers, body });
    const unsigned = await fetch(`${new Browser().origin}/api/webhooks/fal`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });

    expect(forged.status).toBe(401);
    expect(await forged.json()).toEqual({ message: 'Invalid webhook signature' });
    expect(unsigned.status).toBe(401);
  });
});

localOnly('steers the embedded music provider with its failure tags and restyling').describe(
  'with the embedded music provider',
  () => {
    it('marks a provider failure failed and gives the unit back', {
      timeout: PIPELINE_TEST_TIMEOUT_MS,
    }, async () => {
      const { browser, id: userId } = await signedInUser();

      const res = await browser.post('/api/generate-text-to-music', {
        tags: 'pop, fail:provider',
        duration: 5,
      });

      expect(res.status).toBe(201);
      const done = await settled(browser, String(res.body.generationId));
      expect(done).toMatchObject({ status: 'failed', audioUrl: null });
      expect((await quota.read(userId))?.used).toBe(0);
    });

    it('restyles the user’s own uploaded WAV into a completed track as long as the upload', {
      timeout: PIPELINE_TEST_TIMEOUT_MS,
    }, async () => {
      const { browser, id: userId } = await signedInUser();
      const objectPath = await uploadWav(userId, wavBytes({ seconds: 4 }));

      const res = await browser.post('/api/generate-audio-to-music', {
        tags: 'rock, electric guitar',
        lyrics: '',
        inputAudioUrl: objectPath,
        visibility: 'public',
      });

      expect(res.status).toBe(201);
      const generationId = String(res.body.generationId);
      const done = await settled(browser, generationId);
      expect(done).toMatchObject({ status: 'completed', type: 'audio-to-music' });
      const stored = await generations.get(generationId);
      expect(stored).toMatchObject({ inputAudioUrl: objectPath, status: 'completed' });
      expect(typeof stored?.seed).toBe('number');
      const bytes = await files.storedBytes(stored?.audioUrl as string);
      expect(ascii(bytes, 8, 12)).toBe('WAVE');
      // The embedded provider keeps the source's length (resampled to 44.1 kHz).
      expect(wavDurationSeconds(bytes)).toBeCloseTo(4, 1);
      expect(done.duration).toBeCloseTo(4, 1);
    });

    it('answers a lyrics provider failure with the spec’s message', async () => {
      const { browser } = await signedInUser();

      const failed = await browser.post('/api/generate-lyrics', { prompt: 'fail:provider', duration: 60 });

      expect(failed.status).toBeGreaterThanOrEqual(400);
      expect(failed.body.message).toBe('Failed to generate lyrics. Please try again.');
    });
  },
);

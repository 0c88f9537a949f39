import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { dynamoGenerationStore } from '../src/adapters/dynamo/generation-store';
import type { Generation } from '../src/domain/tracks/track';
import { signedInUser } from './support/accounts';
import { direct } from './support/direct';
import { Browser } from './support/http';
import { subscribe } from './support/plans';
import { storage, wavBytes } from './support/storage';

// The library calls through the HTTP API: a user sees and changes only their own tracks.

const store = direct();
const generations = dynamoGenerationStore(store.documents, store.tableName);
const buckets = storage();
afterAll(() => {
  store.close();
  buckets.close();
});

async function aTrack(userId: string, overrides: Partial<Generation> = {}): Promise<Generation> {
  const now = new Date().toISOString();
  const generation: Generation = {
    id: `lib-${randomUUID()}`,
    userId,
    type: 'text-to-music',
    title: 'Morning',
    tags: 'lo-fi, chill',
    lyrics: null,
    duration: 42,
    status: 'completed',
    visibility: 'public',
    showInGallery: true,
    inputAudioUrl: null,
    audioUrl: 'http://127.0.0.1/files/a.wav',
    seed: 7,
    falRequestId: 'req',
    createdAt: now,
    updatedAt: now,
    ...overrides,
  };
  await generations.create(generation);
  return generation;
}

/** A finished track whose audio is stored in the tracks bucket, as the workflow leaves it. */
async function aStoredTrack(userId: string, overrides: Partial<Generation> = {}): Promise<Generation> {
  const id = `lib-${randomUUID()}`;
  return aTrack(userId, { id, audioUrl: await buckets.putTrackAudio(userId, id), ...overrides });
}

/** The bytes behind a link the API gave out, to prove it plays our stored audio. */
async function fetched(url: unknown): Promise<{ status: number; headers: Headers; bytes: Uint8Array }> {
  expect(typeof url).toBe('string');
  const response = await fetch(String(url));
  return {
    status: response.status,
    headers: response.headers,
    bytes: new Uint8Array(await response.arrayBuffer()),
  };
}

const isWav = (bytes: Uint8Array) =>
  Buffer.from(bytes.subarray(0, 4)).toString('latin1') === 'RIFF' &&
  Buffer.from(bytes.subarray(8, 12)).toString('latin1') === 'WAVE';

describe('the library', () => {
  it('lists only the signed-in user’s tracks, newest first, without owner fields', async () => {
    const alice = await signedInUser();
    const bob = await signedInUser();
    const older = await aTrack(alice.id, { createdAt: '2026-01-01T00:00:00.000Z' });
    const newer = await aTrack(alice.id, { createdAt: '2026-02-01T00:00:00.000Z', visibility: 'private' });
    await aTrack(bob.id);

    const res = await alice.browser.get('/api/my-generations');
    expect(res.status).toBe(200);
    const list = res.body as unknown as Record<string, unknown>[];
    expect(list.map((t) => t.id)).toEqual([newer.id, older.id]);
    expect(list[0]).not.toHaveProperty('userId');
    expect(list[0]).not.toHaveProperty('seed');

    expect((await new Browser().get('/api/my-generations')).status).toBe(401);
  });

  it('answers a generation’s status to its owner only', async () => {
    const alice = await signedInUser();
    const bob = await signedInUser();
    const track = await aTrack(alice.id, { status: 'generating', audioUrl: null, duration: null });

    const own = await alice.browser.get(`/api/generation/${track.id}/status`);
    expect(own.status).toBe(200);
    expect(own.body).toEqual({
      status: 'generating',
      audioUrl: null,
      peaksUrl: null,
      duration: null,
      tags: 'lo-fi, chill',
      type: 'text-to-music',
      // A track from before licenses were recorded has none (the SPA shows the personal one).
      license: null,
      downloadReady: false,
      // Tempo and key are measured when it completes.
      analysis: null,
      // A track from before the choice of models was made with the default (decision 051).
      model: 'ace-step',
    });
    expect((await bob.browser.get(`/api/generation/${track.id}/status`)).status).toBe(404);
    expect((await alice.browser.get('/api/generation/no-such-id/status')).status).toBe(404);
    expect((await new Browser().get(`/api/generation/${track.id}/status`)).status).toBe(401);
  });

  it('renames with the title rules and refuses everyone but the owner', async () => {
    const alice = await signedInUser();
    const bob = await signedInUser();
    const track = await aTrack(alice.id);
    const path = `/api/generation/${track.id}/visibility`;

    const renamed = await alice.browser.call('PATCH', path, { title: '  Evening  ', visibility: 'public' });
    expect(renamed.status).toBe(200);
    expect(renamed.body.title).toBe('Evening');
    expect((await generations.get(track.id))?.title).toBe('Evening');

    const empty = await alice.browser.call('PATCH', path, { title: '   ', visibility: 'public' });
    expect([empty.status, empty.body.message]).toEqual([400, 'Title cannot be empty.']);
    const long = await alice.browser.call('PATCH', path, { title: 'x'.repeat(101), visibility: 'public' });
    expect([long.status, long.body.message]).toEqual([400, 'Title must be 100 characters or less.']);

    const foreign = await bob.browser.call('PATCH', path, { title: 'Mine now', visibility: 'public' });
    expect(foreign.status).toBe(404);
    expect((await generations.get(track.id))?.title).toBe('Evening');
  });

  it('keeps private tracks for paid plans: a free user is told to upgrade', async () => {
    const alice = await signedInUser();
    const track = await aTrack(alice.id);
    const res = await alice.browser.call('PATCH', `/api/generation/${track.id}/visibility`, {
      title: 'Morning',
      visibility: 'private',
    });
    expect(res.status).toBe(402);
    expect(String(res.body.message)).toMatch(/paid plan/i);
    expect((await generations.get(track.id))?.visibility).toBe('public');
  });

  it('gives the owner playable links to stored audio in the list, the status and the update answer', async () => {
    const alice = await signedInUser();
    const track = await aStoredTrack(alice.id);

    const list = (await alice.browser.get('/api/my-generations')).body as unknown as Record<
      string,
      unknown
    >[];
    const status = await alice.browser.get(`/api/generation/${track.id}/status`);
    const updated = await alice.browser.call('PATCH', `/api/generation/${track.id}/visibility`, {
      title: 'Renamed',
      visibility: 'public',
    });

    const links = [
      list.find((t) => t.id === track.id)?.audioUrl,
      status.body.audioUrl,
      updated.body.audioUrl,
    ];
    for (const link of links) {
      // Never the stored address: a CloudFront signed link on the site's origin the browser can play (decision 008).
      const url = new URL(String(link));
      expect(url.origin).toBe(inject('apiUrl'));
      expect(url.pathname).toMatch(/^\/tracks\//);
      expect([...url.searchParams.keys()]).toEqual(
        expect.arrayContaining(['Expires', 'Signature', 'Key-Pair-Id']),
      );
      const audio = await fetched(link);
      expect(audio.status).toBe(200);
      expect(isWav(audio.bytes)).toBe(true);
    }
    // Players ask for ranges; a link altered in any way is refused before the audio is read.
    const played = await fetch(String(links[0]), { headers: { range: 'bytes=0-11' } });
    expect(played.status).toBe(206);
    expect(new Uint8Array(await played.arrayBuffer())).toHaveLength(12);
    const altered = new URL(String(links[0]));
    altered.searchParams.set('Expires', String(Number(altered.searchParams.get('Expires')) + 3600));
    expect((await fetch(altered)).status).toBe(403);
  });
});

describe('a private track', () => {
  it('is read, played, renamed, hidden, deleted and downloaded by its owner alone', async () => {
    const alice = await signedInUser();
    const bob = await signedInUser();
    await subscribe(store, bob.id);
    const track = await aStoredTrack(alice.id, { visibility: 'private', title: 'Secret' });
    const storedKey = track.audioUrl?.replace(/^s3:\/\/[^/]+\//, '') ?? '';
    const visitor = new Browser();

    const answers = [
      await bob.browser.get(`/api/generation/${track.id}/status`),
      await bob.browser.get(`/api/track/${track.id}`),
      await visitor.get(`/api/track/${track.id}`),
      await bob.browser.call('PATCH', `/api/generation/${track.id}/visibility`, {
        title: 'Mine now',
        visibility: 'private',
      }),
      await bob.browser.call('PATCH', `/api/generation/${track.id}/visibility`, {
        title: 'Secret',
        visibility: 'public',
      }),
      await bob.browser.call('DELETE', `/api/generation/${track.id}`),
      await bob.browser.get(`/api/generation/${track.id}/download`),
    ];
    for (const answer of answers) {
      expect([answer.status, answer.body.message]).toEqual([404, 'Track not found']);
    }
    const bobsLibrary = await bob.browser.get('/api/my-generations');
    // No answer to anyone else carries a link to the audio.
    for (const answer of [...answers, bobsLibrary]) {
      expect(JSON.stringify(answer.body)).not.toContain(storedKey);
    }
    expect(await generations.get(track.id)).toMatchObject({ title: 'Secret', visibility: 'private' });
    expect(await buckets.storedExists(track.audioUrl ?? '')).toBe(true);

    const own = await alice.browser.get(`/api/track/${track.id}`);
    expect(own.status).toBe(200);
    expect(own.body).toMatchObject({ id: track.id, title: 'Secret', visibility: 'private' });
    expect(isWav((await fetched(own.body.audioUrl)).bytes)).toBe(true);
  });
});

describe('deleting a track', () => {
  it('removes the track and its stored audio, every version of it', async () => {
    const alice = await signedInUser();
    const track = await aStoredTrack(alice.id);
    expect(await buckets.storedExists(track.audioUrl ?? '')).toBe(true);
    expect(await buckets.storedVersions(track.audioUrl ?? '')).toHaveLength(1);

    const res = await alice.browser.call('DELETE', `/api/generation/${track.id}`);

    expect(res.status).toBe(204);
    expect(await generations.get(track.id)).toBeUndefined();
    expect(await buckets.storedExists(track.audioUrl ?? '')).toBe(false);
    // Deleted means deleted: no old version (or delete marker) is left to restore.
    expect(await buckets.storedVersions(track.audioUrl ?? '')).toEqual([]);
    expect((await alice.browser.call('DELETE', `/api/generation/${track.id}`)).status).toBe(404);
  });

  it('removes a remix’s uploaded song with it', async () => {
    const alice = await signedInUser();
    const uploadKey = `uploads/${alice.id}/${randomUUID()}.wav`;
    await buckets.putUpload(uploadKey);
    const track = await aStoredTrack(alice.id, {
      type: 'audio-to-music',
      inputAudioUrl: `/objects/${uploadKey}`,
    });

    expect((await alice.browser.call('DELETE', `/api/generation/${track.id}`)).status).toBe(204);

    expect(await buckets.exists(buckets.uploadsBucket, uploadKey)).toBe(false);
    expect(await buckets.storedExists(track.audioUrl ?? '')).toBe(false);
  });
});

describe('downloading a track', () => {
  it('is refused on the free plan with the upgrade message', async () => {
    const alice = await signedInUser();
    const track = await aStoredTrack(alice.id);

    const res = await alice.browser.get(`/api/generation/${track.id}/download`);

    expect([res.status, res.body.message]).toEqual([
      403,
      'Downloads need a paid plan. Upgrade to download your tracks.',
    ]);
    expect(res.body).not.toHaveProperty('url');
  });

  it('gives a paid user a link that saves the WAV under the track’s title', async () => {
    const alice = await signedInUser();
    await subscribe(store, alice.id);
    const audio = wavBytes({ seconds: 0.25 });
    const id = `lib-${randomUUID()}`;
    const track = await aTrack(alice.id, {
      id,
      title: 'Night Drive',
      audioUrl: await buckets.putTrackAudio(alice.id, id, audio),
    });

    const res = await alice.browser.get(`/api/generation/${track.id}/download`);

    expect(res.status).toBe(200);
    expect(res.body.filename).toBe('Night Drive.wav');
    const file = await fetched(res.body.url);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-disposition')).toMatch(/^attachment; filename="Night Drive\.wav"/);
    expect(file.bytes).toEqual(audio);
  });

  it('names an untitled track Untitled Track.wav', async () => {
    const alice = await signedInUser();
    await subscribe(store, alice.id);
    const track = await aStoredTrack(alice.id, { title: null });

    const res = await alice.browser.get(`/api/generation/${track.id}/download`);

    expect(res.body.filename).toBe('Untitled Track.wav');
  });

  it('saves under the name the Create page asks for', async () => {
    const alice = await signedInUser();
    await subscribe(store, alice.id);
    const track = await aStoredTrack(alice.id);

    const res = await alice.browser.get(`/api/generation/${track.id}/download?name=ai-music-1763900000000`);
    expect(res.body.filename).toBe('ai-music-1763900000000.wav');
    const file = await fetch(String(res.body.url));
    expect(file.headers.get('content-disposition')).toContain('filename="ai-music-1763900000000.wav"');
  });

  it('answers 409 while the track is not completed', async () => {
    const alice = await signedInUser();
    await subscribe(store, alice.id);
    const track = await aTrack(alice.id, { status: 'generating', audioUrl: null, duration: null });

    const res = await alice.browser.get(`/api/generation/${track.id}/download`);

    expect([res.status, res.body.message]).toEqual([409, 'Track is not ready for download.']);
  });
});

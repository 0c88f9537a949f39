import { createHash, randomUUID } from 'node:crypto';
import { generationMessages } from '@tunesmith/shared/generations';
import type { TrackStems } from '@tunesmith/shared/stems';
import { unzipSync } from 'fflate';
import { parseBuffer } from 'music-metadata';
import { afterAll, describe, expect, it } from 'vitest';
import { dynamoGenerationStore } from '../src/adapters/dynamo/generation-store';
import { dynamoQuotaStore } from '../src/adapters/dynamo/quota-store';
import { parseWav } from '../src/domain/audio/wav';
import { quotaWindowStart } from '../src/domain/generations/quota-window';
import type { Generation } from '../src/domain/tracks/track';
import { signedInUser } from './support/accounts';
import { direct } from './support/direct';
import { apiUrl, Browser } from './support/http';
import { subscribe } from './support/plans';
import { localOnly, paidGeneration } from './support/run';
import { storage } from './support/storage';
import { storedTrack as storedTrackOf } from './support/tracks';

// Stems through the HTTP API (decision 044): asking for them (who may, what
// it costs, asking twice, two tabs at once), the workflow separating a track
// on the embedded provider, what a viewer sees, the zip, a failure's refund
// and the files going with the track.

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
const used = async (userId: string) => (await quota.read(userId))?.used ?? 0;
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

async function until<T>(what: string, probe: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + SETTLE_WITHIN_MS;
  while (Date.now() < deadline) {
    const value = await probe();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${what} did not happen within ${SETTLE_WITHIN_MS / 1000} s`);
}

/** A completed track made through the pipeline, its download prepared. */
async function madeTrack(browser: Browser, body: Record<string, unknown> = {}): Promise<Generation> {
  const res = await browser.post('/api/generate-text-to-music', {
    tags: 'pop, female vocals',
    lyrics: '[verse]\nneon over water\n[chorus]\nhold the light',
    duration: 8,
    title: 'Night Drive',
    ...body,
  });
  expect(res.status).toBe(201);
  const id = String(res.body.generationId);
  return until(`track ${id}`, async () => {
    const status = (await browser.get(`/api/generation/${id}/status`)).body;
    expect(status.status).not.toBe('failed');
    return status.status === 'completed' && status.downloadReady
      ? ((await generations.get(id)) as Generation)
      : undefined;
  });
}

/** Follows a track's stems until they are no longer processing. */
const stemsSettled = (browser: Browser, id: string) =>
  until(`the stems of ${id}`, async () => {
    const res = await browser.get(`/api/track/${id}/stems`);
    expect(res.status).toBe(200);
    const body = res.body as unknown as TrackStems;
    return body.status === 'processing' ? undefined : body;
  });

const storedTrack = (userId: string, over: Partial<Generation> = {}) =>
  storedTrackOf({ generations, files }, userId, over);

/** Whether a RIFF file carries a chunk with this id. */
function hasChunk(wav: Uint8Array, id: string): boolean {
  const view = new DataView(wav.buffer, wav.byteOffset, wav.byteLength);
  for (let at = 12; at + 8 <= wav.length; ) {
    if (String.fromCharCode(...wav.subarray(at, at + 4)) === id) return true;
    const size = view.getUint32(at + 4, true);
    at += 8 + size + (size % 2);
  }
  return false;
}

/** Residual of the stems' sum against the mix, in dB of the mix's energy. */
function residualDb(mix: Uint8Array, stems: Uint8Array[]): number {
  const read = (wav: Uint8Array) => {
    const pcm = parseWav(wav);
    return Array.from({ length: pcm.channels }, (_, c) => {
      const samples = new Float32Array(pcm.frames);
      pcm.read(c, 0, samples);
      return samples;
    });
  };
  const source = read(mix);
  const parts = stems.map(read);
  let signal = 0;
  let residual = 0;
  source.forEach((channel, c) => {
    for (let i = 0; i < channel.length; i++) {
      const x = channel[i] as number;
      const sum = parts.reduce((total, part) => total + ((part[c] as Float32Array)[i] as number), 0);
      signal += x * x;
      residual += (x - sum) ** 2;
    }
  });
  return 10 * Math.log10(residual / signal);
}

describe('stems of a track, made by the workflow', () => {
  paidGeneration.it(
    'separates the owner’s track for one unit: marked WAVs that sum to the mix, Opus copies, peaks, hashes, loudness',
    { timeout: PIPELINE_TEST_TIMEOUT_MS },
    async () => {
      const { browser, id: userId } = await signedInUser();
      const track = await madeTrack(browser);
      const before = await used(userId);

      const res = await browser.post(`/api/generation/${track.id}/stems`, {});

      expect(res.status).toBe(202);
      expect(res.body).toEqual({ status: 'processing' });
      expect(await used(userId)).toBe(before + 1);
      const playing = await stemsSettled(browser, track.id);
      expect(playing.status).toBe('ready');
      expect(playing.set).toBe('4');
      expect(playing.stems.map((s) => s.name)).toEqual(['vocals', 'drums', 'bass', 'other']);
      // They play at once (their WAVs); their loudness, Opus copies and prepared downloads follow.
      for (const stem of playing.stems) expect((await fetch(String(stem.audioUrl))).status).toBe(200);
      const stems = await until('the stems’ copies and downloads', async () => {
        const body = (await browser.get(`/api/track/${track.id}/stems`)).body as unknown as TrackStems;
        return body.stems.every((s) => s.loudness !== null && s.sha256 !== null) ? body : undefined;
      });
      const stored = (await generations.get(track.id)) as Generation;
      const files4 = stored.stems?.['4']?.files ?? [];
      const wavs: Uint8Array[] = [];
      for (const [i, stem] of stems.stems.entries()) {
        const file = files4[i];
        const wav = await files.storedBytes(file?.wavUrl ?? '');
        wavs.push(wav);
        expect(stem.sha256).toBe(sha256(wav));
        expect(stem.loudness).toMatchObject({ truePeakDbtp: expect.any(Number) });
        // Marked like the master: INFO, XMP, the ID3 tag (with the track's tempo and key) and content credentials.
        for (const chunk of ['LIST', '_PMX', 'id3 ', 'C2PA']) expect(hasChunk(wav, chunk), chunk).toBe(true);
        const { common } = await parseBuffer(wav, { mimeType: 'audio/wav' });
        expect(common.title).toBe(`${stored.title} (${stem.name})`);
        expect(common.bpm).toBe(stored.analysis?.bpm);
        expect(common.bpm).toEqual(expect.any(Number));
        expect(file?.streamUrl).toMatch(/\.opus$/);
        for (const link of [stem.audioUrl, stem.peaksUrl]) {
          expect(new URL(String(link)).origin).toBe(new URL(apiUrl).origin);
          expect((await fetch(String(link))).status).toBe(200);
        }
      }
      // The embedded provider's own song: its true voices, which sum back to the mix.
      expect(residualDb(await files.storedBytes(stored.audioUrl ?? ''), wavs)).toBeLessThan(-60);

      // Asking again costs nothing and answers the state.
      const again = await browser.post(`/api/generation/${track.id}/stems`, { set: '4' });
      expect(again.status).toBe(202);
      expect(again.body).toEqual({ status: 'ready' });
      expect(await used(userId)).toBe(before + 1);

      // The WAVs they played from are gone once the downloads are prepared.
      const masters = files4.map((file) => file.wavUrl.replace(/\.wav$/, '.master.wav'));
      for (const url of masters) expect(await files.storedVersions(url)).toEqual([]);

      // Deleting the track deletes its stems, every file and version.
      expect((await browser.call('DELETE', `/api/generation/${track.id}`)).status).toBe(204);
      for (const file of files4)
        for (const url of [file.wavUrl, file.streamUrl, file.peaksUrl]) {
          expect(await files.storedExists(url ?? '')).toBe(false);
          expect(await files.storedVersions(url ?? '')).toEqual([]);
        }
      expect((await new Browser().get(`/api/track/${track.id}/stems`)).status).toBe(404);
    },
  );

  paidGeneration.it(
    'two tabs asking at once cost one unit and start one separation',
    { timeout: PIPELINE_TEST_TIMEOUT_MS },
    async () => {
      const { browser, id: userId } = await signedInUser();
      const track = await madeTrack(browser);
      const before = await used(userId);

      const answers = await Promise.all([
        browser.post(`/api/generation/${track.id}/stems`, { set: '4' }),
        browser.post(`/api/generation/${track.id}/stems`, { set: '4' }),
        browser.post(`/api/generation/${track.id}/stems`, {}),
      ]);

      for (const answer of answers) {
        expect(answer.status).toBe(202);
        expect(['processing', 'ready']).toContain(answer.body.status);
      }
      expect(await used(userId)).toBe(before + 1);
      expect((await stemsSettled(browser, track.id)).status).toBe('ready');
      expect((await generations.get(track.id))?.stems?.['4']?.attempt).toBe(1);
    },
  );

  localOnly('the embedded provider fails the separation of a song tagged fail:stems').it(
    'a failed separation refunds its unit, fails the set (not the track), and may be asked for again',
    { timeout: PIPELINE_TEST_TIMEOUT_MS },
    async () => {
      const { browser, id: userId } = await signedInUser();
      const track = await madeTrack(browser, { tags: 'pop, fail:stems' });
      const before = await used(userId);

      expect((await browser.post(`/api/generation/${track.id}/stems`, {})).status).toBe(202);
      expect(await used(userId)).toBe(before + 1);
      const failed = await stemsSettled(browser, track.id);

      expect(failed).toEqual({ status: 'failed', set: '4', stems: [] });
      // The unit goes back right after the set is marked failed (the same step, one write later).
      const refunded = () =>
        until('the refund', async () => ((await used(userId)) === before ? true : undefined));
      await refunded();
      expect((await generations.get(track.id))?.status).toBe('completed');
      const retry = await browser.post(`/api/generation/${track.id}/stems`, {});
      expect(retry.status).toBe(202);
      expect(retry.body).toEqual({ status: 'processing' });
      expect((await stemsSettled(browser, track.id)).status).toBe('failed');
      expect((await generations.get(track.id))?.stems?.['4']?.attempt).toBe(2);
      await refunded();
    },
  );

  paidGeneration.it(
    'a paid plan separates into 6 and downloads the stems as one zip with a manifest of their hashes',
    { timeout: PIPELINE_TEST_TIMEOUT_MS },
    async () => {
      const { browser, id: userId } = await signedInUser();
      await subscribe(store, userId, 'basic');
      const track = await madeTrack(browser, { tags: 'hip hop', title: 'Corner/Store' });

      expect((await browser.post(`/api/generation/${track.id}/stems`, { set: '6' })).status).toBe(202);
      expect((await stemsSettled(browser, track.id)).status).toBe('ready');
      const stems = await until('the stems’ downloads', async () => {
        const body = (await browser.get(`/api/track/${track.id}/stems`)).body as unknown as TrackStems;
        return body.stems.every((s) => s.sha256 !== null) ? body : undefined;
      });
      expect(stems.set).toBe('6');
      expect(stems.stems.map((s) => s.name)).toEqual(['vocals', 'drums', 'bass', 'guitar', 'piano', 'other']);
      // One set's state by name; a set never asked for is none.
      expect((await browser.get(`/api/track/${track.id}/stems?set=6`)).body).toMatchObject({
        status: 'ready',
        set: '6',
      });
      expect((await browser.get(`/api/track/${track.id}/stems?set=4`)).body).toEqual({
        status: 'none',
        stems: [],
      });
      const odd = await browser.get(`/api/track/${track.id}/stems?set=5`);
      expect(odd.status).toBe(400);
      expect(odd.body.message).toBe('The set must be "4" or "6".');

      const download = await until('the stems zip', async () => {
        const res = await browser.get(`/api/generation/${track.id}/stems/download`);
        return res.status === 200 ? res : undefined;
      });
      expect(download.body.filename).toBe('Corner_Store (stems).zip');
      const response = await fetch(String(download.body.url));
      expect(response.status).toBe(200);
      expect(response.headers.get('content-disposition')).toContain('Corner_Store (stems).zip');
      const zip = unzipSync(new Uint8Array(await response.arrayBuffer()));
      expect(Object.keys(zip).sort()).toEqual(
        ['manifest.json', ...stems.stems.map((s) => `stems/${s.name}.wav`)].sort(),
      );
      const manifest = JSON.parse(new TextDecoder().decode(zip['manifest.json'])) as {
        stems: Array<{ name: string; file: string; sha256: string }>;
      };
      for (const stem of stems.stems) {
        const listed = manifest.stems.find((s) => s.name === stem.name);
        expect(listed?.sha256).toBe(stem.sha256);
        expect(sha256(zip[`stems/${stem.name}.wav`] as Uint8Array)).toBe(stem.sha256);
      }

      // The provenance record lists each stem: its name, its WAV's hash and the model that made it.
      const provenance = await browser.get(`/api/track/${track.id}/provenance`);
      expect(provenance.status).toBe(200);
      expect(provenance.body.stems).toEqual(
        stems.stems.map((stem) => ({
          set: '6',
          name: stem.name,
          sha256: stem.sha256,
          model: 'Demucs (htdemucs_6s)',
          endpoint: 'fal-ai/demucs',
        })),
      );

      // The export-everything zip holds them beside the track's WAV, hashed in its manifest.
      const started = await browser.post('/api/user/export', {});
      expect(started.status).toBe(202);
      const ready = await until('the export', async () => {
        const res = await browser.get(`/api/user/export/${started.body.exportId}`);
        return res.body.status === 'preparing' ? undefined : res;
      });
      expect(ready.body.status).toBe('ready');
      const exported = unzipSync(new Uint8Array(await (await fetch(String(ready.body.url))).arrayBuffer()));
      const exportManifest = JSON.parse(new TextDecoder().decode(exported['manifest.json'])) as {
        tracks: Array<{
          id: string;
          folder: string;
          files: string[];
          stems?: Array<{ name: string; file: string; sha256: string }>;
        }>;
      };
      const listed = exportManifest.tracks.find((t) => t.id === track.id);
      expect(listed?.stems?.map((s) => [s.name, s.sha256])).toEqual(
        stems.stems.map((s) => [s.name, s.sha256]),
      );
      for (const stem of stems.stems) {
        expect(listed?.files).toContain(`stems-6/${stem.name}.wav`);
        expect(sha256(exported[`${listed?.folder}/stems-6/${stem.name}.wav`] as Uint8Array)).toBe(
          stem.sha256,
        );
      }
    },
  );
});

describe('asking for stems, refused', () => {
  it('answers 404 to anyone but the owner, 401 to a visitor, taking no unit', async () => {
    const owner = await signedInUser();
    const { browser, id: userId } = await signedInUser();
    for (const visibility of ['public', 'private'] as const) {
      const track = await storedTrack(owner.id, { visibility });
      const res = await browser.post(`/api/generation/${track.id}/stems`, {});
      expect(res.status, visibility).toBe(404);
      expect(res.body.message).toBe(generationMessages.trackNotFound);
      expect((await new Browser().post(`/api/generation/${track.id}/stems`, {})).status).toBe(401);
      expect((await browser.get(`/api/generation/${track.id}/stems/download`)).status).toBe(404);
    }
    expect(await used(userId)).toBe(0);
    expect(await used(owner.id)).toBe(0);
  });

  it('answers 400 for an unfinished track and 409 while its download is being prepared', async () => {
    const { browser, id: userId } = await signedInUser();
    for (const status of ['pending', 'generating', 'failed'] as const) {
      const track = await storedTrack(userId, { status, audioUrl: null });
      const res = await browser.post(`/api/generation/${track.id}/stems`, {});
      expect(res.status, status).toBe(400);
      expect(res.body.message).toBe(generationMessages.notCompleted);
    }
    const preparing = await storedTrack(userId, { downloadPending: true });
    const res = await browser.post(`/api/generation/${preparing.id}/stems`, {});
    expect(res.status).toBe(409);
    expect(res.body.message).toBe('The download is being prepared');
    expect(await used(userId)).toBe(0);
  });

  it('refuses a set the plan does not offer, naming the plans that do, and a set that does not exist', async () => {
    const { browser, id: userId } = await signedInUser();
    const track = await storedTrack(userId);

    const six = await browser.post(`/api/generation/${track.id}/stems`, { set: '6' });
    expect(six.status).toBe(403);
    expect(six.body.message).toBe(
      '6 stems are for the Basic and Premium plans. Upgrade to separate this track.',
    );
    const odd = await browser.post(`/api/generation/${track.id}/stems`, { set: '5' });
    expect(odd.status).toBe(400);
    expect(odd.body.message).toBe('The set must be "4" or "6".');
    expect(await used(userId)).toBe(0);
    expect((await browser.get(`/api/track/${track.id}/stems`)).body).toEqual({ status: 'none', stems: [] });
  });

  it('answers 429 once the week is used up, and leaves the track without stems', async () => {
    const { browser, id: userId } = await signedInUser();
    const track = await storedTrack(userId);
    for (let i = 0; i < 5; i++) {
      const reserved = await quota.reserve(userId, {
        limit: 5,
        windowStart: quotaWindowStart(new Date()),
        now: new Date().toISOString(),
      });
      expect(reserved.ok).toBe(true);
    }

    const res = await browser.post(`/api/generation/${track.id}/stems`, {});

    expect(res.status).toBe(429);
    expect((await browser.get(`/api/track/${track.id}/stems`)).body).toEqual({ status: 'none', stems: [] });
    expect((await generations.get(track.id))?.stems ?? {}).toEqual({});
  });

  it('downloads stems only on a paid plan, and only once they are ready', async () => {
    const { browser, id: userId } = await signedInUser();
    const track = await storedTrack(userId);
    const free = await browser.get(`/api/generation/${track.id}/stems/download`);
    expect(free.status).toBe(403);
    expect(free.body.message).toBe('Stem downloads need a paid plan. Upgrade to download stems.');
    await subscribe(store, userId);
    const none = await browser.get(`/api/generation/${track.id}/stems/download`);
    expect(none.status).toBe(409);
    expect(none.body.message).toBe('The stems of this track are not ready.');
  });
});

describe('the stem sets a user is told of', () => {
  it("are the plan in force's, beside the plans that have each set, as the server enforces them", async () => {
    const { browser, id: userId } = await signedInUser();
    const track = await storedTrack(userId);
    const seeded = { '4': ['Free', 'Basic', 'Premium'], '6': ['Basic', 'Premium'] };
    const stemsOf = async () =>
      ((await browser.get('/api/auth/user')).body.entitlements as { stems: unknown }).stems;

    expect(await stemsOf()).toEqual({ sets: ['4'], plans: seeded });
    expect((await browser.post(`/api/generation/${track.id}/stems`, { set: '6' })).status).toBe(403);

    await subscribe(store, userId);
    expect(await stemsOf()).toEqual({ sets: ['4', '6'], plans: seeded });
  });
});

describe('who sees a track’s stems', () => {
  it('the track page’s rule: a public track’s to anyone, a private one’s to its owner only', async () => {
    const owner = await signedInUser();
    const stranger = await signedInUser();
    const shared = await storedTrack(owner.id, { visibility: 'public' });
    const hidden = await storedTrack(owner.id, { visibility: 'private' });

    for (const viewer of [owner.browser, stranger.browser, new Browser()]) {
      const res = await viewer.get(`/api/track/${shared.id}/stems`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ status: 'none', stems: [] });
    }
    expect((await owner.browser.get(`/api/track/${hidden.id}/stems`)).status).toBe(200);
    for (const viewer of [stranger.browser, new Browser()]) {
      const res = await viewer.get(`/api/track/${hidden.id}/stems`);
      expect(res.status).toBe(404);
      expect(res.body.message).toBe(generationMessages.trackNotFound);
    }
    expect((await new Browser().get(`/api/track/${randomUUID()}/stems`)).status).toBe(404);
  });
});

import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { peaksStep, runPeaksBackfill } from '../../scripts/backfill/peaks';
import { dynamoGenerationStore } from '../src/adapters/dynamo/generation-store';
import type { AdminUser } from '../src/domain/accounts/admin';
import { computePeaks } from '../src/domain/audio/peaks';
import { parseWav } from '../src/domain/audio/wav';
import type { PeaksBackfillOutcome } from '../src/domain/tracks/peaks-backfill';
import type { Generation } from '../src/domain/tracks/track';
import {
  adminSignIn,
  adminTestPassword,
  createTestAdmin,
  removeTestAdmin,
  signedInUser,
} from './support/accounts';
import { direct } from './support/direct';
import { apiUrl, Browser, cloudEnv } from './support/http';
import { subscribe } from './support/plans';
import { paidGeneration } from './support/run';
import { storage, wavBytes } from './support/storage';

// A track's waveform peaks, end to end: the workflow stores tracks/{id}.peaks.json
// beside the WAV, every answer that links the audio links the peaks the same
// way, the app's own pages can fetch them (the link is on the app's origin, as
// the audio is: the SPA and /tracks/* share one origin locally and on AWS), a
// delete takes them, and `npm run backfill -- peaks` gives older tracks theirs.

const store = direct();
const files = storage();
const generations = dynamoGenerationStore(store.documents, store.tableName);
const appOrigin = new URL(apiUrl).origin;
const decode = (bytes: Uint8Array) => JSON.parse(new TextDecoder().decode(bytes));

afterAll(() => {
  files.close();
  store.close();
});

/** A fetch as the SPA's own page makes it (same origin, fetch() in cors mode). */
const fetchFromApp = (link: string) =>
  fetch(link, {
    headers: { origin: appOrigin, 'sec-fetch-site': 'same-origin', 'sec-fetch-mode': 'cors', accept: '*/*' },
  });

async function completed(browser: Browser, id: string): Promise<void> {
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    // Completed plays at once; the files this reads are all there once the download is prepared too.
    const { status, downloadReady } = (await browser.get(`/api/generation/${id}/status`)).body as {
      status: string;
      downloadReady: boolean;
    };
    if (status === 'completed' && downloadReady) return;
    if (status === 'failed') throw new Error(`Generation ${id} failed`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`Generation ${id} did not finish`);
}

paidGeneration.describe("a track's waveform peaks", () => {
  it('are made beside the WAV, linked like the audio, fetched by the app, and deleted with the track', {
    timeout: 120_000,
  }, async () => {
    const { browser, id: userId } = await signedInUser();
    await subscribe(store, userId);
    const res = await browser.post('/api/generate-text-to-music', {
      tags: 'ambient, piano',
      lyrics: '',
      duration: 6,
      title: 'Tide Lines',
      visibility: 'private',
    });
    expect(res.status).toBe(201);
    const id = String(res.body.generationId);
    await completed(browser, id);

    const stored = (await generations.get(id)) as Generation;
    expect(stored.peaksUrl).toBe(`s3://${files.tracksBucket}/tracks/${id}.peaks.json`);
    const wav = await files.storedBytes(stored.audioUrl as string);
    const peaks = decode(await files.storedBytes(stored.peaksUrl as string));
    expect(peaks).toEqual(computePeaks(parseWav(wav)));
    const source = parseWav(wav);
    expect(peaks).toMatchObject({
      version: 2,
      channels: 1,
      bits: 8,
      sample_rate: source.sampleRate,
      samples_per_pixel: Math.round(source.sampleRate / 20),
      length: Math.ceil(source.frames / Math.round(source.sampleRate / 20)),
    });
    // Real music, not silence.
    expect(Math.max(...peaks.data)).toBeGreaterThan(10);

    const status = (await browser.get(`/api/generation/${id}/status`)).body as { peaksUrl: string };
    const own = (await browser.get(`/api/track/${id}`)).body as { peaksUrl: string; audioUrl: string };
    const library = (await browser.get('/api/my-generations')).body as unknown as {
      id: string;
      peaksUrl: string;
    }[];
    const links = [status.peaksUrl, own.peaksUrl, library.find((t) => t.id === id)?.peaksUrl ?? ''];
    for (const link of links) {
      // Signed as the audio is, on the app's own origin, under /tracks/.
      expect(new URL(link).origin).toBe(new URL(own.audioUrl).origin);
      expect(new URL(link).origin).toBe(appOrigin);
      expect(new URL(link).pathname).toBe(`/tracks/${id}.peaks.json`);
      expect(new URL(link).searchParams.get('Signature')).toBeTruthy();
      const fetched = await fetchFromApp(link);
      expect(fetched.status).toBe(200);
      expect(fetched.headers.get('content-type')).toBe('application/json');
      expect(await fetched.json()).toEqual(peaks);
    }
    // Only signed links: the bare path, or a link to another track's peaks with this signature, is refused.
    expect((await fetchFromApp(`${appOrigin}/tracks/${id}.peaks.json`)).status).toBe(403);
    const forged = new URL(links[0] as string);
    forged.pathname = `/tracks/${randomUUID()}.peaks.json`;
    expect((await fetchFromApp(forged.toString())).status).toBe(403);

    expect((await browser.call('DELETE', `/api/generation/${id}`)).status).toBe(204);
    expect(await files.storedExists(stored.peaksUrl as string)).toBe(false);
    expect(await files.storedExists(stored.audioUrl as string)).toBe(false);
  });
});

describe('npm run backfill -- peaks', () => {
  const username = `peaks-${Date.now().toString(36)}`;
  const password = adminTestPassword();
  let admin: Browser;
  let created: AdminUser | undefined;
  beforeAll(async () => {
    created = await createTestAdmin(store, username, password);
    admin = new Browser();
    expect((await adminSignIn(admin, username, password)).status).toBe(200);
  });
  afterAll(async () => {
    await removeTestAdmin(store, created);
  });

  it('gives a completed track from before peaks its peaks; a second run changes nothing', {
    timeout: 120_000,
  }, async () => {
    // A track as the workflow left it before peaks: completed, its WAV stored, no peaksUrl.
    const id = `old-${randomUUID()}`;
    const marker = `oldpeaks${randomUUID().slice(0, 8)}`;
    // Older than anything else in the table, so the runs below take this track alone.
    const createdAt = '2001-01-01T00:00:00.000Z';
    const wav = wavBytes({ seconds: 2 });
    const track: Generation = {
      id,
      userId: `user-${randomUUID()}`,
      type: 'text-to-music',
      title: `Old Song ${marker}`,
      tags: 'folk',
      lyrics: null,
      duration: 2,
      status: 'completed',
      visibility: 'public',
      showInGallery: true,
      inputAudioUrl: null,
      audioUrl: await files.putTrackAudio('someone', id, wav),
      seed: 1,
      falRequestId: null,
      createdAt,
      updatedAt: createdAt,
    };
    await generations.create(track);
    const peaksUrl = `s3://${files.tracksBucket}/tracks/${id}.peaks.json`;
    const onlyThis = { createdBefore: '2001-01-01T00:00:01.000Z' };

    // A dry run finds it among every completed track, and writes nothing.
    const seen: PeaksBackfillOutcome[] = [];
    const dry = await runPeaksBackfill(cloudEnv, { dryRun: true, onTrack: (o) => seen.push(o) });
    expect(seen).toContainEqual({ id, result: 'would-make' });
    expect(dry.made).toBe(0);
    expect(await files.storedExists(peaksUrl)).toBe(false);
    expect((await generations.get(id))?.peaksUrl).toBeUndefined();

    const first = await runPeaksBackfill(cloudEnv, onlyThis);
    expect(first).toEqual({ checked: 1, alreadyHad: 0, made: 1, wouldMake: 0, skipped: 0, failed: 0 });
    const after = (await generations.get(id)) as Generation;
    expect(after.peaksUrl).toBe(peaksUrl);
    const peaks = decode(await files.storedBytes(peaksUrl));
    expect(peaks).toEqual(computePeaks(parseWav(wav)));
    expect(peaks).toMatchObject({ version: 2, sample_rate: 8000, samples_per_pixel: 400, length: 40 });

    // The track's answers now carry a link to them that the app can fetch: the visitor's and the admin's.
    const visitor = (await new Browser().get(`/api/track/${id}`)).body as { peaksUrl: string };
    const listed = (await admin.get(`/api/admin/tracks?q=${marker}`)).body as {
      tracks: { id: string; peaksUrl: string }[];
    };
    const adminLink = listed.tracks.find((t) => t.id === id)?.peaksUrl ?? '';
    for (const link of [visitor.peaksUrl, adminLink]) {
      expect(new URL(link).origin).toBe(appOrigin);
      const fetched = await fetchFromApp(link);
      expect(fetched.status).toBe(200);
      expect(fetched.headers.get('content-type')).toBe('application/json');
      expect(await fetched.json()).toEqual(peaks);
    }

    // Again, as the runner runs the step: it finds nothing to do and says so.
    const printed: string[] = [];
    const second = await peaksStep.run(cloudEnv, { dryRun: false, ...onlyThis }, (line) =>
      printed.push(line),
    );
    expect(second).toEqual({ failed: 0 });
    expect(printed).toEqual(['Completed tracks checked: 1\nAlready had peaks: 1\nPeaks made: 0']);
    expect(await generations.get(id)).toEqual(after);

    // Deleting the track now takes its backfilled peaks too.
    expect((await admin.call('DELETE', `/api/admin/tracks/${id}`)).status).toBe(204);
    expect(await files.storedExists(peaksUrl)).toBe(false);
  });
});

import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { quotaWindowStart } from '../domain/generations/quota-window';
import type { StemsRecord } from '../domain/stems/stems';
import type { Generation } from '../domain/tracks/track';
import { fakeClock } from '../testing/in-memory-accounts';
import { inMemoryGenerationStore, inMemoryQuota } from '../testing/in-memory-generations';
import { executionEndedAny, failAny, finishStemsStep, type StemsDeps, submitAny } from './stems-steps';
import { fakeAudioStore, fakeMusicProvider, fakeStreamEncoder, silentWav, testSite } from './testing';

const clock = fakeClock();
const now = clock.now().toISOString();
const NAMES = ['vocals', 'drums', 'bass', 'other'];

/** A completed track whose set "4" is being made (attempt 1), its unit taken. */
const track = (over: Partial<Generation> = {}): Generation => ({
  id: 't1',
  userId: 'u1',
  type: 'text-to-music',
  title: 'Song',
  tags: 'pop',
  lyrics: '',
  duration: 2,
  status: 'completed',
  visibility: 'public',
  showInGallery: true,
  inputAudioUrl: null,
  audioUrl: 's3://tracks/tracks/t1.wav',
  loudness: { integratedLufs: -10, truePeakDbtp: -1, streamGainDb: -4 },
  seed: 1,
  falRequestId: 'r0',
  createdAt: now,
  updatedAt: now,
  stems: {
    '4': {
      set: '4',
      status: 'processing',
      requestedAt: now,
      attempt: 1,
      requestId: null,
      model: 'htdemucs',
      files: [],
      updatedAt: now,
    },
  },
  ...over,
});

function setup(
  stems: Record<string, string> = Object.fromEntries(NAMES.map((n) => [n, `https://fal/${n}.wav`])),
) {
  const generations = inMemoryGenerationStore([track()]);
  const quota = inMemoryQuota();
  quota.counters.set('u1', { used: 2, windowStart: quotaWindowStart(new Date(now)) });
  const provider = fakeMusicProvider(() => ({ status: 'completed', stems }));
  const audio = fakeAudioStore(new Map(NAMES.map((n) => [`https://fal/${n}.wav`, silentWav(0.5)])));
  const zips: string[][] = [];
  const deps: StemsDeps = {
    generation: { generations, quota, clock, newId: () => 'x' },
    provider,
    audio,
    streamEncoder: fakeStreamEncoder(),
    site: testSite,
    webhookUrl: (id) => `https://api/webhooks/fal?generationId=${id}`,
    trackAudioUrl: (stored) => `https://signed/${stored.split('/').pop()}`,
    stemsArchiver: {
      async zip(entries) {
        zips.push(entries.map((e) => e.name));
        return new Uint8Array([80, 75]);
      },
    },
  };
  const execution = { generationId: 't1', stems: { set: '4', attempt: 1 } };
  return { deps, generations, quota, provider, audio, zips, execution };
}

describe('the stems path of the workflow', () => {
  it('submits the track’s WAV through a signed link to demucs with the set’s stems, and keeps the request id', async () => {
    const { deps, provider, generations, execution } = setup();
    const job = await submitAny(deps, { generationId: 't1', execution });
    expect(job).toMatchObject({ requestId: 'req-1', kind: 'stems', waits: 0 });
    expect(provider.jobs.get('req-1')?.request).toEqual({
      audioUrl: 'https://signed/t1.wav',
      model: 'htdemucs',
      stems: NAMES,
      webhookUrl: 'https://api/webhooks/fal?generationId=t1',
    });
    expect((await generations.get('t1'))?.stems?.['4']?.requestId).toBe('req-1');
    // A retried submit reuses the request.
    expect((await submitAny(deps, { generationId: 't1', execution })).requestId).toBe('req-1');
    expect(provider.jobs.size).toBe(1);
  });

  it('the stems play from their WAVs as they came; then each is marked and hashed under its own key, with an Opus copy, loudness and the zip', async () => {
    const { deps, generations, audio, zips, execution } = setup();
    // What the set looked like when it became ready: what players got first.
    const seen: Array<StemsRecord | undefined> = [];
    const update = generations.update.bind(generations);
    generations.update = async (id, change) => {
      const result = await update(id, change);
      seen.push(result?.after?.stems?.['4']);
      return result;
    };
    const job = await submitAny(deps, { generationId: 't1', execution });
    const out = await finishStemsStep(deps, { generationId: 't1', job, execution });

    const playing = seen.find((r) => r?.status === 'ready');
    for (const file of playing?.files ?? []) {
      const key = `tracks/t1.stems4.${file.name}`;
      expect(file).toMatchObject({
        wavUrl: `https://tracks.example/${key}.master.wav`,
        peaksUrl: `https://tracks.example/${key}.peaks.json`,
        sha256: null,
        streamUrl: null,
        loudness: null,
      });
    }
    expect(playing?.files.map((f) => f.name)).toEqual(NAMES);
    const record = (await generations.get('t1'))?.stems?.['4'];
    expect(record?.status).toBe('ready');
    expect(record?.files.map((f) => f.name)).toEqual(NAMES);
    for (const file of record?.files ?? []) {
      const key = `tracks/t1.stems4.${file.name}`;
      expect(file.wavUrl).toBe(`https://tracks.example/${key}.wav`);
      expect(file.streamUrl).toBe(`https://tracks.example/${key}.opus`);
      expect(file.peaksUrl).toBe(`https://tracks.example/${key}.peaks.json`);
      expect(file.loudness).not.toBeNull();
      const wav = audio.copies.get(`${key}.wav`) as Uint8Array;
      // Marked (longer than the provider's WAV), and the hash is of exactly what is stored.
      expect(wav.length).toBeGreaterThan(silentWav(0.5).length);
      expect(file.sha256).toBe(createHash('sha256').update(wav).digest('hex'));
      // The WAV it played from is gone.
      expect(audio.copies.has(`${key}.master.wav`)).toBe(false);
    }
    expect(out.stems.map((s) => s.sha256)).toEqual(record?.files.map((f) => f.sha256));
    expect(zips).toEqual([[...NAMES.map((n) => `stems/${n}.wav`), 'manifest.json']]);
    expect(record?.zipUrl).toBe('https://tracks.example/tracks/t1.stems4.zip');
  });

  it('run again once the set is ready, FinishStems changes nothing and does not fail', async () => {
    const { deps, generations, audio, zips, execution } = setup();
    const job = await submitAny(deps, { generationId: 't1', execution });
    const first = await finishStemsStep(deps, { generationId: 't1', job, execution });
    const before = structuredClone(await generations.get('t1'));
    const files = new Map(audio.copies);

    const again = await finishStemsStep(deps, { generationId: 't1', job, execution });

    expect(again.stems).toEqual(first.stems);
    expect(again.zipped).toBe(true);
    expect((await generations.get('t1'))?.stems).toEqual(before?.stems);
    expect(audio.copies).toEqual(files);
    expect(zips).toHaveLength(1);
  });

  it("raises stems.ready once for the owner's webhooks, when the set plays", async () => {
    const { deps, execution } = setup();
    const raised: string[] = [];
    deps.trackEvents = {
      raise: async (type, g) => void raised.push(`${type} ${g.id} ${g.stems?.['4']?.status}`),
    };
    const job = await submitAny(deps, { generationId: 't1', execution });
    await finishStemsStep(deps, { generationId: 't1', job, execution });
    // A run again once the set is ready raises nothing more.
    await finishStemsStep(deps, { generationId: 't1', job, execution });
    expect(raised).toEqual(['stems.ready t1 ready']);
  });

  it('a download that could not be prepared is retried, and the retry finishes it from the stored WAVs', async () => {
    const { deps, generations, audio, zips, execution } = setup();
    const put = audio.put.bind(audio);
    let failing = true;
    audio.put = async (key, bytes, type) => {
      if (failing && key.endsWith('.drums.wav')) throw new Error('S3 is not answering');
      return put(key, bytes, type);
    };
    const job = await submitAny(deps, { generationId: 't1', execution });

    await expect(finishStemsStep(deps, { generationId: 't1', job, execution })).rejects.toMatchObject({
      name: 'Storage.Unavailable',
    });
    // It plays meanwhile: drums from the WAV as it came, the others from their marked WAVs; no zip yet.
    const playing = (await generations.get('t1'))?.stems?.['4'];
    expect(playing?.status).toBe('ready');
    const drums = playing?.files.find((f) => f.name === 'drums');
    expect(drums).toMatchObject({
      wavUrl: 'https://tracks.example/tracks/t1.stems4.drums.master.wav',
      sha256: null,
    });
    expect(playing?.files.filter((f) => f.sha256 !== null)).toHaveLength(3);
    expect(playing?.zipUrl).toBeUndefined();
    expect(zips).toHaveLength(0);

    failing = false;
    const retried = await finishStemsStep(deps, { generationId: 't1', job, execution });

    const record = (await generations.get('t1'))?.stems?.['4'];
    const stored = audio.copies.get('tracks/t1.stems4.drums.wav') as Uint8Array;
    expect(record?.files.find((f) => f.name === 'drums')).toMatchObject({
      wavUrl: 'https://tracks.example/tracks/t1.stems4.drums.wav',
      sha256: createHash('sha256').update(stored).digest('hex'),
    });
    expect(retried.stems.every((s) => s.sha256 !== null)).toBe(true);
    expect([...audio.copies.keys()].filter((k) => k.endsWith('.master.wav'))).toEqual([]);
    expect(record?.files.every((f) => f.streamUrl !== null)).toBe(true);
    expect(zips).toHaveLength(1);
    expect(record?.zipUrl).toBe('https://tracks.example/tracks/t1.stems4.zip');
  });

  it('a stem the provider left out fails the step; MarkFailed then fails the set, not the track, and refunds once', async () => {
    const { deps, generations, quota, execution } = setup({ vocals: 'https://fal/vocals.wav' });
    const job = await submitAny(deps, { generationId: 't1', execution });
    await expect(finishStemsStep(deps, { generationId: 't1', job, execution })).rejects.toMatchObject({
      name: 'Provider.Failed',
    });
    const failed = await failAny(deps, {
      generationId: 't1',
      execution,
      error: { Error: 'Provider.Failed' },
    });
    expect(failed).toMatchObject({ refunded: true, stems: true });
    expect(await failAny(deps, { generationId: 't1', execution })).toMatchObject({ refunded: false });
    const after = await generations.get('t1');
    expect(after?.status).toBe('completed');
    expect(after?.stems?.['4']?.status).toBe('failed');
    expect((await quota.read('u1'))?.used).toBe(1);
  });

  it('an ended execution fails a set still being made, and FinishStems then stores nothing', async () => {
    const { deps, generations, audio, execution } = setup();
    const job = await submitAny(deps, { generationId: 't1', execution });
    await executionEndedAny(deps, { generationId: 't1', status: 'TIMED_OUT', execution });
    expect((await generations.get('t1'))?.stems?.['4']?.status).toBe('failed');
    await expect(finishStemsStep(deps, { generationId: 't1', job, execution })).rejects.toMatchObject({
      name: 'Generation.Ended',
    });
    expect([...audio.copies.keys()]).toEqual([]);
  });
});

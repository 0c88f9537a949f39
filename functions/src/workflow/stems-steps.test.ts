import { describe, expect, it } from 'vitest';
import { quotaWindowStart } from '../domain/generations/quota-window';
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

  it('stores each stem marked, hashed, with peaks, an Opus copy and loudness, then their zip', async () => {
    const { deps, generations, audio, zips, execution } = setup();
    const job = await submitAny(deps, { generationId: 't1', execution });
    const out = await finishStemsStep(deps, { generationId: 't1', job, execution });
    const record = (await generations.get('t1'))?.stems?.['4'];
    expect(record?.status).toBe('ready');
    expect(record?.files.map((f) => f.name)).toEqual(NAMES);
    for (const file of record?.files ?? []) {
      const key = `tracks/t1.stems4.${file.name}`;
      expect(file.wavUrl).toBe(`https://tracks.example/${key}.wav`);
      expect(file.streamUrl).toBe(`https://tracks.example/${key}.opus`);
      expect(file.peaksUrl).toBe(`https://tracks.example/${key}.peaks.json`);
      expect(file.loudness).not.toBeNull();
      expect(audio.copies.get(`${key}.wav`)?.length).toBeGreaterThan(silentWav(0.5).length);
    }
    expect(out.stems.map((s) => s.sha256)).toEqual(record?.files.map((f) => f.sha256));
    expect(zips).toEqual([[...NAMES.map((n) => `stems/${n}.wav`), 'manifest.json']]);
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

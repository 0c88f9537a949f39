import { createHash } from 'node:crypto';
import { DIGITAL_SOURCE_TYPE } from '@tunesmith/shared/ownership';
import { parseBuffer } from 'music-metadata';
import { describe, expect, it } from 'vitest';
import type { TrackDirectory } from '../domain/admin/ports';
import { loudnessRecord, measureLoudness } from '../domain/audio/loudness';
import { tone, wavFile } from '../domain/audio/testing';
import { parseWav } from '../domain/audio/wav';
import type { Generation } from '../domain/tracks/track';
import { aGeneration } from '../testing/fixtures';
import { inMemoryGenerationStore } from '../testing/in-memory-generations';
import {
  type BackfillFiles,
  backfillFiles,
  type FilesBackfillOutcome,
  revisedTrackKey,
} from './files-backfill';
import { fakeStreamEncoder, testSite } from './testing';

const master = wavFile([tone(440, 2, 44100, 0.8), tone(550, 2, 44100, 0.8)], { sampleRate: 44100 });
const stored = (key: string) => `s3://tracks/${key}`;

function setup(tracks: Generation[]) {
  const generations = inMemoryGenerationStore(tracks);
  const objects = new Map<string, Uint8Array>();
  for (const t of tracks) {
    if (t.audioUrl) objects.set(t.audioUrl, master);
    if (t.streamAudioUrl) objects.set(t.streamAudioUrl, new TextEncoder().encode('an old, loud stream'));
  }
  const files: BackfillFiles & { beforeUpdate?: () => void } = {
    async read(url) {
      const bytes = objects.get(url);
      if (!bytes) throw new Error(`No object ${url}`);
      return bytes;
    },
    async put(key, bytes) {
      objects.set(stored(key), bytes);
      return stored(key);
    },
    async remove(key) {
      objects.delete(stored(key));
    },
    keyOf: (url) => (url.startsWith('s3://tracks/') ? url.slice('s3://tracks/'.length) : undefined),
  };
  const directory: Pick<TrackDirectory, 'list'> = {
    async list(filter, { limit, cursor }) {
      const all = [...generations.all.values()]
        .filter((g) => !filter.status || g.status === filter.status)
        .sort((a, b) => b.createdAt.localeCompare(a.createdAt));
      const start = cursor ? Number(cursor) : 0;
      const items = all.slice(start, start + limit).map((g) => structuredClone(g));
      return { items, ...(start + limit < all.length ? { cursor: String(start + limit) } : {}) };
    },
  };
  const streamEncoder = fakeStreamEncoder();
  const update = generations.update.bind(generations);
  const deps = {
    tracks: directory,
    generations: {
      get: generations.get.bind(generations),
      update: async (id: string, change: Parameters<typeof update>[1]) => {
        files.beforeUpdate?.();
        return update(id, change);
      },
    },
    files,
    site: testSite,
    streamEncoder,
  };
  return { deps, generations, objects, files, streamEncoder };
}

const track = (id: string, over: Partial<Generation> = {}) =>
  aGeneration({
    id,
    title: `Song ${id}`,
    audioUrl: stored(`tracks/${id}.wav`),
    streamAudioUrl: stored(`tracks/${id}.opus`),
    createdAt: `2026-01-0${id.slice(-1)}T00:00:00.000Z`,
    ...over,
  });

describe('backfillFiles', () => {
  it('prepares the download of a track the workflow left pending, as PrepareDownload would', async () => {
    const pending = track('t2', {
      audioUrl: stored('tracks/t2.master.wav'),
      loudness: { integratedLufs: -9, truePeakDbtp: -1, streamGainDb: -5 },
      audioSha256: null,
      downloadPending: true,
    });
    const env = setup([pending, track('t1', { loudness: pending.loudness })]);
    const dry = await backfillFiles(env.deps, { dryRun: true });
    expect(dry).toMatchObject({ checked: 2, alreadyHad: 1, wouldMake: 1, prepared: 0 });
    expect(env.generations.all.get('t2')?.downloadPending).toBe(true);

    const outcomes: FilesBackfillOutcome[] = [];
    const report = await backfillFiles(env.deps, { onTrack: (o) => outcomes.push(o) });

    expect(report).toMatchObject({ checked: 2, alreadyHad: 1, prepared: 1, made: 0, failed: 0 });
    expect(outcomes).toEqual([{ id: 't2', result: 'prepared' }]);
    const done = env.generations.all.get('t2') as Generation;
    expect(done).toMatchObject({ audioUrl: stored('tracks/t2.wav'), downloadPending: false });
    const wav = env.objects.get(stored('tracks/t2.wav')) as Uint8Array;
    expect(done.audioSha256).toBe(createHash('sha256').update(wav).digest('hex'));
    expect((await parseBuffer(wav, { mimeType: 'audio/wav' })).common.title).toBe('Song t2');
    expect(env.objects.has(stored('tracks/t2.master.wav'))).toBe(false);
    // Its stream and loudness stay as Finish made them.
    expect(done.streamAudioUrl).toBe(stored('tracks/t2.opus'));
    expect(done.loudness).toEqual(pending.loudness);
  });

  it('gives a track from before the marking its marked WAV, hash, loudness and normalised stream, under new keys', async () => {
    const env = setup([track('t1')]);
    const outcomes: FilesBackfillOutcome[] = [];

    const report = await backfillFiles(env.deps, { onTrack: (o) => outcomes.push(o) });

    expect(report).toMatchObject({ checked: 1, made: 1, failed: 0 });
    const done = env.generations.all.get('t1') as Generation;
    const wav = env.objects.get(done.audioUrl as string) as Uint8Array;
    const sha = createHash('sha256').update(wav).digest('hex');
    expect(done.audioSha256).toBe(sha);
    expect(done.audioUrl).toBe(stored(revisedTrackKey(done, sha, '.wav')));
    expect(done.streamAudioUrl).toBe(stored(revisedTrackKey(done, sha, '.opus')));
    expect(done.loudness).toEqual(loudnessRecord(measureLoudness(parseWav(master))));
    expect(outcomes).toEqual([
      { id: 't1', result: 'made', audioUrl: done.audioUrl, streamAudioUrl: done.streamAudioUrl },
    ]);

    const { common } = await parseBuffer(wav, { mimeType: 'audio/wav' });
    expect(common.title).toBe('Song t1');
    expect(common.comment?.[0]?.text).toBe(
      'Made with AI (ACE-Step) on Tunesmith. Provenance: https://tunesmith.example/api/track/t1/provenance',
    );
    expect(new TextDecoder().decode(wav)).toContain(DIGITAL_SOURCE_TYPE);
    // The stream is the master at the recorded gain, with the marking.
    const input = env.streamEncoder.inputs[0];
    const factor = 10 ** ((done.loudness?.streamGainDb as number) / 20);
    const left = new Float32Array(parseWav(master).frames);
    parseWav(master).read(0, 0, left);
    expect(input?.channels[0]?.[1000]).toBe(Math.fround((left[1000] as number) * factor));
    expect(input?.comments).toContainEqual([
      'PROVENANCE',
      'https://tunesmith.example/api/track/t1/provenance',
    ]);
    // Peaks it lacked, and the old files are gone.
    expect(done.peaksUrl).toBe(stored('tracks/t1.peaks.json'));
    expect(env.objects.has(stored('tracks/t1.wav'))).toBe(false);
    expect(env.objects.has(stored('tracks/t1.opus'))).toBe(false);
  });

  it('skips tracks that have their loudness, so a second run changes nothing; a dry run only counts', async () => {
    const env = setup([track('t1'), track('t2'), track('t3', { status: 'failed', audioUrl: null })]);
    expect(await backfillFiles(env.deps, { dryRun: true })).toMatchObject({
      checked: 2,
      wouldMake: 2,
      made: 0,
    });
    expect(env.generations.all.get('t1')?.loudness).toBeUndefined();

    expect(await backfillFiles(env.deps, { pageSize: 1 })).toMatchObject({ checked: 2, made: 2 });
    const after = [...env.objects.keys()].sort();
    expect(await backfillFiles(env.deps)).toMatchObject({ checked: 2, alreadyHad: 2, made: 0 });
    expect([...env.objects.keys()].sort()).toEqual(after);
  });

  it('leaves a track that changed meanwhile as it is and removes what it wrote; reports audio it cannot read', async () => {
    const env = setup([track('t1'), track('t2', { audioUrl: stored('tracks/missing.wav') })]);
    env.objects.delete(stored('tracks/missing.wav'));
    const before = [...env.objects.keys()].sort();
    env.files.beforeUpdate = () => {
      const t1 = env.generations.all.get('t1') as Generation;
      env.generations.all.set('t1', { ...t1, audioUrl: stored('tracks/t1-other.wav') });
    };

    const outcomes: FilesBackfillOutcome[] = [];
    await backfillFiles(env.deps, { onTrack: (o) => outcomes.push(o) });

    expect(outcomes).toEqual([
      { id: 't2', result: 'failed', reason: expect.stringContaining('No object') },
      { id: 't1', result: 'skipped' },
    ]);
    expect(env.generations.all.get('t1')?.loudness).toBeUndefined();
    // Only the shared peaks key may stay (another run may have recorded it meanwhile).
    expect([...env.objects.keys()].sort()).toEqual([...before, stored('tracks/t1.peaks.json')].sort());
  });

  it('removes everything it wrote for a track deleted meanwhile', async () => {
    const env = setup([track('t1')]);
    env.files.beforeUpdate = () => {
      env.generations.all.delete('t1');
      env.objects.delete(stored('tracks/t1.wav'));
      env.objects.delete(stored('tracks/t1.opus'));
    };
    expect(await backfillFiles(env.deps)).toMatchObject({ skipped: 1 });
    expect([...env.objects.keys()]).toEqual([]);
  });
});

import { describe, expect, it } from 'vitest';
import { aGeneration } from '../../testing/fixtures';
import { inMemoryGenerationStore } from '../../testing/in-memory-generations';
import type { TrackDirectory } from '../admin/ports';
import { computePeaks } from '../audio/peaks';
import { tone, wavFile } from '../audio/testing';
import { parseWav } from '../audio/wav';
import { backfillPeaks, type PeaksBackfillOutcome, type TrackFiles } from './peaks-backfill';
import type { Generation } from './track';

const wav = wavFile([tone(440, 1, 44100, 0.5)], { sampleRate: 44100 });
const stored = (id: string) => `s3://tracks/tracks/${id}.wav`;

function setup(tracks: Generation[]) {
  const generations = inMemoryGenerationStore(tracks);
  const objects = new Map<string, Uint8Array>(tracks.map((t) => [t.audioUrl ?? '', wav]));
  const types = new Map<string, string>();
  const puts: string[] = [];
  const files: TrackFiles & { beforePut?: (key: string) => void } = {
    async read(url) {
      const bytes = objects.get(url);
      if (!bytes) throw new Error(`No object ${url}`);
      return bytes;
    },
    async put(key, bytes, contentType) {
      files.beforePut?.(key);
      puts.push(key);
      objects.set(`s3://tracks/${key}`, bytes);
      types.set(key, contentType);
      return `s3://tracks/${key}`;
    },
    async remove(key) {
      objects.delete(`s3://tracks/${key}`);
    },
  };
  // Every track, newest first, two to a page, as the admin directory lists them.
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
  return { deps: { tracks: directory, generations, files }, generations, objects, types, puts, files };
}

const track = (id: string, over: Partial<Generation> = {}) =>
  aGeneration({ id, audioUrl: stored(id), createdAt: `2026-01-0${id.slice(-1)}T00:00:00.000Z`, ...over });

describe('backfillPeaks', () => {
  it('gives every completed track without peaks its WAV peaks, beside it, and records them', async () => {
    const env = setup([
      track('t1'),
      track('t2', { peaksUrl: 's3://tracks/tracks/t2.peaks.json' }),
      track('t3'),
      track('t4', { status: 'failed', audioUrl: null }),
      track('t5'),
    ]);
    const outcomes: PeaksBackfillOutcome[] = [];
    const report = await backfillPeaks(env.deps, { pageSize: 2, onTrack: (o) => outcomes.push(o) });

    expect(report).toEqual({ checked: 4, alreadyHad: 1, made: 3, wouldMake: 0, skipped: 0, failed: 0 });
    expect(outcomes.map((o) => [o.id, o.result])).toEqual([
      ['t5', 'made'],
      ['t3', 'made'],
      ['t1', 'made'],
    ]);
    for (const id of ['t1', 't3', 't5']) {
      expect(env.generations.all.get(id)?.peaksUrl).toBe(`s3://tracks/tracks/${id}.peaks.json`);
      expect(env.types.get(`tracks/${id}.peaks.json`)).toBe('application/json');
      const peaks = JSON.parse(
        new TextDecoder().decode(env.objects.get(`s3://tracks/tracks/${id}.peaks.json`)),
      );
      expect(peaks).toEqual(computePeaks(parseWav(wav)));
    }
    expect(env.generations.all.get('t4')?.peaksUrl).toBeUndefined();
  });

  it('run again, changes nothing', async () => {
    const env = setup([track('t1'), track('t2')]);
    await backfillPeaks(env.deps);
    const after = structuredClone([...env.generations.all.values()]);
    const putsBefore = env.puts.length;

    const again = await backfillPeaks(env.deps);

    expect(again).toEqual({ checked: 2, alreadyHad: 2, made: 0, wouldMake: 0, skipped: 0, failed: 0 });
    expect([...env.generations.all.values()]).toEqual(after);
    expect(env.puts).toHaveLength(putsBefore);
  });

  it('a dry run reports what it would make and writes nothing', async () => {
    const env = setup([track('t1'), track('t2', { peaksUrl: 's3://tracks/tracks/t2.peaks.json' })]);
    const report = await backfillPeaks(env.deps, { dryRun: true });
    expect(report).toEqual({ checked: 2, alreadyHad: 1, made: 0, wouldMake: 1, skipped: 0, failed: 0 });
    expect(env.puts).toEqual([]);
    expect(env.generations.all.get('t1')?.peaksUrl).toBeUndefined();
  });

  it('takes only tracks created before the given instant', async () => {
    const env = setup([track('t1'), track('t2'), track('t3')]);
    const report = await backfillPeaks(env.deps, { createdBefore: '2026-01-03T00:00:00.000Z' });
    expect(report).toMatchObject({ checked: 2, made: 2 });
    expect(env.generations.all.get('t3')?.peaksUrl).toBeUndefined();
    expect(env.generations.all.get('t2')?.peaksUrl).toBe('s3://tracks/tracks/t2.peaks.json');
  });

  it('counts a track whose audio cannot be read as failed, records nothing for it, and goes on', async () => {
    const env = setup([track('t1'), track('t2')]);
    env.objects.set(stored('t2'), new TextEncoder().encode('ID3 not a wav'));
    const outcomes: PeaksBackfillOutcome[] = [];
    const report = await backfillPeaks(env.deps, { onTrack: (o) => outcomes.push(o) });
    expect(report).toMatchObject({ made: 1, failed: 1 });
    expect(outcomes).toContainEqual({ id: 't2', result: 'failed', reason: 'Not a WAV file' });
    expect(env.generations.all.get('t2')?.peaksUrl).toBeUndefined();
    expect(env.generations.all.get('t1')?.peaksUrl).toBe('s3://tracks/tracks/t1.peaks.json');
  });

  it('a track deleted while its peaks were made keeps no peaks file', async () => {
    const env = setup([track('t1')]);
    env.files.beforePut = () => env.generations.all.delete('t1');
    const report = await backfillPeaks(env.deps);
    expect(report).toMatchObject({ made: 0, skipped: 1 });
    expect(env.objects.has('s3://tracks/tracks/t1.peaks.json')).toBe(false);
  });

  it('leaves a track that got its peaks meanwhile as it is (compare and set)', async () => {
    const env = setup([track('t1')]);
    env.files.beforePut = () => {
      const current = env.generations.all.get('t1') as Generation;
      env.generations.all.set('t1', {
        ...current,
        peaksUrl: 's3://tracks/tracks/t1.peaks.json',
        title: 'Renamed',
      });
    };
    const report = await backfillPeaks(env.deps);
    expect(report).toMatchObject({ made: 0, skipped: 1 });
    expect(env.generations.all.get('t1')).toMatchObject({
      title: 'Renamed',
      peaksUrl: 's3://tracks/tracks/t1.peaks.json',
    });
    // The file is the track's one peaks key: still there for the run that recorded it.
    expect(env.objects.has('s3://tracks/tracks/t1.peaks.json')).toBe(true);
  });
});

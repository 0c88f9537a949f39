import { describe, expect, it } from 'vitest';
import { aGeneration } from '../../testing/fixtures';
import { inMemoryGenerationStore } from '../../testing/in-memory-generations';
import type { TrackDirectory } from '../admin/ports';
import { beatAndChords, tone, wavFile } from '../audio/testing';
import { type AnalysisBackfillOutcome, backfillAnalysis } from './analysis-backfill';
import type { Generation } from './track';

const pcm = beatAndChords(100, 62, 'major', 12);
const channels = Array.from({ length: 2 }, (_, c) => {
  const out = new Float32Array(pcm.frames);
  pcm.read(c, 0, out);
  return out;
});
const song = wavFile(channels, { sampleRate: pcm.sampleRate });
const stored = (id: string) => `s3://tracks/tracks/${id}.wav`;

function setup(tracks: Generation[], objects = new Map<string, Uint8Array>()) {
  const generations = inMemoryGenerationStore(tracks);
  for (const t of tracks) if (t.audioUrl && !objects.has(t.audioUrl)) objects.set(t.audioUrl, song);
  const reads: string[] = [];
  const files = {
    async read(url: string) {
      reads.push(url);
      const bytes = objects.get(url);
      if (!bytes) throw new Error(`No object ${url}`);
      return bytes;
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
  return { deps: { tracks: directory, generations, files }, generations, reads };
}

const track = (id: string, over: Partial<Generation> = {}) =>
  aGeneration({ id, audioUrl: stored(id), createdAt: `2026-01-0${id.slice(-1)}T00:00:00.000Z`, ...over });

describe('backfillAnalysis', () => {
  it('measures the tempo and key of every completed track without them, from its WAV, and records them', async () => {
    const measured = { bpm: 90, key: 'E minor', confidence: 0.5 };
    const env = setup([
      track('t1'),
      track('t2', { analysis: measured }),
      track('t3', { status: 'failed', audioUrl: null }),
      track('t4'),
    ]);
    const outcomes: AnalysisBackfillOutcome[] = [];

    const report = await backfillAnalysis(env.deps, { pageSize: 2, onTrack: (o) => outcomes.push(o) });

    expect(report).toEqual({ checked: 3, alreadyHad: 1, made: 2, wouldMake: 0, skipped: 0, failed: 0 });
    for (const id of ['t1', 't4'])
      expect(env.generations.all.get(id)?.analysis).toEqual({
        bpm: 100,
        key: 'D major',
        confidence: expect.any(Number),
      });
    expect(env.generations.all.get('t2')?.analysis).toEqual(measured);
    expect(outcomes.map((o) => [o.id, o.result])).toEqual([
      ['t4', 'made'],
      ['t1', 'made'],
    ]);

    // A second run finds nothing to do.
    const again = await backfillAnalysis(env.deps);
    expect(again).toMatchObject({ checked: 3, alreadyHad: 3, made: 0 });
  });

  it('on a dry run reads and writes nothing; --before leaves newer tracks out', async () => {
    const env = setup([track('t1'), track('t2')]);
    const report = await backfillAnalysis(env.deps, {
      dryRun: true,
      createdBefore: '2026-01-02T00:00:00.000Z',
    });
    expect(report).toMatchObject({ checked: 1, wouldMake: 1, made: 0 });
    expect(env.reads).toEqual([]);
    expect(env.generations.all.get('t1')?.analysis).toBeUndefined();
  });

  it('counts a track whose audio cannot be read or measured as failed, and goes on', async () => {
    const objects = new Map<string, Uint8Array>([
      [stored('t1'), new TextEncoder().encode('not a wav')],
      [stored('t2'), wavFile([tone(440, 1, 44100)], { sampleRate: 44100 })],
    ]);
    const env = setup([track('t1'), track('t2'), track('t3')], objects);
    const outcomes: AnalysisBackfillOutcome[] = [];

    const report = await backfillAnalysis(env.deps, { onTrack: (o) => outcomes.push(o) });

    expect(report).toMatchObject({ made: 1, failed: 2 });
    expect(outcomes.find((o) => o.id === 't2')).toEqual({
      id: 't2',
      result: 'failed',
      reason: 'the audio is too short or too quiet to measure',
    });
    expect(env.generations.all.get('t3')?.analysis).toMatchObject({ bpm: 100, key: 'D major' });
  });

  it('leaves a track that changed meanwhile as it is', async () => {
    const env = setup([track('t1')]);
    const read = env.deps.files.read;
    env.deps.files.read = async (url) => {
      const bytes = await read(url);
      await env.generations.update('t1', (g) => ({ ...g, audioUrl: 's3://tracks/tracks/t1.other.wav' }));
      return bytes;
    };
    const report = await backfillAnalysis(env.deps);
    expect(report).toMatchObject({ made: 0, skipped: 1 });
    expect(env.generations.all.get('t1')?.analysis).toBeUndefined();
  });
});

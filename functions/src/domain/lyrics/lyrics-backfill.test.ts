import type { TimedLyrics } from '@tunesmith/shared/lyrics';
import { describe, expect, it } from 'vitest';
import { aGeneration } from '../../testing/fixtures';
import { inMemoryGenerationStore } from '../../testing/in-memory-generations';
import type { TrackDirectory } from '../admin/ports';
import type { Generation } from '../tracks/track';
import type { HeardWord } from './align';
import { alignLyrics } from './align';
import { backfillLyrics, type LyricsBackfillOutcome } from './lyrics-backfill';

const LYRICS = '[verse]\nNeon over water\n[chorus]\nHold on';
const HEARD: HeardWord[] = [
  { text: 'neon', start: 2, end: 2.4 },
  { text: 'over', start: 2.5, end: 2.9 },
  { text: 'water', start: 3, end: 3.6 },
  { text: 'hold', start: 6, end: 6.4 },
  { text: 'on', start: 6.5, end: 7 },
];

const track = (id: string, over: Partial<Generation> = {}) =>
  aGeneration({
    id,
    lyrics: LYRICS,
    duration: 20,
    audioUrl: `s3://tracks/tracks/${id}.wav`,
    createdAt: `2026-01-0${id.slice(-1)}T00:00:00.000Z`,
    ...over,
  });

function setup(tracks: Generation[], timed: string[] = []) {
  const generations = inMemoryGenerationStore(tracks);
  const kept = new Map<string, TimedLyrics>(timed.map((id) => [id, { source: 'aligned', lines: [] }]));
  const transcribed: string[] = [];
  let inFlight = 0;
  let mostAtOnce = 0;
  const env = {
    generations,
    kept,
    transcribed,
    mostAtOnce: () => mostAtOnce,
    /** What the transcription answers for a link; by default the words above, after a moment. */
    hear: async (_audioUrl: string): Promise<HeardWord[]> => HEARD,
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
  const deps = {
    tracks: directory,
    generations,
    lyrics: {
      get: async (id: string) => kept.get(id),
      put: async (id: string, lyrics: TimedLyrics) => {
        if (!generations.all.has(id)) return false;
        kept.set(id, lyrics);
        return true;
      },
    },
    audioLink: async (stored: string) => `https://signed.test/${stored.slice('s3://'.length)}?expires=900`,
    transcribe: async ({ audioUrl }: { audioUrl: string }) => {
      transcribed.push(audioUrl);
      inFlight++;
      mostAtOnce = Math.max(mostAtOnce, inFlight);
      try {
        await new Promise((resolve) => setTimeout(resolve, 5));
        return await env.hear(audioUrl);
      } finally {
        inFlight--;
      }
    },
  };
  return { deps, env };
}

describe('backfillLyrics', () => {
  it('times every completed sung track without timed lyrics, as the workflow does, and a second run does nothing', async () => {
    const { deps, env } = setup(
      [
        track('t1'),
        track('t2'),
        track('t3', { instrumental: true }),
        track('t4', { lyrics: '[instrumental]' }),
        track('t5', { status: 'failed', audioUrl: null }),
        track('t6'),
      ],
      ['t2'],
    );
    const outcomes: LyricsBackfillOutcome[] = [];

    const report = await backfillLyrics(deps, { pageSize: 2, onTrack: (o) => outcomes.push(o) });

    // Only tracks with words to sing are looked at; t2 was timed already.
    expect(report).toEqual({ checked: 3, alreadyHad: 1, made: 2, wouldMake: 0, skipped: 0, failed: 0 });
    expect(outcomes.map((o) => o.id).sort()).toEqual(['t1', 't6']);
    expect(outcomes.every((o) => o.result === 'made' && o.lines === 2 && o.words === 5)).toBe(true);
    // From a short-lived link to each track's own audio, aligned as TimeLyrics aligns.
    expect([...env.transcribed].sort()).toEqual([
      'https://signed.test/tracks/tracks/t1.wav?expires=900',
      'https://signed.test/tracks/tracks/t6.wav?expires=900',
    ]);
    expect(env.kept.get('t1')).toEqual(alignLyrics(LYRICS, HEARD, { duration: 20 }));
    expect(env.kept.has('t3')).toBe(false);

    const again = await backfillLyrics(deps);
    expect(again).toEqual({ checked: 3, alreadyHad: 3, made: 0, wouldMake: 0, skipped: 0, failed: 0 });
    expect(env.transcribed).toHaveLength(2);
  });

  it('on a dry run transcribes and writes nothing; --before leaves newer tracks out', async () => {
    const { deps, env } = setup([track('t1'), track('t2'), track('t3', { audioUrl: null })]);
    const outcomes: LyricsBackfillOutcome[] = [];

    const report = await backfillLyrics(deps, {
      dryRun: true,
      createdBefore: '2026-01-03T00:00:00.000Z',
      onTrack: (o) => outcomes.push(o),
    });

    expect(report).toEqual({ checked: 2, alreadyHad: 0, made: 0, wouldMake: 2, skipped: 0, failed: 0 });
    expect(outcomes).toEqual([
      { id: 't2', result: 'would-make' },
      { id: 't1', result: 'would-make' },
    ]);
    expect(env.transcribed).toEqual([]);
    expect(env.kept.size).toBe(0);
  });

  it('counts a failed transcription and goes on; the next run times what failed', async () => {
    const { deps, env } = setup([track('t1'), track('t2'), track('t3')]);
    env.hear = async (audioUrl) => {
      if (audioUrl.includes('t2')) throw new Error('fal is down');
      return HEARD;
    };
    const outcomes: LyricsBackfillOutcome[] = [];

    const first = await backfillLyrics(deps, { onTrack: (o) => outcomes.push(o) });

    expect(first).toMatchObject({ checked: 3, made: 2, failed: 1 });
    expect(outcomes).toContainEqual({ id: 't2', result: 'failed', reason: 'fal is down' });
    expect(env.kept.has('t2')).toBe(false);

    env.hear = async () => HEARD;
    expect(await backfillLyrics(deps)).toMatchObject({ checked: 3, alreadyHad: 2, made: 1, failed: 0 });
    expect(env.kept.has('t2')).toBe(true);
  });

  it('skips a track deleted while it was being timed, keeping nothing', async () => {
    const { deps, env } = setup([track('t1')]);
    env.hear = async () => {
      env.generations.all.delete('t1');
      return HEARD;
    };
    const outcomes: LyricsBackfillOutcome[] = [];
    expect(await backfillLyrics(deps, { onTrack: (o) => outcomes.push(o) })).toMatchObject({ skipped: 1 });
    expect(outcomes).toEqual([{ id: 't1', result: 'skipped' }]);
    expect(env.kept.size).toBe(0);
  });

  it('stops when the store cannot be read, finishing the tracks under way, and says why', async () => {
    const { deps, env } = setup([track('t1'), track('t2'), track('t3')]);
    const read = deps.lyrics.get;
    deps.lyrics.get = async (id) => {
      if (id === 't2') throw new Error('the table is unreachable');
      return read(id);
    };
    await expect(backfillLyrics(deps, { concurrency: 1 })).rejects.toThrow('the table is unreachable');
    // t3 (newest) was timed before t2 was reached; t1 was never started.
    expect([...env.kept.keys()]).toEqual(['t3']);
  });

  it('times at most four tracks at once by default, or as many as asked', async () => {
    const many = Array.from({ length: 9 }, (_, i) => track(`t${i + 1}`));
    const four = setup(many);
    expect(await backfillLyrics(four.deps, { pageSize: 3 })).toMatchObject({ made: 9 });
    expect(four.env.mostAtOnce()).toBe(4);

    const two = setup(many);
    expect(await backfillLyrics(two.deps, { concurrency: 2 })).toMatchObject({ made: 9 });
    expect(two.env.mostAtOnce()).toBe(2);
  });
});

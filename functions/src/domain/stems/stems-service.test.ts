import { describe, expect, it } from 'vitest';
import { aBasicPlan, aGeneration, aPlan } from '../../testing/fixtures';
import { inMemoryPlans } from '../../testing/in-memory';
import { fakeClock } from '../../testing/in-memory-accounts';
import { inMemoryGenerationStore, inMemoryQuota } from '../../testing/in-memory-generations';
import type { User } from '../accounts/user';
import { DomainError } from '../errors';
import { storedTrackAudio } from '../tracks/track';
import type { StemsRecord, StoredStem } from './stems';
import {
  markStemsFailed,
  markStemsReady,
  markStemsSubmitted,
  requestStems,
  type StemsDeps,
  stemsForDownload,
  stemsForViewer,
} from './stems-service';

const freePlan = aPlan();
const basicPlan = aBasicPlan({ stemsSix: true });
const premiumPlan = aBasicPlan({ id: 'plan-premium', name: 'Premium', monthlyPrice: 19, stemsSix: true });
const owner: Pick<User, 'id' | 'planStatus' | 'planEndDate'> = {
  id: 'u1',
  planStatus: 'free',
  planEndDate: null,
};
const paid = { ...owner, planStatus: 'active' as const };

function setup(options: { startFails?: boolean } = {}) {
  const clock = fakeClock('2026-11-18T12:00:00.000Z');
  const generations = inMemoryGenerationStore([
    aGeneration({ id: 't1', userId: 'u1', visibility: 'public', audioUrl: 's3://b/tracks/t1.wav' }),
    aGeneration({ id: 'hidden', userId: 'u1', visibility: 'private', audioUrl: 's3://b/tracks/h.wav' }),
  ]);
  const quota = inMemoryQuota();
  const started: Array<{ id: string; set: string; attempt: number }> = [];
  const deps: StemsDeps = {
    generations,
    quota,
    clock,
    newId: () => 'x',
    plans: inMemoryPlans([freePlan, basicPlan, premiumPlan]),
    workflow: {
      async start(id, stems) {
        if (options.startFails) throw new Error('no state machine');
        started.push({ id, ...stems });
      },
    },
  };
  return { deps, generations, quota, started, clock };
}

const file = (name: StoredStem['name']): StoredStem => ({
  name,
  wavUrl: `s3://b/tracks/t1.stems4.${name}.wav`,
  streamUrl: `s3://b/tracks/t1.stems4.${name}.opus`,
  peaksUrl: `s3://b/tracks/t1.stems4.${name}.peaks.json`,
  sha256: name.padEnd(64, '0'),
  loudness: null,
});

async function refusal(promise: Promise<unknown>): Promise<DomainError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DomainError);
  return error as DomainError;
}

describe('asking for stems', () => {
  it('claims the set, reserves one unit and starts the workflow; asking again costs nothing', async () => {
    const { deps, quota, started, generations } = setup();
    expect(await requestStems(deps, owner, freePlan, 't1', '4')).toEqual({ status: 'processing' });
    expect(await requestStems(deps, owner, freePlan, 't1', '4')).toEqual({ status: 'processing' });
    expect((await quota.read('u1'))?.used).toBe(1);
    expect(started).toEqual([{ id: 't1', set: '4', attempt: 1 }]);
    expect((await generations.get('t1'))?.stems?.['4']).toMatchObject({
      status: 'processing',
      attempt: 1,
      model: 'htdemucs',
    });
  });

  it('of many asks at once, one pays and starts the work', async () => {
    const { deps, quota, started } = setup();
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => requestStems(deps, owner, freePlan, 't1', '4')),
    );
    expect(answers.every((a) => a.status === 'processing')).toBe(true);
    expect((await quota.read('u1'))?.used).toBe(1);
    expect(started).toHaveLength(1);
  });

  it('refuses 6 stems on a plan without them, naming the plans that have them; allows them on a paid one', async () => {
    const { deps, quota } = setup();
    const error = await refusal(requestStems(deps, owner, freePlan, 't1', '6'));
    expect(error.kind).toBe('forbidden');
    expect(error.message).toBe(
      '6 stems are for the Basic and Premium plans. Upgrade to separate this track.',
    );
    expect(quota.counters.size).toBe(0);
    expect(await requestStems(deps, paid, basicPlan, 't1', '6')).toEqual({ status: 'processing' });
  });

  it('a paid plan whose period is over separates as the Free plan does', async () => {
    const { deps } = setup();
    const lapsed = { ...owner, planStatus: 'cancelled' as const, planEndDate: '2026-11-01T00:00:00.000Z' };
    expect((await refusal(requestStems(deps, lapsed, basicPlan, 't1', '6'))).kind).toBe('forbidden');
  });

  it('another user’s track is not found, an unfinished one is a 400, one being prepared a conflict', async () => {
    const { deps, generations } = setup();
    expect((await refusal(requestStems(deps, { ...owner, id: 'u2' }, freePlan, 't1', '4'))).kind).toBe(
      'not-found',
    );
    await generations.create(aGeneration({ id: 'p', userId: 'u1', status: 'generating', audioUrl: null }));
    expect((await refusal(requestStems(deps, owner, freePlan, 'p', '4'))).kind).toBe('validation');
    await generations.create(aGeneration({ id: 'd', userId: 'u1', downloadPending: true }));
    expect((await refusal(requestStems(deps, owner, freePlan, 'd', '4'))).kind).toBe('conflict');
  });

  it('a week used up is a 429 that leaves the set as it was', async () => {
    const { deps, quota, generations } = setup();
    for (let i = 0; i < 5; i++)
      await quota.reserve('u1', { limit: 5, windowStart: '2026-11-16T00:00:00.000Z', now: '' });
    expect((await refusal(requestStems(deps, owner, freePlan, 't1', '4'))).kind).toBe('quota');
    expect((await generations.get('t1'))?.stems).toEqual({});
  });

  it('a workflow that does not start fails the set and gives the unit back', async () => {
    const { deps, quota, generations } = setup({ startFails: true });
    expect((await refusal(requestStems(deps, owner, freePlan, 't1', '4'))).kind).toBe('unavailable');
    expect((await quota.read('u1'))?.used).toBe(0);
    expect((await generations.get('t1'))?.stems?.['4']?.status).toBe('failed');
  });
});

describe('the workflow’s marks', () => {
  it('a failure refunds once; an ask after it is a new attempt that pays again', async () => {
    const { deps, quota, started } = setup();
    await requestStems(deps, owner, freePlan, 't1', '4');
    expect(await markStemsFailed(deps, 't1', '4', 1)).toEqual({ refunded: true });
    expect(await markStemsFailed(deps, 't1', '4', 1)).toEqual({ refunded: false });
    expect((await quota.read('u1'))?.used).toBe(0);
    expect(await requestStems(deps, owner, freePlan, 't1', '4')).toEqual({ status: 'processing' });
    expect(started.at(-1)).toEqual({ id: 't1', set: '4', attempt: 2 });
    expect((await quota.read('u1'))?.used).toBe(1);
    // The first attempt's late marks change nothing.
    expect(await markStemsReady(deps, 't1', '4', 1, [file('vocals')])).toBe(false);
  });

  it('ready lists the files for whoever may see the track, the set asked for last first', async () => {
    const { deps, generations } = setup();
    await requestStems(deps, owner, freePlan, 't1', '4');
    await markStemsSubmitted(deps, 't1', '4', 1, 'req-1');
    const names = ['vocals', 'drums', 'bass', 'other'] as const;
    expect(await markStemsReady(deps, 't1', '4', 1, names.map(file))).toBe(true);
    const seen = await stemsForViewer(deps, undefined, 't1');
    expect(seen).toMatchObject({ status: 'ready', set: '4' });
    expect(seen.stems.map((s) => [s.name, s.audio])).toEqual(
      names.map((n) => [n, `s3://b/tracks/t1.stems4.${n}.opus`]),
    );
    const stored = (await generations.get('t1')) as NonNullable<Awaited<ReturnType<typeof generations.get>>>;
    expect(stored.stems?.['4']?.requestId).toBe('req-1');
    // Deleting the track takes every stem file with it.
    expect(storedTrackAudio(stored)).toEqual(
      expect.arrayContaining(names.map((n) => `s3://b/tracks/t1.stems4.${n}.peaks.json`)),
    );
    expect(await stemsForViewer(deps, undefined, 'missing').catch((e: DomainError) => e.kind)).toBe(
      'not-found',
    );
  });

  it('answers one set by name, and the set asked for last without a name', async () => {
    const { deps, clock } = setup();
    await requestStems(deps, paid, basicPlan, 't1', '4');
    await markStemsReady(deps, 't1', '4', 1, [file('vocals')]);
    clock.advance(1000);
    await requestStems(deps, paid, basicPlan, 't1', '6');
    expect(await stemsForViewer(deps, undefined, 't1')).toEqual({
      status: 'processing',
      set: '6',
      stems: [],
    });
    expect(await stemsForViewer(deps, undefined, 't1', '4')).toMatchObject({ status: 'ready', set: '4' });
    expect(await stemsForViewer(deps, owner, 'hidden', '6')).toEqual({ status: 'none', stems: [] });
  });

  it('a private track’s stems are its owner’s only', async () => {
    const { deps } = setup();
    expect(await stemsForViewer(deps, owner, 'hidden')).toEqual({ status: 'none', stems: [] });
    expect(await stemsForViewer(deps, { id: 'u2' }, 'hidden').catch((e: DomainError) => e.kind)).toBe(
      'not-found',
    );
  });

  it('the zip is for the owner on a paid plan once it is made', async () => {
    const { deps, generations } = setup();
    expect((await refusal(stemsForDownload(deps, owner, freePlan, 't1'))).kind).toBe('forbidden');
    expect((await refusal(stemsForDownload(deps, paid, basicPlan, 't1'))).message).toBe(
      'The stems of this track are not ready.',
    );
    await requestStems(deps, paid, basicPlan, 't1', '4');
    await markStemsReady(deps, 't1', '4', 1, [file('vocals')]);
    expect((await refusal(stemsForDownload(deps, paid, basicPlan, 't1'))).message).toBe(
      'The download is being prepared',
    );
    await generations.update('t1', (g) => ({
      ...g,
      stems: { '4': { ...(g.stems?.['4'] as StemsRecord), zipUrl: 's3://b/tracks/t1.stems4.zip' } },
    }));
    expect((await stemsForDownload(deps, paid, basicPlan, 't1')).record.zipUrl).toBe(
      's3://b/tracks/t1.stems4.zip',
    );
    expect((await refusal(stemsForDownload(deps, { ...paid, id: 'u2' }, basicPlan, 't1'))).kind).toBe(
      'not-found',
    );
  });
});

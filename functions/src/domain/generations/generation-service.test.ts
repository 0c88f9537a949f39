import { extendSchema, repaintSchema, textToMusicSchema } from '@tunesmith/shared/generations';
import { describe, expect, it } from 'vitest';
import { aBasicPlan, aGeneration, aPlan } from '../../testing/fixtures';
import { inMemoryPlans } from '../../testing/in-memory';
import { fakeClock } from '../../testing/in-memory-accounts';
import { inMemoryGenerationStore, inMemoryQuota } from '../../testing/in-memory-generations';
import { inMemoryModelSettings } from '../../testing/in-memory-models';
import type { User } from '../accounts/user';
import { DomainError } from '../errors';
import { settingsInForce } from '../models/model-settings';
import { entitlementsFor } from './entitlements';
import {
  createFromTrack,
  createGeneration,
  deleteGeneration,
  familyOf,
  getForViewer,
  getOwn,
  getPlayableForViewer,
  LIBRARY_MAX,
  listLibrary,
  markCompleted,
  markFailed,
  markGenerating,
  parentForViewer,
  quotaStatus,
  renameOrSetVisibility,
  type StartDeps,
  type StartGenerationInput,
  type StudioInput,
  startGeneration,
} from './generation-service';
import { quotaWindowStart } from './quota-window';

const freePlan = aPlan();
const basicPlan = aBasicPlan();
const premiumPlan = aBasicPlan({
  id: 'plan-premium',
  name: 'Premium',
  monthlyPrice: 19,
  commercialUse: true,
});
const SITE = 'https://tunesmith.test';

const freeUser: Pick<User, 'id' | 'planStatus' | 'planEndDate'> = {
  id: 'user-free',
  planStatus: 'free',
  planEndDate: null,
};
const paidUser: Pick<User, 'id' | 'planStatus' | 'planEndDate'> = {
  id: 'user-paid',
  planStatus: 'active',
  planEndDate: null,
};

function setup(options: { failCreate?: () => boolean; plans?: ReturnType<typeof aPlan>[] } = {}) {
  // A Wednesday; the window started Monday 2026-11-16.
  const clock = fakeClock('2026-11-18T12:00:00.000Z');
  let n = 0;
  const generations = inMemoryGenerationStore([], options);
  const plans = inMemoryPlans(options.plans ?? [freePlan, basicPlan, premiumPlan]);
  const modelSettings = inMemoryModelSettings();
  const deps: StartDeps = {
    generations,
    quota: inMemoryQuota(),
    clock,
    newId: () => `gen-${++n}`,
    siteOrigin: SITE,
    plans,
    modelSettings,
  };
  return {
    deps,
    clock,
    generations,
    plans,
    modelSettings,
    quota: deps.quota as ReturnType<typeof inMemoryQuota>,
  };
}

const text = (overrides: Record<string, unknown> = {}): StartGenerationInput => ({
  type: 'text-to-music',
  ...textToMusicSchema.parse({ tags: 'pop, upbeat', ...overrides }),
});

async function rejection(promise: Promise<unknown>): Promise<DomainError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DomainError);
  return error as DomainError;
}

describe('startGeneration', () => {
  it('records a pending, public generation with the defaults and takes one unit', async () => {
    const { deps, quota } = setup();

    const generation = await startGeneration(deps, freeUser, freePlan, text());

    expect(generation).toMatchObject({
      id: 'gen-1',
      userId: freeUser.id,
      type: 'text-to-music',
      status: 'pending',
      visibility: 'public',
      showInGallery: true,
      duration: 60,
      lyrics: '',
      title: null,
      createdAt: '2026-11-18T12:00:00.000Z',
    });
    expect(await deps.generations.get('gen-1')).toEqual(generation);
    expect(quota.counters.get(freeUser.id)).toEqual({ used: 1, windowStart: '2026-11-16T00:00:00.000Z' });
  });

  it('keeps the upload of an audio-to-music request', async () => {
    const { deps } = setup();
    const generation = await startGeneration(deps, freeUser, freePlan, {
      type: 'audio-to-music',
      tags: 'rock',
      lyrics: '',
      inputAudioUrl: 'uploads/user-free/song.wav',
      title: 'Remix',
      visibility: 'public',
    });
    expect(generation).toMatchObject({ type: 'audio-to-music', inputAudioUrl: 'uploads/user-free/song.wav' });
  });

  it('refuses the sixth generation of the week on the free plan with the reset date', async () => {
    const { deps, generations } = setup();
    for (let i = 0; i < 5; i++) await startGeneration(deps, freeUser, freePlan, text());

    const error = await rejection(startGeneration(deps, freeUser, freePlan, text()));

    expect(error.kind).toBe('quota');
    expect(error.message).toBe(
      'You have used all 5 generations of your plan this week. Your quota resets on Monday, November 23.',
    );
    expect(error.details).toMatchObject({ used: 5, limit: 5, resetsAt: '2026-11-23T00:00:00.000Z' });
    expect(generations.all.size).toBe(5);
  });

  it('gives exactly the limit out of many concurrent requests', async () => {
    const { deps, generations } = setup();
    const results = await Promise.allSettled(
      Array.from({ length: 20 }, () => startGeneration(deps, freeUser, freePlan, text())),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(5);
    expect(generations.all.size).toBe(5);
  });

  it('starts counting again in a new week', async () => {
    const { deps, clock, quota } = setup();
    for (let i = 0; i < 5; i++) await startGeneration(deps, freeUser, freePlan, text());
    clock.advance(5 * 86_400_000); // Monday 2026-11-23, 12:00

    await startGeneration(deps, freeUser, freePlan, text());

    expect(quota.counters.get(freeUser.id)).toEqual({ used: 1, windowStart: '2026-11-23T00:00:00.000Z' });
  });

  it('uses the paid plan limit while the subscription is active', async () => {
    const { deps } = setup();
    for (let i = 0; i < 30; i++) await startGeneration(deps, paidUser, basicPlan, text());
    const error = await rejection(startGeneration(deps, paidUser, basicPlan, text()));
    expect(error.message).toContain('all 30 generations');
  });

  it('refuses a private track on the free plan without taking a unit', async () => {
    const { deps, quota } = setup();

    const error = await rejection(startGeneration(deps, freeUser, freePlan, text({ visibility: 'private' })));

    expect(error.kind).toBe('payment-required');
    expect(error.message).toBe('Private tracks need a paid plan. Upgrade to keep tracks private.');
    expect(quota.counters.get(freeUser.id)).toBeUndefined();
  });

  it('lets a paid plan create private tracks', async () => {
    const { deps } = setup();
    const generation = await startGeneration(deps, paidUser, basicPlan, text({ visibility: 'private' }));
    expect(generation.visibility).toBe('private');
  });

  it('gives the unit back when the generation cannot be recorded', async () => {
    const { deps, quota } = setup({ failCreate: () => true });

    await expect(startGeneration(deps, freeUser, freePlan, text())).rejects.toThrow('store unavailable');

    expect(quota.counters.get(freeUser.id)?.used).toBe(0);
  });
});

describe('createGeneration', () => {
  /** A workflow starter that records the ids it launched, or fails when told to. */
  const starter = (fail = false) => {
    const started: string[] = [];
    return {
      started,
      async start(id: string) {
        if (fail) throw new Error('StartExecution refused');
        started.push(id);
      },
    };
  };

  it('records the pending generation and launches its workflow by id', async () => {
    const { deps, quota } = setup();
    const workflow = starter();

    const generation = await createGeneration({ ...deps, workflow }, freeUser, freePlan, text());

    expect(workflow.started).toEqual([generation.id]);
    expect((await deps.generations.get(generation.id))?.status).toBe('pending');
    expect(quota.counters.get(freeUser.id)?.used).toBe(1);
  });

  it('marks the generation failed and gives the unit back when the workflow cannot start', async () => {
    const { deps, generations, quota } = setup();

    const error = await rejection(
      createGeneration({ ...deps, workflow: starter(true) }, freeUser, freePlan, text()),
    );

    expect(error.kind).toBe('unavailable');
    expect(error.message).toBe('Failed to start music generation. Please try again.');
    expect([...generations.all.values()].map((g) => g.status)).toEqual(['failed']);
    expect(quota.counters.get(freeUser.id)?.used).toBe(0);
  });

  it('launches nothing when the quota is used up', async () => {
    const { deps } = setup();
    const workflow = starter();
    for (let i = 0; i < 5; i++) await createGeneration({ ...deps, workflow }, freeUser, freePlan, text());

    const error = await rejection(createGeneration({ ...deps, workflow }, freeUser, freePlan, text()));

    expect(error.kind).toBe('quota');
    expect(workflow.started).toHaveLength(5);
  });
});

describe('instrumental', () => {
  it('records an instrumental text track with no lyrics', async () => {
    const { deps } = setup();

    const generation = await startGeneration(deps, freeUser, freePlan, text({ instrumental: true }));

    expect(generation).toMatchObject({ instrumental: true, lyrics: '' });
    expect((await deps.generations.get(generation.id))?.instrumental).toBe(true);
  });

  it('records a song with lyrics as not instrumental', async () => {
    const { deps } = setup();

    const generation = await startGeneration(deps, freeUser, freePlan, text({ lyrics: '[verse]\nla' }));

    expect(generation).toMatchObject({ instrumental: false, lyrics: '[verse]\nla' });
  });
});

describe('createFromTrack (the studio)', () => {
  const starter = () => {
    const started: string[] = [];
    return { started, start: async (id: string) => void started.push(id) };
  };
  /** The owner's completed 60 s track `p1`, and other users' tracks beside it. */
  function studio(parent: Partial<Parameters<typeof aGeneration>[0]> = {}) {
    const { deps, generations, quota } = setup();
    const workflow = starter();
    const tracks = [
      aGeneration({
        id: 'p1',
        userId: freeUser.id,
        title: 'Night Drive',
        tags: 'synthwave',
        lyrics: '[verse]\nneon',
        duration: 60,
        ...parent,
      }),
      aGeneration({ id: 'someone-public', userId: 'someone', visibility: 'public' }),
      aGeneration({ id: 'someone-private', userId: 'someone', visibility: 'private' }),
    ];
    for (const t of tracks) generations.all.set(t.id, t);
    const make = (id: string, input: StudioInput, user = freeUser, plan = freePlan) =>
      createFromTrack({ ...deps, workflow }, user, plan, id, input);
    return { deps, generations, quota, workflow, make };
  }
  const extend = (body: Record<string, unknown>): StudioInput => ({
    kind: 'extend',
    ...extendSchema.parse(body),
  });
  const repaint = (body: Record<string, unknown>): StudioInput => ({
    kind: 'repaint',
    ...repaintSchema.parse(body),
  });

  it('makes a variation: the parent type, title, tags, lyrics and duration, with parentId and edit, launched', async () => {
    const { make, workflow, quota } = studio();

    const child = await make('p1', { kind: 'variation' });

    expect(child).toMatchObject({
      type: 'text-to-music',
      title: 'Night Drive',
      tags: 'synthwave',
      lyrics: '[verse]\nneon',
      duration: 60,
      status: 'pending',
      visibility: 'public',
      parentId: 'p1',
      edit: { kind: 'variation' },
      instrumental: false,
      inputAudioUrl: null,
      seed: null,
    });
    expect(workflow.started).toEqual([child.id]);
    expect(quota.counters.get(freeUser.id)?.used).toBe(1);
  });

  it('makes a variation of a restyle from the same upload', async () => {
    const { make } = studio({ type: 'audio-to-music', inputAudioUrl: 'uploads/user-free/in.wav' });

    const child = await make('p1', { kind: 'variation' });

    expect(child).toMatchObject({ type: 'audio-to-music', inputAudioUrl: 'uploads/user-free/in.wav' });
  });

  it('extends by the given seconds at either end, with new tags and lyrics when given', async () => {
    const { make } = studio();

    const atEnd = await make('p1', extend({ seconds: 30 }));
    const atStart = await make('p1', extend({ seconds: 5, at: 'start', tags: 'lo-fi', lyrics: 'new words' }));

    expect(atEnd).toMatchObject({ duration: 90, edit: { kind: 'extend', seconds: 30, at: 'end' } });
    expect(atEnd.inputAudioUrl).toBeNull();
    expect(atStart).toMatchObject({
      duration: 65,
      tags: 'lo-fi',
      lyrics: 'new words',
      edit: { kind: 'extend', seconds: 5, at: 'start' },
    });
  });

  it('repaints a section within the parent, keeping its duration', async () => {
    const { make } = studio();

    const child = await make('p1', repaint({ start: 10, end: 60, variance: 0.8 }));

    expect(child).toMatchObject({
      duration: 60,
      edit: { kind: 'repaint', start: 10, end: 60, variance: 0.8 },
      parentId: 'p1',
    });
  });

  it('refuses an extension past 240 seconds naming the range it may add, reserving nothing', async () => {
    const { make, quota, workflow } = studio({ duration: 200.5 });

    const error = await rejection(make('p1', extend({ seconds: 40 })));

    expect(error.kind).toBe('validation');
    expect(error.message).toBe('Extend by a whole number of seconds from 5 to 39.');
    expect(quota.counters.get(freeUser.id)).toBeUndefined();
    expect(workflow.started).toEqual([]);
    await expect(make('p1', extend({ seconds: 39 }))).resolves.toMatchObject({ duration: 239.5 });
  });

  it('tells the owner of a full-length track that it cannot grow', async () => {
    const { make } = studio({ duration: 238 });

    const error = await rejection(make('p1', extend({ seconds: 5 })));

    expect(error.message).toBe('This track is already as long as a track can be (240 seconds).');
  });

  it('refuses a section that starts before the track or ends after it, reserving nothing', async () => {
    const { make, quota } = studio({ duration: 30 });

    // As parsed for some other track (the call's schema checks the parent's own limits first).
    for (const section of [
      { start: 20, end: 31 },
      { start: -1, end: 10 },
    ]) {
      const error = await rejection(make('p1', { kind: 'repaint', ...section, variance: 0.5 }));
      expect(error.kind).toBe('validation');
      expect(error.message).toBe('The section must lie within the track (0 to 30 seconds).');
    }
    expect(quota.counters.get(freeUser.id)).toBeUndefined();
  });

  it("answers not found for other users' tracks, public or private, and unknown ids", async () => {
    const { make, quota } = studio();

    for (const id of ['someone-public', 'someone-private', 'nope']) {
      const error = await rejection(make(id, { kind: 'variation' }));
      expect(error.kind).toBe('not-found');
      expect(error.message).toBe('Track not found');
    }
    expect(quota.counters.get(freeUser.id)).toBeUndefined();
  });

  it('refuses a track that is not completed yet, reserving nothing', async () => {
    for (const status of ['pending', 'generating', 'failed'] as const) {
      const { make, quota } = studio({ status });
      const error = await rejection(make('p1', { kind: 'variation' }));
      expect(error.kind).toBe('validation');
      expect(error.message).toBe('This track is not finished yet. Try again once it has completed.');
      expect(quota.counters.get(freeUser.id)).toBeUndefined();
    }
  });

  it('answers the quota like any create once the week is used up', async () => {
    const { make, workflow } = studio();
    for (let i = 0; i < 5; i++) await make('p1', { kind: 'variation' });

    const error = await rejection(make('p1', { kind: 'variation' }));

    expect(error.kind).toBe('quota');
    expect(workflow.started).toHaveLength(5);
  });

  it('keeps a private parent private on a paid plan, and makes the child public once the plan no longer allows it', async () => {
    const paid = studio({ userId: paidUser.id, visibility: 'private' });
    const kept = await paid.make('p1', { kind: 'variation' }, paidUser, basicPlan);
    expect(kept.visibility).toBe('private');

    const lapsed = studio({ visibility: 'private' });
    const child = await lapsed.make('p1', { kind: 'variation' });
    expect(child.visibility).toBe('public');
  });

  it('inherits instrumental unless the call gives lyrics', async () => {
    const { make } = studio({ instrumental: true, lyrics: '' });

    const same = await make('p1', extend({ seconds: 10 }));
    const sung = await make('p1', repaint({ start: 0, end: 10, lyrics: '[chorus]\nhey' }));

    expect(same).toMatchObject({ instrumental: true, lyrics: '' });
    expect(sung).toMatchObject({ instrumental: false, lyrics: '[chorus]\nhey' });
  });

  it('fails the child and gives the unit back when its workflow cannot start', async () => {
    const { deps, generations, quota } = setup();
    generations.all.set('p1', aGeneration({ id: 'p1', userId: freeUser.id }));
    const workflow = {
      async start() {
        throw new Error('StartExecution refused');
      },
    };

    const error = await rejection(
      createFromTrack({ ...deps, workflow }, freeUser, freePlan, 'p1', { kind: 'variation' }),
    );

    expect(error.kind).toBe('unavailable');
    const child = [...generations.all.values()].find((g) => g.parentId === 'p1');
    expect(child?.status).toBe('failed');
    expect(quota.counters.get(freeUser.id)?.used).toBe(0);
  });
});

describe('familyOf', () => {
  function family() {
    const { deps, generations } = setup();
    const at = (n: number) => `2026-11-1${n}T00:00:00.000Z`;
    const tracks = [
      aGeneration({ id: 'root', userId: 'owner', title: 'Root', visibility: 'private', createdAt: at(0) }),
      aGeneration({
        id: 'mid',
        userId: 'owner',
        title: 'Mid',
        parentId: 'root',
        edit: { kind: 'variation' },
        createdAt: at(1),
      }),
      aGeneration({
        id: 'ext',
        userId: 'owner',
        title: 'Longer',
        parentId: 'mid',
        edit: { kind: 'extend', seconds: 10, at: 'end' },
        createdAt: at(2),
      }),
      aGeneration({
        id: 'rep',
        userId: 'owner',
        title: 'Hidden',
        parentId: 'mid',
        visibility: 'private',
        edit: { kind: 'repaint', start: 0, end: 5, variance: 0.5 },
        createdAt: at(3),
      }),
      aGeneration({
        id: 'wip',
        userId: 'owner',
        title: null,
        status: 'generating',
        parentId: 'mid',
        edit: { kind: 'variation' },
        createdAt: at(4),
      }),
      aGeneration({
        id: 'orphan',
        userId: 'owner',
        parentId: 'gone',
        edit: { kind: 'variation' },
        createdAt: at(5),
      }),
      aGeneration({
        id: 'bad',
        userId: 'owner',
        title: 'Mid',
        status: 'failed',
        parentId: 'mid',
        edit: { kind: 'variation' },
        createdAt: at(6),
      }),
    ];
    for (const t of tracks) generations.all.set(t.id, t);
    return { deps, get: (id: string) => generations.all.get(id) as (typeof tracks)[number] };
  }

  it('names the parent and every child, oldest first, with its state, for the owner', async () => {
    const { deps, get } = family();

    expect(await familyOf(deps, { id: 'owner' }, get('mid'))).toEqual({
      parent: { id: 'root', title: 'Root', deleted: false },
      children: [
        { id: 'ext', title: 'Longer', kind: 'extend', status: 'completed' },
        { id: 'rep', title: 'Hidden', kind: 'repaint', status: 'completed' },
        { id: 'wip', title: null, kind: 'variation', status: 'generating' },
        { id: 'bad', title: 'Mid', kind: 'variation', status: 'failed' },
      ],
    });
  });

  it('names only public, completed tracks for anyone else', async () => {
    const { deps, get } = family();

    for (const viewer of [undefined, { id: 'someone' }]) {
      expect(await familyOf(deps, viewer, get('mid'))).toEqual({
        parent: null,
        children: [{ id: 'ext', title: 'Longer', kind: 'extend', status: 'completed' }],
      });
    }
  });

  it('says to the owner that a parent no longer exists, and to no one else', async () => {
    const { deps, get } = family();

    expect(await familyOf(deps, { id: 'owner' }, get('orphan'))).toEqual({
      parent: { id: 'gone', title: null, deleted: true },
      children: [],
    });
    for (const viewer of [undefined, { id: 'someone' }]) {
      expect(await familyOf(deps, viewer, get('orphan'))).toEqual({ parent: null, children: [] });
    }
  });
});

describe('parentForViewer', () => {
  it('names a private parent to its owner only, and a public one to anyone', async () => {
    const { deps, generations } = setup();
    for (const t of [
      aGeneration({ id: 'secret', userId: 'owner', title: 'Secret', visibility: 'private' }),
      aGeneration({ id: 'open', userId: 'owner', title: 'Open', visibility: 'public' }),
      aGeneration({ id: 'c1', userId: 'owner', visibility: 'public', parentId: 'secret' }),
      aGeneration({ id: 'c2', userId: 'owner', visibility: 'public', parentId: 'open' }),
      aGeneration({ id: 'c3', userId: 'owner', visibility: 'public' }),
    ]) {
      generations.all.set(t.id, t);
    }
    const child = (id: string) => generations.all.get(id) as Parameters<typeof parentForViewer>[2];

    expect(await parentForViewer(deps, { id: 'owner' }, child('c1'))).toEqual({
      id: 'secret',
      title: 'Secret',
      deleted: false,
    });
    for (const viewer of [undefined, { id: 'someone' }]) {
      expect(await parentForViewer(deps, viewer, child('c1'))).toBeNull();
      expect(await parentForViewer(deps, viewer, child('c2'))).toEqual({
        id: 'open',
        title: 'Open',
        deleted: false,
      });
    }
    expect(await parentForViewer(deps, undefined, child('c3'))).toBeNull();
  });
});

describe('generation lifecycle', () => {
  it('goes pending → generating → completed with the result', async () => {
    const { deps } = setup();
    const { id } = await startGeneration(deps, freeUser, freePlan, text());

    expect((await markGenerating(deps, id, { falRequestId: 'req-9' })).status).toBe('generating');
    const done = await markCompleted(deps, id, { audioUrl: 'audio/gen-1.wav', duration: 61, seed: 7 });

    expect(done).toMatchObject({
      status: 'completed',
      audioUrl: 'audio/gen-1.wav',
      duration: 61,
      seed: 7,
      falRequestId: 'req-9',
    });
  });

  it('refunds a failed generation exactly once', async () => {
    const { deps, quota } = setup();
    const { id } = await startGeneration(deps, freeUser, freePlan, text());
    await startGeneration(deps, freeUser, freePlan, text());
    expect(quota.counters.get(freeUser.id)?.used).toBe(2);

    const first = await markFailed(deps, id, 'provider error');
    const second = await markFailed(deps, id, 'timeout');

    expect(first).toMatchObject({ refunded: true, generation: { status: 'failed' } });
    expect(second.refunded).toBe(false);
    expect(quota.counters.get(freeUser.id)?.used).toBe(1);
  });

  it('keeps completed and failed final', async () => {
    const { deps, quota } = setup();
    const a = await startGeneration(deps, freeUser, freePlan, text());
    const b = await startGeneration(deps, freeUser, freePlan, text());
    await markCompleted(deps, a.id, { audioUrl: 'a.wav', duration: 60, seed: 1 });
    await markFailed(deps, b.id, 'boom');

    const failedAfterCompleted = await markFailed(deps, a.id, 'late timeout');
    const completedAfterFailed = await markCompleted(deps, b.id, {
      audioUrl: 'b.wav',
      duration: 60,
      seed: 2,
    });
    const generatingAfterCompleted = await markGenerating(deps, a.id);

    expect(failedAfterCompleted).toMatchObject({ refunded: false, generation: { status: 'completed' } });
    expect(completedAfterFailed).toMatchObject({ status: 'failed', audioUrl: null });
    expect(generatingAfterCompleted.status).toBe('completed');
    expect(quota.counters.get(freeUser.id)?.used).toBe(1);
  });

  it('refunds nothing when the failure comes after the week is over', async () => {
    const { deps, clock, quota } = setup();
    const { id } = await startGeneration(deps, freeUser, freePlan, text());
    clock.advance(7 * 86_400_000);
    await startGeneration(deps, freeUser, freePlan, text());

    const { refunded } = await markFailed(deps, id, 'timeout');

    expect(refunded).toBe(false);
    expect(quota.counters.get(freeUser.id)).toEqual({ used: 1, windowStart: quotaWindowStart(clock.now()) });
  });

  it('reports an unknown generation as not found', async () => {
    const { deps } = setup();
    expect((await rejection(markCompleted(deps, 'nope', { audioUrl: 'x', duration: 1, seed: 1 }))).kind).toBe(
      'not-found',
    );
  });
});

describe('owner operations', () => {
  it('renames and sets visibility for the owner only; others get not-found', async () => {
    const { deps } = setup();
    const { id } = await startGeneration(deps, paidUser, basicPlan, text());

    const renamed = await renameOrSetVisibility(deps, paidUser, basicPlan, id, {
      title: 'Night Drive',
      visibility: 'private',
    });
    const stranger = await rejection(
      renameOrSetVisibility(deps, freeUser, freePlan, id, { title: 'Mine now', visibility: 'public' }),
    );

    expect(renamed).toMatchObject({ title: 'Night Drive', visibility: 'private' });
    expect(stranger.kind).toBe('not-found');
    expect((await deps.generations.get(id))?.title).toBe('Night Drive');
  });

  it('does not let the free plan make a track private, but lets it rename one that already is', async () => {
    const { deps } = setup();
    const mine = await startGeneration(deps, freeUser, freePlan, text());
    const error = await rejection(
      renameOrSetVisibility(deps, freeUser, freePlan, mine.id, { title: 'x', visibility: 'private' }),
    );
    expect(error.kind).toBe('payment-required');
    expect((await deps.generations.get(mine.id))?.visibility).toBe('public');

    // A track made private while the user was paying.
    await deps.generations.update(mine.id, (g) => ({ ...g, visibility: 'private' }));
    const renamed = await renameOrSetVisibility(deps, freeUser, freePlan, mine.id, {
      title: 'Still private',
      visibility: 'private',
    });
    expect(renamed.title).toBe('Still private');
  });

  it('deletes for the owner only and returns the audio to remove', async () => {
    const { deps } = setup();
    const { id } = await startGeneration(deps, freeUser, freePlan, {
      type: 'audio-to-music',
      tags: 'rock',
      lyrics: '',
      inputAudioUrl: 'uploads/user-free/in.wav',
      visibility: 'public',
    });
    await markCompleted(deps, id, {
      audioUrl: 'tracks/out.wav',
      streamAudioUrl: 'tracks/out.opus',
      peaksUrl: 'tracks/out.peaks.json',
      duration: 30,
      seed: 3,
    });

    expect((await rejection(deleteGeneration(deps, paidUser, id))).kind).toBe('not-found');
    const { audioUrls } = await deleteGeneration(deps, freeUser, id);

    // The WAV, the players' compressed copy, the waveform's peaks and the restyled upload.
    expect(audioUrls).toEqual([
      'tracks/out.wav',
      'tracks/out.opus',
      'tracks/out.peaks.json',
      'uploads/user-free/in.wav',
    ]);
    expect(await deps.generations.get(id)).toBeUndefined();
    expect((await rejection(deleteGeneration(deps, freeUser, id))).kind).toBe('not-found');
  });

  it('keeps an upload while another of the owner’s tracks restyles it', async () => {
    const { deps } = setup();
    const remix = () =>
      startGeneration(deps, freeUser, freePlan, {
        type: 'audio-to-music',
        tags: 'rock',
        lyrics: '',
        inputAudioUrl: '/objects/uploads/user-free/in.wav',
        visibility: 'public',
      });
    const first = await remix();
    const second = await remix();

    expect((await deleteGeneration(deps, freeUser, first.id)).audioUrls).toEqual([]);
    expect((await deleteGeneration(deps, freeUser, second.id)).audioUrls).toEqual([
      '/objects/uploads/user-free/in.wav',
    ]);
  });

  it('gives the unit back when an unfinished track is deleted, not when a finished one is', async () => {
    const { deps, quota } = setup();
    const pending = await startGeneration(deps, freeUser, freePlan, text());
    const done = await startGeneration(deps, freeUser, freePlan, text());
    await markCompleted(deps, done.id, { audioUrl: 'tracks/out.wav', duration: 30, seed: 3 });
    expect(quota.counters.get(freeUser.id)?.used).toBe(2);

    expect((await deleteGeneration(deps, freeUser, pending.id)).refunded).toBe(true);
    expect(quota.counters.get(freeUser.id)?.used).toBe(1);
    expect((await deleteGeneration(deps, freeUser, done.id)).refunded).toBe(false);
    expect(quota.counters.get(freeUser.id)?.used).toBe(1);
  });

  it('shows a private track to its owner only', async () => {
    const { deps } = setup();
    const secret = await startGeneration(deps, paidUser, basicPlan, text({ visibility: 'private' }));
    const open = await startGeneration(deps, paidUser, basicPlan, text());

    expect((await getForViewer(deps, paidUser, secret.id)).id).toBe(secret.id);
    expect((await rejection(getForViewer(deps, freeUser, secret.id))).kind).toBe('not-found');
    expect((await rejection(getForViewer(deps, undefined, secret.id))).kind).toBe('not-found');
    expect((await getForViewer(deps, undefined, open.id)).id).toBe(open.id);
  });

  it('lets a track be played by whoever may see it once it has finished with audio', async () => {
    const { deps } = setup();
    const secret = await startGeneration(deps, paidUser, basicPlan, text({ visibility: 'private' }));
    const open = await startGeneration(deps, paidUser, basicPlan, text());
    const failed = await startGeneration(deps, paidUser, basicPlan, text());
    // Not finished yet: nobody plays it, its owner neither.
    expect((await rejection(getPlayableForViewer(deps, paidUser, open.id))).kind).toBe('not-found');
    expect((await rejection(getPlayableForViewer(deps, undefined, open.id))).kind).toBe('not-found');
    for (const id of [secret.id, open.id])
      await markCompleted(deps, id, { audioUrl: 's3://tracks/tracks/a.wav', duration: 30, seed: 3 });
    await markFailed(deps, failed.id, 'provider error');

    expect((await getPlayableForViewer(deps, undefined, open.id)).id).toBe(open.id);
    expect((await getPlayableForViewer(deps, freeUser, open.id)).id).toBe(open.id);
    expect((await getPlayableForViewer(deps, paidUser, secret.id)).id).toBe(secret.id);
    expect((await rejection(getPlayableForViewer(deps, undefined, secret.id))).kind).toBe('not-found');
    expect((await rejection(getPlayableForViewer(deps, freeUser, secret.id))).kind).toBe('not-found');
    expect((await rejection(getPlayableForViewer(deps, paidUser, failed.id))).kind).toBe('not-found');
    expect((await rejection(getPlayableForViewer(deps, undefined, 'missing'))).kind).toBe('not-found');
  });

  it('gives a track to its owner only, public or not', async () => {
    const { deps } = setup();
    const open = await startGeneration(deps, paidUser, basicPlan, text());

    expect((await getOwn(deps, paidUser, open.id)).id).toBe(open.id);
    expect((await rejection(getOwn(deps, freeUser, open.id))).kind).toBe('not-found');
    expect((await rejection(getOwn(deps, paidUser, 'missing'))).kind).toBe('not-found');
  });

  it('lists the whole owner library newest first, across pages, up to the most one answer holds', async () => {
    const { deps, clock } = setup();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      ids.push((await startGeneration(deps, freeUser, freePlan, text())).id);
      clock.advance(1000);
    }
    await startGeneration(deps, paidUser, basicPlan, text());
    const newestFirst = [...ids].reverse();

    const all = await listLibrary(deps, freeUser, { pageSize: 2 });
    expect(all.map((g) => g.id)).toEqual(newestFirst);
    expect((await listLibrary(deps, freeUser, { pageSize: 2, max: 3 })).map((g) => g.id)).toEqual(
      newestFirst.slice(0, 3),
    );
    expect(LIBRARY_MAX).toBeGreaterThanOrEqual(1000);
  });

  it('reports the week usage and reset time', async () => {
    const { deps } = setup();
    await startGeneration(deps, freeUser, freePlan, text());
    await startGeneration(deps, freeUser, freePlan, text());
    expect(await quotaStatus(deps, freeUser, freePlan)).toEqual({
      used: 2,
      limit: 5,
      resetsAt: '2026-11-23T00:00:00.000Z',
    });
  });
});

describe('entitlementsFor', () => {
  const now = new Date('2026-11-18T12:00:00.000Z');
  it('treats an active paid plan as paid and the Free plan as free', () => {
    expect(entitlementsFor(paidUser, basicPlan, now)).toEqual({
      paid: true,
      weeklyLimit: 30,
      canPrivate: true,
      canDownload: true,
    });
    expect(entitlementsFor(freeUser, freePlan, now)).toMatchObject({ paid: false, weeklyLimit: 5 });
  });

  it('keeps a cancelled plan until the end of its period, then falls back to the free quota', () => {
    const cancelled = { planStatus: 'cancelled' as const, planEndDate: '2026-11-20T00:00:00.000Z' };
    expect(entitlementsFor(cancelled, basicPlan, now).paid).toBe(true);
    expect(entitlementsFor(cancelled, basicPlan, new Date('2026-11-21T00:00:00.000Z'))).toMatchObject({
      paid: false,
      weeklyLimit: 5,
      canPrivate: false,
    });
    expect(entitlementsFor({ planStatus: 'inactive', planEndDate: null }, basicPlan, now).paid).toBe(false);
  });
});

describe('a new track’s origin (provenance and license)', () => {
  const personal = {
    commercialUse: false,
    summary: 'Personal, non-commercial use only.',
    termsUrl: `${SITE}/terms#license`,
  };
  const commercial = {
    commercialUse: true,
    summary: 'Commercial use allowed: you may use this track in ads, products and paid content.',
    termsUrl: `${SITE}/terms#license`,
  };
  const starter = { start: async () => undefined };

  it('records text to music on the text endpoint with what the model is asked and no inputs', async () => {
    const { deps } = setup();

    const generation = await startGeneration(
      deps,
      freeUser,
      freePlan,
      text({ lyrics: '[verse]\nla', duration: 45 }),
    );

    expect(generation.origin).toEqual({
      provider: 'fal.ai',
      model: 'ACE-Step',
      endpoint: 'fal-ai/ace-step',
      modelId: 'ace-step',
      modelTerms: 'https://fal.ai/models/fal-ai/ace-step',
      parameters: { tags: 'pop, upbeat', lyrics: '[verse]\nla', duration: 45, instrumental: false },
      inputs: [],
      plan: 'Free',
      license: personal,
    });
    expect((await deps.generations.get(generation.id))?.origin).toEqual(generation.origin);
  });

  it('records a restyle on the audio endpoint with its upload’s hash, or null when it was not hashed', async () => {
    const { deps } = setup();
    const restyle = (uploadSha256?: string): StartGenerationInput => ({
      type: 'audio-to-music',
      tags: 'jazz',
      lyrics: '',
      inputAudioUrl: '/objects/uploads/user-free/a.wav',
      visibility: 'public',
      ...(uploadSha256 ? { uploadSha256 } : {}),
    });

    const hashed = await startGeneration(deps, freeUser, freePlan, restyle('ab'.repeat(32)));
    const unhashed = await startGeneration(deps, freeUser, freePlan, restyle());

    expect(hashed.origin).toMatchObject({
      endpoint: 'fal-ai/ace-step/audio-to-audio',
      parameters: { tags: 'jazz', lyrics: '', duration: null, instrumental: false },
      inputs: [{ kind: 'upload', sha256: 'ab'.repeat(32) }],
    });
    expect(unhashed.origin?.inputs).toEqual([{ kind: 'upload', sha256: null }]);
  });

  it('gives a track the plan in force: Premium’s commercial license while it is paid for', async () => {
    const { deps } = setup();

    const generation = await startGeneration(deps, paidUser, premiumPlan, text());

    expect(generation.origin).toMatchObject({ plan: 'Premium', license: commercial });
    expect(generation.origin?.parameters).toMatchObject({ instrumental: false });
  });

  it('gives a lapsed subscriber the stored Free plan’s terms, not the plan they no longer pay for', async () => {
    const lapsed = {
      id: 'user-lapsed',
      planStatus: 'cancelled' as const,
      planEndDate: '2026-11-01T00:00:00.000Z',
    };
    const generousFree = aPlan({ commercialUse: true });
    const { deps } = setup({ plans: [generousFree, premiumPlan] });

    const generation = await startGeneration(deps, lapsed, premiumPlan, text());
    const withoutPlan = await startGeneration(deps, freeUser, undefined, text());

    // The Free plan's stored switch decides, so an admin's change to it is honoured.
    expect(generation.origin).toMatchObject({ plan: 'Free', license: commercial });
    expect(withoutPlan.origin).toMatchObject({ plan: 'Free', license: commercial });
  });

  it('falls back to the Terms’ Free plan (personal use) when no Free plan is stored', async () => {
    const { deps } = setup({ plans: [basicPlan] });

    const generation = await startGeneration(deps, freeUser, undefined, text());

    expect(generation.origin).toMatchObject({ plan: 'Free', license: personal });
  });

  it('records a studio track with its endpoint, the edit and the parent’s hash as its input', async () => {
    const { deps, generations } = setup();
    const parent = aGeneration({
      id: 'p1',
      userId: paidUser.id,
      duration: 60,
      tags: 'synthwave',
      lyrics: '[verse]\nneon',
      audioSha256: 'cd'.repeat(32),
    });
    generations.all.set(parent.id, parent);
    const make = (input: StudioInput) =>
      createFromTrack({ ...deps, workflow: starter }, paidUser, premiumPlan, 'p1', input);

    const extended = await make({ kind: 'extend', ...extendSchema.parse({ seconds: 20, at: 'start' }) });
    const repainted = await make({
      kind: 'repaint',
      ...repaintSchema.parse({ start: 5, end: 15, variance: 0.7 }),
    });
    const varied = await make({ kind: 'variation' });

    const parentInput = { kind: 'parent', trackId: 'p1', sha256: 'cd'.repeat(32) };
    expect(extended.origin).toMatchObject({
      endpoint: 'fal-ai/ace-step/audio-outpaint',
      parameters: {
        tags: 'synthwave',
        lyrics: '[verse]\nneon',
        duration: 80,
        instrumental: false,
        edit: { kind: 'extend', seconds: 20, at: 'start' },
      },
      inputs: [parentInput],
      plan: 'Premium',
      license: commercial,
    });
    expect(repainted.origin).toMatchObject({
      endpoint: 'fal-ai/ace-step/audio-inpaint',
      parameters: { duration: 60, edit: { kind: 'repaint', start: 5, end: 15, variance: 0.7 } },
      inputs: [parentInput],
    });
    expect(varied.origin).toMatchObject({
      endpoint: 'fal-ai/ace-step',
      parameters: { edit: { kind: 'variation' } },
      inputs: [parentInput],
    });
  });

  it('names a parent not hashed yet with a null hash, and a restyle’s variation also names its upload', async () => {
    const { deps, generations } = setup();
    const parent = aGeneration({
      id: 'p1',
      userId: freeUser.id,
      type: 'audio-to-music',
      inputAudioUrl: '/objects/uploads/user-free/a.wav',
      origin: {
        provider: 'fal.ai',
        model: 'ACE-Step',
        endpoint: 'fal-ai/ace-step/audio-to-audio',
        parameters: {},
        inputs: [{ kind: 'upload', sha256: 'ef'.repeat(32) }],
        plan: 'Free',
        license: personal,
      },
    });
    generations.all.set(parent.id, parent);

    const varied = await createFromTrack({ ...deps, workflow: starter }, freeUser, freePlan, 'p1', {
      kind: 'variation',
    });

    expect(varied.origin).toMatchObject({
      endpoint: 'fal-ai/ace-step/audio-to-audio',
      inputs: [
        { kind: 'parent', trackId: 'p1', sha256: null },
        { kind: 'upload', sha256: 'ef'.repeat(32) },
      ],
    });
  });

  it('keeps the license of the plan it was made on through a downgrade, a rename and completion', async () => {
    const { deps } = setup();
    const made = await startGeneration(deps, paidUser, premiumPlan, text());
    const downgraded = { ...paidUser, planStatus: 'expired' as const };

    await renameOrSetVisibility(deps, downgraded, freePlan, made.id, {
      title: 'Renamed',
      visibility: 'public',
    });
    await markCompleted(deps, made.id, { audioUrl: 's3://tracks/x.wav', duration: 30, seed: 7 });

    const stored = await deps.generations.get(made.id);
    expect(stored?.title).toBe('Renamed');
    expect(stored?.origin).toEqual(made.origin);
    expect(stored?.origin).toMatchObject({ plan: 'Premium', license: commercial });
  });
});

describe('choosing a model (decision 051)', () => {
  const workflow = { start: async () => {} };

  it('records the model every new generation runs, the default when none is asked for', async () => {
    const { deps } = setup();
    expect((await startGeneration(deps, freeUser, freePlan, text())).model).toBe('ace-step');
    const cassette = await startGeneration(
      deps,
      freeUser,
      freePlan,
      text({ model: 'cassetteai', duration: 120 }),
    );
    expect(cassette).toMatchObject({ model: 'cassetteai', duration: 120, instrumental: true, lyrics: '' });
  });

  it("reserves the model's quota cost and gives all of it back when the generation fails", async () => {
    const { deps, quota } = setup();
    const song = await startGeneration(
      deps,
      paidUser,
      basicPlan,
      text({ model: 'minimax-music-2.5', lyrics: '[verse] every word my own' }),
    );
    expect(song).toMatchObject({ model: 'minimax-music-2.5', quotaUnits: 3, duration: null });
    expect(quota.counters.get(paidUser.id)?.used).toBe(3);

    expect((await markFailed(deps, song.id, 'provider error')).refunded).toBe(true);
    expect(quota.counters.get(paidUser.id)?.used).toBe(0);
  });

  it('refuses a model the plan does not offer, or a field it cannot honour, before anything is reserved', async () => {
    const { deps, quota, generations } = setup();
    const offPlan = await rejection(
      startGeneration(deps, freeUser, freePlan, text({ model: 'stable-audio-2.5', duration: 30 })),
    );
    expect(offPlan.message).toBe('Stable Audio 2.5 is in Basic and Premium. Upgrade to use it.');
    const withLyrics = await rejection(
      startGeneration(deps, freeUser, freePlan, text({ model: 'cassetteai', lyrics: 'sing this' })),
    );
    expect(withLyrics.message).toBe('CassetteAI makes instrumentals only: leave the lyrics empty.');
    expect(quota.counters.get(freeUser.id)).toBeUndefined();
    expect(generations.all.size).toBe(0);
  });

  it('follows the settings: a model turned off is refused, a new cost is charged', async () => {
    const { deps, modelSettings, plans, quota } = setup();
    const all = await plans.listBySortOrder();
    const settings = settingsInForce(undefined, all);
    settings.models.cassetteai = { enabled: false, quotaCost: 1, plans: [] };
    settings.models['ace-step'] = { enabled: true, quotaCost: 2, plans: all.map((p) => p.id) };
    await modelSettings.put(settings);

    expect(
      (await rejection(startGeneration(deps, freeUser, freePlan, text({ model: 'cassetteai' })))).message,
    ).toBe('CassetteAI is turned off. Choose another model.');
    await startGeneration(deps, freeUser, freePlan, text());
    expect(quota.counters.get(freeUser.id)?.used).toBe(2);
  });

  it('says when fewer generations are left than the model costs, and reserves nothing', async () => {
    const { deps, quota } = setup();
    const song = text({ model: 'stable-audio-2.5', duration: 30 });
    // Basic allows 30 a week: 28 used leaves 2, and Stable Audio 2.5 costs 4.
    quota.counters.set(paidUser.id, { used: 28, windowStart: '2026-11-16T00:00:00.000Z' });
    const error = await rejection(startGeneration(deps, paidUser, basicPlan, song));
    expect(error.kind).toBe('quota');
    expect(error.message).toBe(
      'Stable Audio 2.5 costs 4 generations and you have 2 generations left this week. Choose another model, or wait until your quota resets on Monday, November 23.',
    );
    expect(quota.counters.get(paidUser.id)?.used).toBe(28);
  });

  it("runs a studio action on the track's own model where it can, and records it with its cost", async () => {
    const { deps, generations, quota } = setup();
    generations.all.set(
      'instrumental',
      aGeneration({
        id: 'instrumental',
        userId: freeUser.id,
        model: 'cassetteai',
        instrumental: true,
        lyrics: '',
        duration: 42,
      }),
    );
    const variation = await createFromTrack({ ...deps, workflow }, freeUser, freePlan, 'instrumental', {
      kind: 'variation',
    });
    expect(variation).toMatchObject({ model: 'cassetteai', duration: 42, quotaUnits: 1 });
    const extended = await createFromTrack({ ...deps, workflow }, freeUser, freePlan, 'instrumental', {
      kind: 'extend',
      ...extendSchema.parse({ seconds: 10 }),
    });
    expect(extended.model).toBe('ace-step');
    expect(quota.counters.get(freeUser.id)?.used).toBe(2);
  });
});

import { type ModelsAnswer, modelsAnswerSchema } from '@tunesmith/shared/model-settings';
import { provenanceSchema } from '@tunesmith/shared/ownership';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { settingsInForce } from '../../domain/models/model-settings';
import type { Generation } from '../../domain/tracks/track';
import { aBasicPlan, aPlan, aPrivateTrack } from '../../testing/fixtures';
import { inMemoryPlans, inMemorySettings } from '../../testing/in-memory';
import { inMemoryGenerationStore } from '../../testing/in-memory-generations';
import { inMemoryCommunity } from '../../testing/in-memory-likes';
import { inMemoryModelSettings } from '../../testing/in-memory-models';
import type { RouteContext } from '../group-handler';
import { catalogRoutes, type ViewerLookup } from './catalog';

const track = aPrivateTrack;

/** The gallery's sorts, likes and creators' names over the same tracks. */
function communityOf(generations: Generation[]) {
  const community = inMemoryCommunity(generations);
  return {
    gallery: { index: community.index, clock: { now: () => new Date() } },
    likes: community.likes,
    creators: { names: async () => new Map() },
  };
}

/** A viewer whose session was refreshed on this request: the new cookies must reach the browser. */
const refreshed =
  (id: string): ViewerLookup =>
  async () => ({ user: { id }, cookies: ['ts_session=fresh'] });

function call(
  route: 'getTrack' | 'getTrackProvenance' | 'getTrackAudio' | 'headTrackAudio' | 'listPublicTracks',
  viewer: ViewerLookup,
  generations: Generation[],
  id = 't1',
) {
  const routes = catalogRoutes({
    plans: inMemoryPlans(),
    generations: inMemoryGenerationStore(generations),
    audioLinks: async (stored) => (stored ? `https://signed.test/${stored.slice('s3://'.length)}` : null),
    viewer,
    settings: inMemorySettings(),
    siteName: 'Tunesmith',
    siteOrigin: 'https://tunesmith.test',
    lyrics: { get: async () => undefined },
    modelSettings: inMemoryModelSettings(),
    ...communityOf(generations),
  });
  const handler = routes[route];
  if (!handler) throw new Error(`${route} is not built`);
  return handler({} as APIGatewayProxyEventV2, { params: { id }, cookies: [] } as unknown as RouteContext);
}

const getTrack = (viewer: ViewerLookup, generations: Generation[], id = 't1') =>
  call('getTrack', viewer, generations, id);

describe('getTrack', () => {
  it('shows the owner a private track with a signed link, keeping refreshed session cookies', async () => {
    const res = await getTrack(refreshed('owner'), [track({})]);

    expect(res.statusCode).toBe(200);
    expect(JSON.parse(String(res.body))).toMatchObject({
      id: 't1',
      audioUrl: 'https://signed.test/tracks/tracks/owner/t1.wav',
    });
    expect(res.cookies).toEqual(['ts_session=fresh']);
  });

  it('answers 404 to someone else, still keeping their refreshed session cookies', async () => {
    const res = await getTrack(refreshed('stranger'), [track({})]);

    expect(res.statusCode).toBe(404);
    expect(JSON.parse(String(res.body))).toEqual({ message: 'Track not found' });
    expect(res.cookies).toEqual(['ts_session=fresh']);
  });

  it('shows a public track to a visitor without setting cookies', async () => {
    const res = await getTrack(async () => ({ cookies: [] }), [track({ visibility: 'public' })]);

    expect(res.statusCode).toBe(200);
    expect(res.cookies).toBeUndefined();
  });

  it("names the track's family as far as the viewer may see it", async () => {
    const tracks = [
      track({ visibility: 'public' }),
      track({
        id: 'v1',
        title: 'Take two',
        visibility: 'public',
        parentId: 't1',
        edit: { kind: 'variation' },
        createdAt: '2026-03-02T00:00:00.000Z',
      }),
      track({
        id: 'e1',
        title: 'Longer',
        visibility: 'private',
        parentId: 't1',
        edit: { kind: 'extend', seconds: 10, at: 'end' },
        createdAt: '2026-03-03T00:00:00.000Z',
      }),
    ];

    const owner = JSON.parse(String((await getTrack(refreshed('owner'), tracks)).body));
    const visitor = JSON.parse(String((await getTrack(async () => ({ cookies: [] }), tracks)).body));
    const child = JSON.parse(String((await getTrack(async () => ({ cookies: [] }), tracks, 'v1')).body));

    expect(owner.family).toEqual({
      parent: null,
      children: [
        { id: 'v1', title: 'Take two', kind: 'variation', status: 'completed' },
        { id: 'e1', title: 'Longer', kind: 'extend', status: 'completed' },
      ],
    });
    expect(visitor.family).toEqual({
      parent: null,
      children: [{ id: 'v1', title: 'Take two', kind: 'variation', status: 'completed' }],
    });
    expect(child).toMatchObject({
      parentId: 't1',
      edit: { kind: 'variation' },
      family: { parent: { id: 't1', title: 'Night Drive', deleted: false }, children: [] },
    });
  });

  it('says to the owner that a deleted parent is deleted, names it to no one else, and the child still plays', async () => {
    const orphan = track({ id: 'v1', visibility: 'public', parentId: 'gone', edit: { kind: 'variation' } });

    const owner = JSON.parse(String((await getTrack(refreshed('owner'), [orphan], 'v1')).body));
    const visitor = JSON.parse(String((await getTrack(async () => ({ cookies: [] }), [orphan], 'v1')).body));

    expect(owner).toMatchObject({
      parentId: 'gone',
      family: { parent: { id: 'gone', title: null, deleted: true }, children: [] },
    });
    expect(visitor).toMatchObject({
      audioUrl: 'https://signed.test/tracks/tracks/owner/t1.wav',
      parentId: null,
      family: { parent: null, children: [] },
    });
  });

  it("names a public version's private parent to its owner only", async () => {
    const tracks = [
      track({ id: 'secret' }),
      track({ id: 'v1', visibility: 'public', parentId: 'secret', edit: { kind: 'variation' } }),
    ];

    const owner = JSON.parse(String((await getTrack(refreshed('owner'), tracks, 'v1')).body));
    expect(owner).toMatchObject({ parentId: 'secret', family: { parent: { id: 'secret' } } });
    for (const viewer of [refreshed('stranger'), async () => ({ cookies: [] })] satisfies ViewerLookup[]) {
      const res = await getTrack(viewer, tracks, 'v1');
      expect(res.statusCode).toBe(200);
      expect(JSON.parse(String(res.body))).toMatchObject({ parentId: null, family: { parent: null } });
      expect(String(res.body)).not.toContain('secret');
    }
  });
});

describe('listPublicTracks', () => {
  it('names no parents: a parent may be private, and the track page tells those who may see it', async () => {
    const tracks = [
      track({ id: 'secret', status: 'completed' }),
      track({ id: 'v1', visibility: 'public', parentId: 'secret', edit: { kind: 'variation' } }),
    ];

    const res = await call('listPublicTracks', async () => ({ cookies: [] }), tracks);

    const listed = JSON.parse(String(res.body)) as { id: string; parentId: string | null }[];
    expect(listed.map((t) => [t.id, t.parentId])).toEqual([['v1', null]]);
    expect(String(res.body)).not.toContain('secret');
  });
});

describe('getTrackProvenance', () => {
  const visitor: ViewerLookup = async () => ({ cookies: [] });

  it('answers the owner’s private track’s record, keeping refreshed session cookies, never cached', async () => {
    const res = await call('getTrackProvenance', refreshed('owner'), [track({ seed: 99 })]);

    expect(res.statusCode).toBe(200);
    const record = provenanceSchema.parse(JSON.parse(String(res.body)));
    expect(record).toMatchObject({ trackId: 't1', seed: 99, aiGenerated: true, plan: 'Unknown' });
    expect(record.license.termsUrl).toBe('https://tunesmith.test/terms#license');
    expect(res.cookies).toEqual(['ts_session=fresh']);
    expect(res.headers?.['cache-control']).toBe('no-store');
  });

  it('answers a public track’s record to a visitor', async () => {
    const res = await call('getTrackProvenance', visitor, [track({ visibility: 'public' })]);

    expect(res.statusCode).toBe(200);
    expect(JSON.parse(String(res.body)).trackId).toBe('t1');
  });

  it("names a public version's private parent, and its audio's hash, to the version's owner only", async () => {
    const parentHash = 'cd'.repeat(32);
    const inputs = [{ kind: 'parent' as const, trackId: 'secret', sha256: parentHash }];
    const version = track({
      id: 'v1',
      visibility: 'public',
      parentId: 'secret',
      edit: { kind: 'variation' },
      origin: {
        provider: 'fal.ai',
        model: 'ACE-Step',
        endpoint: 'fal-ai/ace-step',
        parameters: {},
        inputs,
        plan: 'Basic',
        license: {
          commercialUse: false,
          summary: 'Personal',
          termsUrl: 'https://tunesmith.test/terms#license',
        },
      },
    });
    const publicParent = [track({ id: 'secret', visibility: 'public' }), version];
    const privateParent = [track({ id: 'secret' }), version];

    const owner = JSON.parse(
      String((await call('getTrackProvenance', refreshed('owner'), privateParent, 'v1')).body),
    );
    expect(owner).toMatchObject({ parentId: 'secret', inputs });
    for (const viewer of [visitor, refreshed('stranger')]) {
      const hidden = await call('getTrackProvenance', viewer, privateParent, 'v1');
      expect(hidden.statusCode).toBe(200);
      expect(JSON.parse(String(hidden.body))).toMatchObject({
        parentId: null,
        inputs: [{ kind: 'parent', sha256: null }],
      });
      expect(String(hidden.body)).not.toContain('secret');
      expect(String(hidden.body)).not.toContain(parentHash);
      // Once the parent is public, anyone may be told it.
      const shown = await call('getTrackProvenance', viewer, publicParent, 'v1');
      expect(JSON.parse(String(shown.body))).toMatchObject({ parentId: 'secret', inputs });
    }
  });

  it('answers 404 Track not found for someone else’s private track and for an unknown one', async () => {
    const stranger = await call('getTrackProvenance', refreshed('stranger'), [track({})]);
    const unknown = await call('getTrackProvenance', visitor, [track({ visibility: 'public' })], 'nope');

    for (const res of [stranger, unknown]) {
      expect(res.statusCode).toBe(404);
      expect(JSON.parse(String(res.body))).toEqual({ message: 'Track not found' });
    }
    expect(stranger.cookies).toEqual(['ts_session=fresh']);
  });
});

describe('getTrackAudio', () => {
  const visitor: ViewerLookup = async () => ({ cookies: [] });
  const audio = (viewer: ViewerLookup, generations: Generation[], id = 't1') =>
    call('getTrackAudio', viewer, generations, id);

  it('redirects a visitor to a freshly signed link to the audio the player gets, cached for minutes', async () => {
    const res = await audio(visitor, [
      track({ visibility: 'public', streamAudioUrl: 's3://tracks/tracks/t1.opus' }),
    ]);

    expect(res.statusCode).toBe(302);
    expect(res.headers?.location).toBe('https://signed.test/tracks/tracks/t1.opus');
    expect(res.headers?.['cache-control']).toBe('public, max-age=300');
    expect(res.cookies).toBeUndefined();
  });

  it('redirects to the WAV when the track has no compressed copy, whether or not the gallery shows it', async () => {
    const res = await audio(visitor, [track({ visibility: 'public', showInGallery: false })]);

    expect(res.statusCode).toBe(302);
    expect(res.headers?.location).toBe('https://signed.test/tracks/tracks/owner/t1.wav');
  });

  it('redirects the signed-in owner of a private track, keeping their refreshed cookies, never cached', async () => {
    const res = await audio(refreshed('owner'), [track({})]);

    expect(res.statusCode).toBe(302);
    expect(res.headers?.location).toBe('https://signed.test/tracks/tracks/owner/t1.wav');
    expect(res.headers?.['cache-control']).toBe('private, no-store');
    expect(res.cookies).toEqual(['ts_session=fresh']);
  });

  it('answers 404 Track not found for a private, unknown, unfinished or failed track, with no link', async () => {
    const answers = [
      await audio(visitor, [track({})]),
      await audio(refreshed('stranger'), [track({})]),
      await audio(visitor, [track({ visibility: 'public' })], 'nope'),
      await audio(visitor, [track({ visibility: 'public', status: 'generating', audioUrl: null })]),
      await audio(refreshed('owner'), [track({ status: 'pending', audioUrl: null })]),
      await audio(visitor, [track({ visibility: 'public', status: 'failed', audioUrl: null })]),
      await audio(visitor, [track({ visibility: 'public', status: 'completed', audioUrl: null })]),
    ];

    for (const res of answers) {
      expect(res.statusCode).toBe(404);
      expect(JSON.parse(String(res.body))).toEqual({ message: 'Track not found' });
      expect(res.headers?.location).toBeUndefined();
    }
  });

  it('answers a HEAD (a link preview checking the audio) exactly as a GET', async () => {
    const shared = [track({ visibility: 'public', streamAudioUrl: 's3://tracks/tracks/t1.opus' })];
    const hidden = [track({})];
    const cases: [ViewerLookup, Generation[], number][] = [
      [visitor, shared, 302],
      [refreshed('owner'), hidden, 302],
      [visitor, hidden, 404],
      [refreshed('stranger'), hidden, 404],
    ];
    for (const [viewer, generations, status] of cases) {
      const head = await call('headTrackAudio', viewer, generations);
      expect(head.statusCode).toBe(status);
      expect(head).toEqual(await audio(viewer, generations));
    }
  });
});

describe('listModels', () => {
  const free = aPlan();
  const basic = aBasicPlan();
  async function models(viewer: ViewerLookup, settings = inMemoryModelSettings()) {
    const routes = catalogRoutes({
      plans: inMemoryPlans([free, basic]),
      generations: inMemoryGenerationStore([]),
      audioLinks: async () => null,
      viewer,
      settings: inMemorySettings(),
      siteName: 'Tunesmith',
      siteOrigin: 'https://tunesmith.test',
      lyrics: { get: async () => undefined },
      modelSettings: settings,
      ...communityOf([]),
    });
    const res = await routes.listModels?.({} as APIGatewayProxyEventV2, { params: {}, cookies: [] } as never);
    return modelsAnswerSchema.parse(JSON.parse(String(res?.body)));
  }
  const available = (answer: ModelsAnswer) =>
    Object.fromEntries(answer.models.map((m) => [m.id, m.available]));

  it('shows a visitor every model that is on, with its plans and cost, none of them available', async () => {
    const answer = await models(async () => ({ cookies: [] }));
    expect(answer.defaultModel).toBe('ace-step');
    expect(answer.models.map((m) => m.id)).toEqual([
      'ace-step',
      'minimax-music-2',
      'minimax-music-2.5',
      'cassetteai',
      'stable-audio-2.5',
    ]);
    expect(Object.values(available(answer))).toEqual([false, false, false, false, false]);
    const stable = answer.models.find((m) => m.id === 'stable-audio-2.5');
    expect(stable).toMatchObject({ quotaCost: 4, plans: [{ id: basic.id, name: 'Basic' }], studio: [] });
    expect(answer.models[0]?.studio).toEqual(['audio', 'extend', 'repaint']);
  });

  it('tells a user which models their plan offers, and leaves out a model that is off', async () => {
    const onFree = await models(async () => ({ user: { id: 'u1', planStatus: 'free' }, cookies: [] }));
    expect(available(onFree)).toEqual({
      'ace-step': true,
      'minimax-music-2': true,
      'minimax-music-2.5': false,
      cassetteai: true,
      'stable-audio-2.5': false,
    });
    const paying = await models(async () => ({
      user: { id: 'u2', planStatus: 'active', subscriptionPlanId: basic.id },
      cookies: [],
    }));
    expect(Object.values(available(paying)).every(Boolean)).toBe(true);

    const settings = inMemoryModelSettings();
    const doc = settingsInForce(undefined, [free, basic]);
    doc.models.cassetteai = { enabled: false, quotaCost: 1, plans: [free.id] };
    await settings.put(doc);
    const withoutCassette = await models(async () => ({ cookies: [] }), settings);
    expect(withoutCassette.models.map((m) => m.id)).not.toContain('cassetteai');
  });
});

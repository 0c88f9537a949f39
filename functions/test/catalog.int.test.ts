import { randomUUID } from 'node:crypto';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { PUBLIC_TRACKS_PAGE_SIZE } from '@tunesmith/shared/constants';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { dynamoGenerationRepository } from '../src/adapters/dynamo/generation-repository';
import { dynamoPlanRepository } from '../src/adapters/dynamo/plan-repository';
import { keys } from '../src/data/keys';
import type { Plan } from '../src/domain/plans/plan';
import type { Generation } from '../src/domain/tracks/track';
import { signedInUser } from './support/accounts';
import { apiUrl, clientConfig, cloudEnv as env } from './support/run';
import { storage } from './support/storage';

// The public catalogue through the HTTP API (the local API Gateway adapter in
// front of the real handlers, or a deployed stage) against its DynamoDB table.

const tableName = env.TABLE_NAME ?? '';

const base = new DynamoDBClient(clientConfig('dynamodb'));
const documents = DynamoDBDocumentClient.from(base, { marshallOptions: { removeUndefinedValues: true } });
const plans = dynamoPlanRepository(documents, tableName);
const generations = dynamoGenerationRepository(documents, tableName);

/** Items this file put in the table, removed after each test. */
const created: { pk: string; sk: string }[] = [];

afterEach(async () => {
  await Promise.all(
    created.splice(0).map((key) => documents.send(new DeleteCommand({ TableName: tableName, Key: key }))),
  );
});

const buckets = storage();
afterAll(() => {
  base.destroy();
  buckets.close();
});

async function get(path: string): Promise<{ status: number; headers: Headers; body: unknown }> {
  const response = await fetch(`${apiUrl}${path}`);
  return { status: response.status, headers: response.headers, body: await response.json() };
}

async function putGeneration(overrides: Partial<Generation>): Promise<Generation> {
  const createdAt = overrides.createdAt ?? new Date().toISOString();
  const generation: Generation = {
    id: `it-${randomUUID()}`,
    userId: `user-${randomUUID()}`,
    type: 'text-to-music',
    title: 'Integration tune',
    tags: 'lofi, chill',
    lyrics: '[verse]\nla la la',
    duration: 30,
    status: 'completed',
    visibility: 'public',
    showInGallery: true,
    inputAudioUrl: null,
    audioUrl: 'https://example.test/audio.mp3',
    seed: 42,
    falRequestId: 'fal-request-1',
    createdAt,
    updatedAt: createdAt,
    ...overrides,
  };
  created.push(keys.generation(generation.id));
  await generations.put(generation);
  return generation;
}

describe('GET /api/plans', () => {
  it('lists Free, Basic and Premium in that order with the Terms prices and weekly quotas', async () => {
    const response = await get('/api/plans');

    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    const list = response.body as Plan[];
    expect(list.map((plan) => plan.name)).toEqual(['Free', 'Basic', 'Premium']);
    expect(list[0]).toMatchObject({ weeklyPrice: 0, monthlyPrice: 0, yearlyPrice: 0, maxGenerations: 5 });
    expect(list[1]).toMatchObject({
      weeklyPrice: 2.08,
      monthlyPrice: 9,
      yearlyPrice: 90,
      maxGenerations: 30,
    });
    expect(list[2]).toMatchObject({
      weeklyPrice: 4.39,
      monthlyPrice: 19,
      yearlyPrice: 190,
      maxGenerations: 100,
    });
    for (const plan of list) {
      expect(Array.isArray(plan.features)).toBe(true);
      expect(plan.features.length).toBeGreaterThan(0);
      expect(plan.isActive).toBe(true);
    }
    expect(list[0]?.features).toContain('Public sharing only');
    expect(list[2]?.features).toEqual(expect.arrayContaining(['Priority generation', 'Commercial license']));
  });

  it('leaves out a plan once it is made inactive', async () => {
    const now = new Date().toISOString();
    const plan: Plan = {
      id: `it-${randomUUID()}`,
      name: 'Integration Plan',
      description: 'Only for this test.',
      weeklyPrice: 1,
      monthlyPrice: 3,
      yearlyPrice: 30,
      weeklyPriceId: null,
      monthlyPriceId: null,
      yearlyPriceId: null,
      maxGenerations: 10,
      generationsNumber: 10,
      features: ['Testing'],
      isActive: true,
      commercialUse: false,
      stemsFour: true,
      stemsSix: false,
      apiAccess: true,
      sortOrder: 99,
      createdAt: now,
      updatedAt: now,
    };
    created.push(keys.plan(plan.id));
    await plans.put(plan);
    const whileActive = (await get('/api/plans')).body as Plan[];

    await plans.put({ ...plan, isActive: false });
    const afterDeactivation = (await get('/api/plans')).body as Plan[];

    expect(whileActive.map((p) => p.id)).toEqual(['free', 'basic', 'premium', plan.id]);
    expect(afterDeactivation.map((p) => p.id)).toEqual(['free', 'basic', 'premium']);
  });
});

describe('GET /api/public-tracks', () => {
  // Other files of the suite share this table and may add gallery tracks at any
  // time, so these tests judge the tracks they put in and the rules every listed
  // track must meet; an empty gallery is the fresh cloud of the browser journeys.
  it('lists only gallery-visible tracks, newest first, one bounded page', async () => {
    await putGeneration({});
    const response = await get('/api/public-tracks');

    expect(response.status).toBe(200);
    const tracks = response.body as {
      createdAt: string;
      status: string;
      visibility: string;
      showInGallery: boolean;
    }[];
    expect(tracks.length).toBeGreaterThan(0);
    expect(tracks.length).toBeLessThanOrEqual(PUBLIC_TRACKS_PAGE_SIZE);
    for (const track of tracks) {
      expect(track).toMatchObject({ status: 'completed', visibility: 'public', showInGallery: true });
    }
    const times = tracks.map((t) => t.createdAt);
    expect(times).toEqual([...times].sort().reverse());
  });

  it('lists only public, completed, gallery-visible tracks, newest first, without private fields', async () => {
    const minute = 60_000;
    // Dated ahead of now, so the tracks other tests make meanwhile never push these off the gallery's first page.
    const at = (minutesAhead: number) => new Date(Date.now() + minutesAhead * minute).toISOString();
    const older = await putGeneration({ title: 'Older', createdAt: at(50) });
    const newer = await putGeneration({ title: 'Newer', createdAt: at(55) });
    // Newer than both visible ones, so a broken filter would show them first.
    await putGeneration({ visibility: 'private', createdAt: at(59) });
    await putGeneration({ status: 'pending', audioUrl: null, duration: null, seed: null, createdAt: at(59) });
    await putGeneration({ showInGallery: false, createdAt: at(59) });

    const response = await get('/api/public-tracks');

    expect(response.status).toBe(200);
    const tracks = response.body as Record<string, unknown>[];
    const ours = new Set(created.map((key) => key.pk.replace(/^TRACK#/, '')));
    expect(tracks.map((track) => track.id).filter((id) => ours.has(String(id)))).toEqual([
      newer.id,
      older.id,
    ]);
    expect(tracks.find((t) => t.id === newer.id)).toMatchObject({
      title: 'Newer',
      status: 'completed',
      visibility: 'public',
    });
    for (const track of tracks) {
      expect(track).not.toHaveProperty('userId');
      expect(track).not.toHaveProperty('seed');
      expect(track).not.toHaveProperty('falRequestId');
    }
  });
});

describe('GET /api/public-tracks audio', () => {
  it('gives every visitor a playable link to a gallery track’s stored audio', async () => {
    const id = `it-${randomUUID()}`;
    const stored = await buckets.putTrackAudio('gallery-owner', id);
    await putGeneration({ id, audioUrl: stored });

    const tracks = (await get('/api/public-tracks')).body as { id: string; audioUrl: string }[];
    const link = tracks.find((t) => t.id === id)?.audioUrl ?? '';

    expect(link).not.toMatch(/^s3:/);
    const audio = await fetch(link);
    expect(audio.status).toBe(200);
    expect(
      Buffer.from(await audio.arrayBuffer())
        .subarray(0, 4)
        .toString('latin1'),
    ).toBe('RIFF');
  });
});

describe('GET /api/track/{id}', () => {
  it('shows a public track, with playable audio, to a visitor', async () => {
    const id = `it-${randomUUID()}`;
    const track = await putGeneration({ id, audioUrl: await buckets.putTrackAudio('someone', id) });

    const response = await get(`/api/track/${track.id}`);

    expect(response.status).toBe(200);
    const body = response.body as Record<string, unknown>;
    expect(body).toMatchObject({
      id: track.id,
      title: track.title,
      status: 'completed',
      visibility: 'public',
    });
    expect(body).not.toHaveProperty('userId');
    expect((await fetch(String(body.audioUrl))).status).toBe(200);
  });

  it('shows a public track that is still generating, or hidden from the gallery, by its link', async () => {
    const generating = await putGeneration({ status: 'generating', audioUrl: null, duration: null });
    const hidden = await putGeneration({ showInGallery: false });

    expect((await get(`/api/track/${generating.id}`)).body).toMatchObject({
      status: 'generating',
      audioUrl: null,
    });
    expect((await get(`/api/track/${hidden.id}`)).status).toBe(200);
  });

  it('answers 404 for a private track to visitors and other users, and shows it to its owner', async () => {
    const owner = await signedInUser();
    const other = await signedInUser();
    const id = `it-${randomUUID()}`;
    const stored = await buckets.putTrackAudio(owner.id, id);
    await putGeneration({ id, userId: owner.id, visibility: 'private', audioUrl: stored });
    const storedKey = stored.replace(/^s3:\/\/[^/]+\//, '');

    for (const response of [await get(`/api/track/${id}`), await other.browser.get(`/api/track/${id}`)]) {
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ message: 'Track not found' });
      expect(JSON.stringify(response.body)).not.toContain(storedKey);
    }

    const own = await owner.browser.get(`/api/track/${id}`);
    expect(own.status).toBe(200);
    expect(own.body).toMatchObject({ id, visibility: 'private' });
    expect((await fetch(String(own.body.audioUrl))).status).toBe(200);
  });

  it('answers 404 for a track that does not exist', async () => {
    const response = await get(`/api/track/it-${randomUUID()}`);

    expect(response.status).toBe(404);
    expect(response.body).toEqual({ message: 'Track not found' });
  });
});

describe('the API edge', () => {
  it('answers an unknown /api path with 404 JSON', async () => {
    const response = await get('/api/nope');

    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(response.body).toEqual({ message: 'Not found' });
  });

  it('asks for a session before a user route, built or not', async () => {
    const response = await fetch(`${apiUrl}/api/generate-lyrics`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: apiUrl },
      body: JSON.stringify({ prompt: 'a song about tests' }),
    });
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ message: 'Unauthorized' });
  });
});

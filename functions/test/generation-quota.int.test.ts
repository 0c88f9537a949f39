import { randomUUID } from 'node:crypto';
import { DeleteCommand, GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { textToMusicSchema } from '@tunesmith/shared/generations';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { generationToItem } from '../src/adapters/dynamo/generation-repository';
import { dynamoGenerationStore } from '../src/adapters/dynamo/generation-store';
import { dynamoQuotaStore } from '../src/adapters/dynamo/quota-store';
import { keys, tableDesign } from '../src/data/keys';
import type { User } from '../src/domain/accounts/user';
import {
  markCompleted,
  markFailed,
  markGenerating,
  renameOrSetVisibility,
  type StartDeps,
  startGeneration,
} from '../src/domain/generations/generation-service';
import type { Plan } from '../src/domain/plans/plan';
import type { Generation } from '../src/domain/tracks/track';
import { aGeneration, aPlan, aUser as userFixture } from '../src/testing/fixtures';
import { fakeClock } from '../src/testing/in-memory-accounts';
import { inMemoryModelSettings } from '../src/testing/in-memory-models';
import { direct } from './support/direct';

// The quota counter and the generation lifecycle on the real table (DynamoDB
// Local, or a deployed stage's table): the conditional writes are what this proves.

const store = direct();
const { documents, tableName } = store;
const quota = dynamoQuotaStore(documents, tableName);
const generations = dynamoGenerationStore(documents, tableName);

const WEEK_1 = '2026-11-16T00:00:00.000Z';
const WEEK_2 = '2026-11-23T00:00:00.000Z';

const freePlan = aPlan({ id: 'plan-free-it', createdAt: WEEK_1, updatedAt: WEEK_1 });
const basicPlan: Plan = {
  ...freePlan,
  id: 'plan-basic-it',
  name: 'Basic',
  monthlyPrice: 9,
  maxGenerations: 30,
};

const createdUsers: User[] = [];
const createdTracks: string[] = [];

afterEach(async () => {
  await Promise.all([
    ...createdUsers.splice(0).map((user) => store.users.delete(user)),
    ...createdTracks
      .splice(0)
      .map((id) => documents.send(new DeleteCommand({ TableName: tableName, Key: keys.generation(id) }))),
  ]);
});

afterAll(() => store.close());

async function aUser(overrides: Partial<User> = {}): Promise<User> {
  const id = `it-quota-${randomUUID()}`;
  const user = userFixture({
    id,
    firstName: 'Quota',
    lastName: 'Tester',
    createdAt: WEEK_1,
    updatedAt: WEEK_1,
    ...overrides,
  });
  await store.users.create(user);
  createdUsers.push(user);
  return user;
}

async function rawUser(id: string) {
  const out = await documents.send(
    new GetCommand({ TableName: tableName, Key: keys.user(id), ConsistentRead: true }),
  );
  return out.Item ?? {};
}

async function rawTrack(id: string) {
  const out = await documents.send(
    new GetCommand({ TableName: tableName, Key: keys.generation(id), ConsistentRead: true }),
  );
  return out.Item;
}

/** Whether the sparse gallery index holds this track (queried by its exact sort key). */
async function inGallery(g: Pick<Generation, 'id' | 'createdAt'>): Promise<boolean> {
  const gallery = tableDesign.indexes.gallery;
  const out = await documents.send(
    new QueryCommand({
      TableName: tableName,
      IndexName: gallery.indexName,
      KeyConditionExpression: '#pk = :pk AND #sk = :sk',
      ExpressionAttributeNames: { '#pk': gallery.partitionKey, '#sk': gallery.sortKey },
      ExpressionAttributeValues: {
        ':pk': keys.galleryPartition,
        ':sk': keys.gallery(g.createdAt, g.id).gallerySk,
      },
    }),
  );
  return (out.Items ?? []).some((item) => item.id === g.id);
}

function deps(start = '2026-11-18T12:00:00.000Z') {
  const clock = fakeClock(start);
  const value: StartDeps = {
    generations,
    quota,
    clock,
    siteOrigin: 'http://tunesmith.test',
    plans: { listBySortOrder: async () => [freePlan, basicPlan] },
    modelSettings: inMemoryModelSettings(),
    newId: () => {
      const id = `it-gen-${randomUUID()}`;
      createdTracks.push(id);
      return id;
    },
  };
  return { deps: value, clock };
}

const text = (overrides: Record<string, unknown> = {}) => ({
  type: 'text-to-music' as const,
  ...textToMusicSchema.parse({ tags: 'pop, upbeat', ...overrides }),
});

async function aTrack(overrides: Partial<Generation>): Promise<Generation> {
  const g = aGeneration({ id: `it-gen-${randomUUID()}`, ...overrides });
  createdTracks.push(g.id);
  await generations.create(g);
  return g;
}

describe('quota reservation', () => {
  it('accepts exactly 5 of 20 concurrent reservations for a free user', async () => {
    const user = await aUser();

    const results = await Promise.all(
      Array.from({ length: 20 }, () =>
        quota.reserve(user.id, { limit: 5, windowStart: WEEK_1, now: '2026-11-18T12:00:00.000Z' }),
      ),
    );

    const accepted = results.filter((r) => r.ok);
    expect(accepted).toHaveLength(5);
    expect(accepted.map((r) => r.used).sort()).toEqual([1, 2, 3, 4, 5]);
    expect(results.filter((r) => !r.ok).every((r) => !r.ok && r.used === 5 && r.limit === 5)).toBe(true);
    expect(await rawUser(user.id)).toMatchObject({ generationsUsedThisMonth: 5, quotaWindowStart: WEEK_1 });
  });

  it('accepts exactly 5 of 20 concurrent reservations when they all open a new week', async () => {
    const user = await aUser();
    for (let i = 0; i < 5; i++) await quota.reserve(user.id, { limit: 5, windowStart: WEEK_1, now: WEEK_1 });

    const results = await Promise.all(
      Array.from({ length: 20 }, () =>
        quota.reserve(user.id, { limit: 5, windowStart: WEEK_2, now: WEEK_2 }),
      ),
    );

    expect(results.filter((r) => r.ok)).toHaveLength(5);
    expect(await rawUser(user.id)).toMatchObject({ generationsUsedThisMonth: 5, quotaWindowStart: WEEK_2 });
  });

  it('still takes a unit when another request opened the new week between its two attempts', async () => {
    const user = await aUser();
    await quota.reserve(user.id, { limit: 5, windowStart: WEEK_1, now: WEEK_1 });
    // A client that lets a rival reservation open the week just before this one tries to.
    let rivalDone = false;
    const interleaved = {
      send: async (command: { input: { UpdateExpression?: string } }) => {
        if (!rivalDone && command.input.UpdateExpression?.includes('#win = :w')) {
          rivalDone = true;
          await quota.reserve(user.id, { limit: 5, windowStart: WEEK_2, now: WEEK_2 });
        }
        return documents.send(command as never);
      },
    } as unknown as typeof documents;

    const result = await dynamoQuotaStore(interleaved, tableName).reserve(user.id, {
      limit: 5,
      windowStart: WEEK_2,
      now: WEEK_2,
    });

    expect(rivalDone).toBe(true);
    expect(result).toEqual({ ok: true, used: 2 });
    expect(await quota.read(user.id)).toEqual({ used: 2, windowStart: WEEK_2 });
  });

  it('resets the count when a new week starts, also for a profile that never had a window', async () => {
    const user = await aUser({ generationsUsedThisMonth: 3 });

    const first = await quota.reserve(user.id, { limit: 5, windowStart: WEEK_1, now: WEEK_1 });
    for (let i = 0; i < 4; i++) await quota.reserve(user.id, { limit: 5, windowStart: WEEK_1, now: WEEK_1 });
    const sixth = await quota.reserve(user.id, { limit: 5, windowStart: WEEK_1, now: WEEK_1 });
    const nextWeek = await quota.reserve(user.id, { limit: 5, windowStart: WEEK_2, now: WEEK_2 });

    expect(first).toEqual({ ok: true, used: 1 });
    expect(sixth).toEqual({ ok: false, used: 5, limit: 5 });
    expect(nextWeek).toEqual({ ok: true, used: 1 });
    expect(await quota.read(user.id)).toEqual({ used: 1, windowStart: WEEK_2 });
  });

  it('refunds only in the same week and never below zero', async () => {
    const user = await aUser();
    await quota.reserve(user.id, { limit: 5, windowStart: WEEK_2, now: WEEK_2 });

    expect(await quota.refund(user.id, WEEK_1)).toBe(false);
    expect(await quota.refund(user.id, WEEK_2)).toBe(true);
    expect(await quota.refund(user.id, WEEK_2)).toBe(false);
    expect(await quota.read(user.id)).toEqual({ used: 0, windowStart: WEEK_2 });
  });

  it('leaves the rest of the profile alone', async () => {
    const user = await aUser();
    await quota.reserve(user.id, { limit: 5, windowStart: WEEK_1, now: WEEK_1 });
    expect(await store.users.get(user.id)).toEqual({
      ...user,
      generationsUsedThisMonth: 1,
      quotaWindowStart: WEEK_1,
    });
  });
});

describe('generation lifecycle on the table', () => {
  it('refuses the sixth start with a 429-kind error and records only five tracks', async () => {
    const user = await aUser();
    const { deps: d } = deps();

    const results = await Promise.allSettled(
      Array.from({ length: 20 }, () => startGeneration(d, user, freePlan, text())),
    );

    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(5);
    const refused = results.find((r) => r.status === 'rejected');
    expect(refused?.status === 'rejected' && refused.reason).toMatchObject({
      kind: 'quota',
      message: expect.stringContaining('You have used all 5 generations'),
    });
    expect((await generations.listByUser(user.id, { limit: 50 })).items).toHaveLength(5);
  });

  it('gives the unit back on failure exactly once, even when failures race', async () => {
    const user = await aUser();
    const { deps: d } = deps();
    const g = await startGeneration(d, user, freePlan, text());
    await startGeneration(d, user, freePlan, text());
    await markGenerating(d, g.id, { falRequestId: 'req-1' });

    const outcomes = await Promise.all(
      Array.from({ length: 5 }, () => markFailed(d, g.id, 'provider error')),
    );

    expect(outcomes.filter((o) => o.refunded)).toHaveLength(1);
    expect(await quota.read(user.id)).toEqual({ used: 1, windowStart: WEEK_1 });
    expect((await generations.get(g.id))?.status).toBe('failed');
  });

  it('keeps completed and failed final', async () => {
    const user = await aUser();
    const { deps: d } = deps();
    const done = await startGeneration(d, user, freePlan, text());
    const broken = await startGeneration(d, user, freePlan, text());
    await markCompleted(d, done.id, { audioUrl: 'tracks/a.wav', duration: 60, seed: 11 });
    await markFailed(d, broken.id, 'timeout');

    await markFailed(d, done.id, 'late timeout');
    await markCompleted(d, broken.id, { audioUrl: 'tracks/b.wav', duration: 60, seed: 12 });
    await markGenerating(d, done.id);

    expect(await generations.get(done.id)).toMatchObject({
      status: 'completed',
      audioUrl: 'tracks/a.wav',
      seed: 11,
    });
    expect(await generations.get(broken.id)).toMatchObject({ status: 'failed', audioUrl: null });
    expect(await quota.read(user.id)).toEqual({ used: 1, windowStart: WEEK_1 });
  });

  it('puts a track in the gallery only while public, completed and shown', async () => {
    const user = await aUser({ planStatus: 'active' });
    const { deps: d } = deps();
    const g = await startGeneration(d, user, basicPlan, text());
    expect(await inGallery(g)).toBe(false);

    await markGenerating(d, g.id);
    expect(await inGallery(g)).toBe(false);

    await markCompleted(d, g.id, { audioUrl: 'tracks/g.wav', duration: 60, seed: 1 });
    expect(await inGallery(g)).toBe(true);

    await renameOrSetVisibility(d, user, basicPlan, g.id, { title: 'Hidden', visibility: 'private' });
    expect(await inGallery(g)).toBe(false);
    expect(await rawTrack(g.id)).not.toHaveProperty('galleryPk');
    expect(await rawTrack(g.id)).not.toHaveProperty('gallerySk');

    await renameOrSetVisibility(d, user, basicPlan, g.id, { title: 'Shown', visibility: 'public' });
    expect(await inGallery(g)).toBe(true);

    await generations.update(g.id, (current) => ({ ...current, showInGallery: false }));
    expect(await inGallery(g)).toBe(false);
  });

  it('keeps the gallery keys right when changes race', async () => {
    const user = await aUser({ planStatus: 'active' });
    const { deps: d } = deps();
    const g = await startGeneration(d, user, basicPlan, text());

    await Promise.all([
      markCompleted(d, g.id, { audioUrl: 'tracks/r.wav', duration: 60, seed: 5 }),
      renameOrSetVisibility(d, user, basicPlan, g.id, { title: 'Secret', visibility: 'private' }),
    ]);

    expect(await generations.get(g.id)).toMatchObject({ status: 'completed', visibility: 'private' });
    expect(await inGallery(g)).toBe(false);
  });

  it('updates a track written before versioning', async () => {
    const g = aGeneration({ id: `it-gen-${randomUUID()}`, status: 'generating', visibility: 'public' });
    createdTracks.push(g.id);
    await documents.send(new PutCommand({ TableName: tableName, Item: generationToItem(g) }));
    const { deps: d } = deps();

    await markCompleted(d, g.id, { audioUrl: 'tracks/legacy.wav', duration: 42, seed: 9 });

    expect(await rawTrack(g.id)).toMatchObject({ status: 'completed', rev: 1, galleryPk: 'GALLERY' });
  });

  it('refuses to create a second generation with the same id', async () => {
    const g = await aTrack({});
    await expect(generations.create(g)).rejects.toMatchObject({ kind: 'conflict' });
  });
});

describe('library and delete', () => {
  it('lists a user library newest first, page by page, with no cursor after the last page', async () => {
    const userId = `it-owner-${randomUUID()}`;
    const made: Generation[] = [];
    for (let i = 0; i < 5; i++) {
      made.push(await aTrack({ userId, createdAt: `2026-11-18T12:00:0${i}.000Z` }));
    }
    await aTrack({ userId: `it-owner-${randomUUID()}` });
    const newest = made.map((g) => g.id).reverse();

    const first = await generations.listByUser(userId, { limit: 2 });
    const second = await generations.listByUser(userId, { limit: 2, cursor: first.cursor });
    const third = await generations.listByUser(userId, { limit: 2, cursor: second.cursor });
    const exact = await generations.listByUser(userId, { limit: 5 });

    expect(first.items.map((g) => g.id)).toEqual(newest.slice(0, 2));
    expect(second.items.map((g) => g.id)).toEqual(newest.slice(2, 4));
    expect(third.items.map((g) => g.id)).toEqual(newest.slice(4));
    expect(first.cursor).toBeDefined();
    expect(third.cursor).toBeUndefined();
    expect(exact.items).toHaveLength(5);
    expect(exact.cursor).toBeUndefined();
  });

  it('deletes only for the owner', async () => {
    const g = await aTrack({ userId: `it-owner-${randomUUID()}` });

    expect(await generations.delete(g.id, 'someone-else')).toBeUndefined();
    expect(await generations.get(g.id)).toBeDefined();
    expect((await generations.delete(g.id, g.userId))?.id).toBe(g.id);
    expect(await generations.get(g.id)).toBeUndefined();
    expect(await inGallery(g)).toBe(false);
  });
});

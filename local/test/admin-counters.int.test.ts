import { randomUUID } from 'node:crypto';
import { DeleteTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, ScanCommand } from '@aws-sdk/lib-dynamodb';
import {
  dynamoTrackDirectory,
  dynamoUserDirectory,
} from '@tunesmith/functions/adapters/dynamo/admin-directory';
import { dynamoSiteCounters } from '@tunesmith/functions/adapters/dynamo/counters';
import { dynamoGenerationStore } from '@tunesmith/functions/adapters/dynamo/generation-store';
import { dynamoUserRepository } from '@tunesmith/functions/adapters/dynamo/user-repository';
import { newUser } from '@tunesmith/functions/domain/accounts/user';
import type { Generation } from '@tunesmith/functions/domain/tracks/track';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { seedLoad } from '../../scripts/seed-load';
import { ensureTable } from '../src/provision';

// The dashboard's counters against DynamoDB Local, in a table of their own so
// that nothing else writes to it: after any mix of writes, concurrent ones
// included, the counters equal a recount of the items.

const env = inject('cloudEnv');
const tableName = `counters-${randomUUID().slice(0, 8)}`;
const seededTable = `seeded-${randomUUID().slice(0, 8)}`;
const base = new DynamoDBClient({
  region: env.AWS_REGION ?? 'us-east-1',
  endpoint: env.DYNAMODB_ENDPOINT ?? '',
  credentials: { accessKeyId: 'x', secretAccessKey: 'x' },
});
const documents = DynamoDBDocumentClient.from(base, { marshallOptions: { removeUndefinedValues: true } });
const users = dynamoUserRepository(documents, tableName);
const generations = dynamoGenerationStore(documents, tableName);
const counters = dynamoSiteCounters(documents, tableName);

beforeAll(async () => {
  if (inject('isLocal')) await Promise.all([ensureTable(base, tableName), ensureTable(base, seededTable)]);
});
afterAll(async () => {
  if (inject('isLocal')) {
    await Promise.all(
      [tableName, seededTable].map((TableName) => base.send(new DeleteTableCommand({ TableName }))),
    );
  }
  base.destroy();
});

function aTrack(userId: string, overrides: Partial<Generation> = {}): Generation {
  const now = new Date().toISOString();
  return {
    id: randomUUID(),
    userId,
    type: 'text-to-music',
    title: null,
    tags: 'pop',
    lyrics: null,
    duration: 10,
    status: 'completed',
    visibility: 'public',
    showInGallery: true,
    inputAudioUrl: null,
    audioUrl: null,
    seed: null,
    falRequestId: null,
    createdAt: now,
    updatedAt: now,
    ...overrides,
  };
}

async function recount(table = tableName) {
  const out = await documents.send(new ScanCommand({ TableName: table, ConsistentRead: true }));
  const items = out.Items ?? [];
  const tracks = items.filter((i) => i.entity === 'generation');
  const isPublic = (i: Record<string, unknown>) => i.visibility === 'public';
  return {
    users: items.filter((i) => i.entity === 'user').length,
    tracks: tracks.length,
    publicTracks: tracks.filter(isPublic).length,
    privateTracks: tracks.filter((i) => !isPublic(i)).length,
    hiddenPublicTracks: tracks.filter((i) => isPublic(i) && i.showInGallery === false).length,
  };
}

describe.skipIf(!inject('isLocal'))('site counters', () => {
  it('equal a recount after creates, changes and deletes, concurrent ones included', async () => {
    const stamp = new Date().toISOString();
    const people = Array.from({ length: 6 }, (_, i) =>
      newUser(
        { id: randomUUID(), email: `p${i}-${randomUUID()}@example.com`, firstName: 'P', lastName: `${i}` },
        stamp,
      ),
    );
    await Promise.all(people.map((person) => users.create(person)));
    const tracks = people.flatMap((person, i) => [
      aTrack(person.id),
      aTrack(person.id, { visibility: i % 2 ? 'private' : 'public', type: 'audio-to-music' }),
    ]);
    await Promise.all(tracks.map((track) => generations.create(track)));

    // Concurrent changes: hide some, make some private, rename (no count change), delete a few.
    await Promise.all([
      ...tracks.slice(0, 4).map((t) => generations.update(t.id, (g) => ({ ...g, showInGallery: false }))),
      ...tracks.slice(4, 7).map((t) => generations.update(t.id, (g) => ({ ...g, visibility: 'private' }))),
      ...tracks.slice(7, 9).map((t) => generations.update(t.id, (g) => ({ ...g, title: 'Renamed' }))),
      ...tracks.slice(9, 11).map((t) => generations.delete(t.id, t.userId)),
    ]);
    // A repeated delete changes nothing.
    await generations.delete(tracks[9]?.id ?? '', tracks[9]?.userId ?? '');
    const gone = people[0] as (typeof people)[number];
    await users.delete(gone);
    await users.delete(gone);

    expect(await counters.totals()).toEqual(await recount());
    expect((await recount()).hiddenPublicTracks).toBeGreaterThan(0);
    const today = await counters.day(stamp.slice(0, 10));
    expect(today).toEqual({ newUsers: 6, generations: 12, textToMusic: 6, audioToMusic: 6 });
  });
});

describe.skipIf(!inject('isLocal'))('the load seeder (npm run seed:load, the bench)', () => {
  it('writes users and tracks the adapters read back, with counters equal to a recount', async () => {
    const now = new Date('2026-06-15T12:00:00.000Z');
    const totals = await seedLoad(documents, seededTable, { users: 30, tracks: 120, now });
    // No playlists were asked for (`--playlists`); the site's counters hold none of them.
    const { playlists, seededTracks, ...counted } = totals;
    expect(playlists).toBe(0);
    expect(seededTracks).toHaveLength(120);
    expect(counted).toEqual(await recount(seededTable));
    expect(totals).toMatchObject({ users: 30, tracks: 120 });
    expect(await dynamoSiteCounters(documents, seededTable).totals()).toEqual(counted);

    // Users: newest first, found by the start of their email, and each a valid profile with its claim.
    const directory = dynamoUserDirectory(documents, seededTable);
    const firstPage = await directory.list({ limit: 10 });
    expect(firstPage.items).toHaveLength(10);
    expect(firstPage.cursor).toBeDefined();
    const newest = firstPage.items[0] as (typeof firstPage.items)[number];
    expect(firstPage.items.every((u) => u.createdAt <= newest.createdAt)).toBe(true);
    const found = await directory.search(newest.email.slice(0, 14), { limit: 50 });
    expect(found.items.map((u) => u.id)).toContain(newest.id);
    const repository = dynamoUserRepository(documents, seededTable);
    expect((await repository.findByEmail(newest.email))?.id).toBe(newest.id);

    // Tracks: filtered on the server as the admin list asks.
    const failed = await dynamoTrackDirectory(documents, seededTable).list(
      { status: 'failed' },
      { limit: 100 },
    );
    expect(failed.items.length).toBeGreaterThan(0);
    expect(failed.items.every((t) => t.status === 'failed' && t.audioUrl === null)).toBe(true);
  });
});

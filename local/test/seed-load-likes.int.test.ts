import { randomUUID } from 'node:crypto';
import { DeleteTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { dynamoGalleryIndex } from '@tunesmith/functions/adapters/dynamo/like-store';
import { galleryPage, utcDayOf } from '@tunesmith/functions/domain/community/likes';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { seedLoad } from '../../scripts/seed-load';
import { seedLikesAndPlays } from '../../scripts/seed-load-likes';
import { ensureTable } from '../src/provision';

// The likes-and-plays step of `npm run seed:load`, at a small size in a table of its own: what it
// writes agrees with itself the way the like and play stores keep it (counts, ranks, records).

const env = inject('cloudEnv');
const tableName = `seed-likes-${randomUUID().slice(0, 8)}`;
const base = new DynamoDBClient({
  region: env.AWS_REGION ?? 'us-east-1',
  endpoint: env.DYNAMODB_ENDPOINT ?? '',
  credentials: { accessKeyId: 'x', secretAccessKey: 'x' },
});
const documents = DynamoDBDocumentClient.from(base, { marshallOptions: { removeUndefinedValues: true } });

beforeAll(async () => {
  if (inject('isLocal')) await ensureTable(base, tableName);
});
afterAll(async () => {
  if (inject('isLocal')) await base.send(new DeleteTableCommand({ TableName: tableName }));
  base.destroy();
});

async function everything(): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const out = await documents.send(new ScanCommand({ TableName: tableName, ExclusiveStartKey: start }));
    items.push(...(out.Items ?? []));
    start = out.LastEvaluatedKey;
  } while (start);
  return items;
}

describe.runIf(inject('isLocal'))('seed:load, likes and plays', () => {
  it('tops up the listed tracks and spreads likes and plays with matching counts and ranks', async () => {
    const now = new Date();
    await seedLoad(documents, tableName, { users: 5, tracks: 30, now });
    const seeded = await seedLikesAndPlays(documents, tableName, {
      publicTracks: 50,
      likes: 400,
      plays: 120,
      now,
    });
    expect(seeded).toEqual({ listed: 50, likes: 400, plays: 120 });

    const items = await everything();
    const tracks = items.filter((i) => i.entity === 'generation' && i.galleryPk);
    expect(tracks).toHaveLength(50);
    const likes = items.filter((i) => i.entity === 'like');
    expect(new Set(likes.map((l) => `${l.userId}|${l.trackId}`)).size).toBe(400);
    const sum = (name: string) => tracks.reduce((total, t) => total + Number(t[name] ?? 0), 0);
    expect([sum('likes'), sum('plays')]).toEqual([400, 120]);
    for (const t of tracks) {
      expect(Number(t.likes ?? 0)).toBe(likes.filter((l) => l.trackId === t.id).length);
    }

    // Most played answers in the order of the tracks' counts; this week's ranking, likes of the last 7 days.
    const gallery = { index: dynamoGalleryIndex(documents, tableName), clock: { now: () => now } };
    const mostPlayed = await galleryPage(gallery, { sort: 'most-played', limit: 50 });
    const plays = mostPlayed.generations.map((g) => g.plays ?? 0);
    expect(plays).toEqual([...plays].sort((a, b) => b - a));
    expect(plays.reduce((a, b) => a + b, 0)).toBe(120);

    const weekStart = Date.parse(`${utcDayOf(now)}T00:00:00.000Z`) - 6 * 86_400_000;
    const thisWeek = new Map<string, number>();
    for (const l of likes.filter((l) => Date.parse(String(l.likedAt).slice(0, 10)) >= weekStart)) {
      thisWeek.set(String(l.trackId), (thisWeek.get(String(l.trackId)) ?? 0) + 1);
    }
    const topWeek = await galleryPage(gallery, { sort: 'top-week', limit: 50 });
    expect(new Set(topWeek.generations.map((g) => g.id))).toEqual(new Set(thisWeek.keys()));
    const scores = topWeek.generations.map((g) => thisWeek.get(g.id) ?? 0);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
  });
});

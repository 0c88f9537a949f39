/**
 * The `seed:load` step for likes and plays (decision 057): tops the listed tracks up to
 * `publicTracks`, then writes `likes` likes and `plays` counted plays spread over them, shaped as
 * the like and play stores write them: the records, each track's `likes`/`plays`, its most-played
 * rank and the top-week ranks of every 7-day window still to be read. Likers and listeners are ids
 * only (no accounts), as a like names nothing else of its user.
 */
import { randomUUID } from 'node:crypto';
import { type DynamoDBDocumentClient, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { generationToItem } from '../functions/src/adapters/dynamo/generation-repository';
import { likeKeys } from '../functions/src/data/community-keys';
import { keys, tableDesign } from '../functions/src/data/keys';
import { utcDayOf, weeksCounting } from '../functions/src/domain/community/likes';
import type { Generation } from '../functions/src/domain/tracks/track';
import { batchWrite } from './batch-write';

const PARALLEL = 8;
const DAY_MS = 86_400_000;
/** Each liker likes this many tracks (fewer when there are fewer tracks): the likers are ids only. */
const LIKES_PER_LIKER = 100;
/** Likes are dated over this many days before now, so about a quarter count in this week's ranking. */
const LIKE_DAYS = 28;

export interface CommunitySeedOptions {
  /** Listed tracks to have in all: the step adds what the gallery lacks. */
  publicTracks: number;
  likes: number;
  plays: number;
  now?: Date;
  onProgress?: (step: string, done: number, total: number) => void;
}

async function inParallel<T>(list: T[], run: (item: T) => Promise<void>, progress: (done: number) => void) {
  let next = 0;
  let done = 0;
  const worker = async () => {
    while (next < list.length) {
      const item = list[next++] as T;
      await run(item);
      progress(++done);
    }
  };
  await Promise.all(Array.from({ length: PARALLEL * 2 }, worker));
}

/** The ids of the listed tracks, from the gallery index. */
async function listedTrackIds(documents: DynamoDBDocumentClient, tableName: string): Promise<string[]> {
  const gallery = tableDesign.indexes.gallery;
  const ids: string[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const out = await documents.send(
      new QueryCommand({
        TableName: tableName,
        IndexName: gallery.indexName,
        KeyConditionExpression: '#pk = :pk',
        ExpressionAttributeNames: { '#pk': gallery.partitionKey, '#id': 'id' },
        ExpressionAttributeValues: { ':pk': keys.galleryPartition },
        ProjectionExpression: '#id',
        ExclusiveStartKey: start,
      }),
    );
    for (const item of out.Items ?? []) ids.push(String(item.id));
    start = out.LastEvaluatedKey;
  } while (start);
  return ids;
}

/** Seeds listed tracks, likes and plays; returns what the table then holds of them. */
export async function seedLikesAndPlays(
  documents: DynamoDBDocumentClient,
  tableName: string,
  { publicTracks, likes: likeCount, plays: playCount, now = new Date(), onProgress }: CommunitySeedOptions,
): Promise<{ listed: number; likes: number; plays: number }> {
  const run = randomUUID().slice(0, 8);
  const report = (step: string, total: number) => (done: number) => onProgress?.(step, done, total);

  const ids = await listedTrackIds(documents, tableName);
  const added: Generation[] = [];
  for (let i = ids.length; i < publicTracks; i++) {
    const id = randomUUID();
    const at = new Date(
      now.getTime() - Math.floor(((publicTracks - i) / publicTracks) * 365 * DAY_MS),
    ).toISOString();
    const owner = `load-${run}-owner-${i % 1000}`;
    added.push({
      id,
      userId: owner,
      type: 'text-to-music',
      title: `Public track ${i}`,
      tags: 'pop, synthwave',
      lyrics: null,
      duration: 30 + (i % 8) * 30,
      status: 'completed',
      visibility: 'public',
      showInGallery: true,
      inputAudioUrl: null,
      audioUrl: `s3://tunesmith-tracks/tracks/${owner}/${id}.wav`,
      seed: i,
      falRequestId: null,
      createdAt: at,
      updatedAt: at,
    });
  }
  await batchWrite(documents, tableName, added.map(generationToItem), report('tracks', added.length));
  ids.push(...added.map((g) => g.id));
  if (ids.length === 0) return { listed: 0, likes: 0, plays: 0 };

  const today = utcDayOf(now);
  const likesOf = new Map<string, number>();
  const weekScores = new Map<string, number>();
  const likeItems: Record<string, unknown>[] = [];
  const perLiker = Math.min(LIKES_PER_LIKER, ids.length);
  const likers = Math.max(1, Math.ceil(likeCount / perLiker));
  for (let j = 0; j < likeCount; j++) {
    const liker = j % likers;
    const nth = Math.floor(j / likers);
    // One liker's likes are of `perLiker` tracks in a row (from a place of their own): all different.
    const trackId = ids[(nth + liker * 31) % ids.length] as string;
    const userId = `load-${run}-liker-${liker}`;
    const likedAt = new Date(now.getTime() - ((j * 7_777_777) % (LIKE_DAYS * DAY_MS))).toISOString();
    likeItems.push({
      ...likeKeys.like(userId, trackId),
      ...likeKeys.likedByUser(userId, likedAt, trackId),
      entity: 'like',
      userId,
      trackId,
      likedAt,
    });
    likesOf.set(trackId, (likesOf.get(trackId) ?? 0) + 1);
    for (const lastDay of weeksCounting(likedAt.slice(0, 10)).filter((day) => day >= today)) {
      const key = `${trackId}|${lastDay}`;
      weekScores.set(key, (weekScores.get(key) ?? 0) + 1);
    }
  }
  await batchWrite(documents, tableName, likeItems, report('likes', likeItems.length));

  const playsOf = new Map<string, number>();
  const playItems: Record<string, unknown>[] = [];
  for (let j = 0; j < playCount; j++) {
    // Skewed towards the first tracks, as listening is.
    const trackId = ids[Math.floor(ids.length * ((j * 0.618034) % 1) ** 2)] as string;
    const userId = `load-${run}-listener-${j}`;
    const day = utcDayOf(new Date(now.getTime() - (j % 30) * DAY_MS));
    const listener = `u#${userId}`;
    playItems.push({
      ...likeKeys.play(trackId, day, listener),
      ...likeKeys.playedByUser(userId, day, trackId),
      entity: 'play',
      trackId,
      day,
      listener,
      userId,
      at: `${day}T12:00:00.000Z`,
    });
    playsOf.set(trackId, (playsOf.get(trackId) ?? 0) + 1);
  }
  await batchWrite(documents, tableName, playItems, report('plays', playItems.length));

  const ranking = tableDesign.indexes.ranking;
  const rankItems: Record<string, unknown>[] = [
    ...[...playsOf].map(([trackId, score]) => ({
      ...likeKeys.playsRank(trackId),
      [ranking.partitionKey]: likeKeys.mostPlayedPartition,
      [ranking.sortKey]: score,
      trackId,
      entity: 'rank',
    })),
    ...[...weekScores].map(([key, score]) => {
      const [trackId = '', lastDay = ''] = key.split('|');
      return {
        ...likeKeys.weekRank(trackId, lastDay),
        [ranking.partitionKey]: likeKeys.topWeekPartition(lastDay),
        [ranking.sortKey]: score,
        trackId,
        entity: 'rank',
        expiresAt: Math.floor(Date.parse(`${lastDay}T00:00:00.000Z`) / 1000) + 2 * 86_400,
      };
    }),
  ];
  await batchWrite(documents, tableName, rankItems, report('ranks', rankItems.length));

  // The counters move as the stores move them: ADD on the track item.
  const counted = [...new Set([...likesOf.keys(), ...playsOf.keys()])];
  await inParallel(
    counted,
    async (trackId) => {
      await documents.send(
        new UpdateCommand({
          TableName: tableName,
          Key: keys.generation(trackId),
          UpdateExpression: 'ADD likes :l, plays :p',
          ExpressionAttributeValues: { ':l': likesOf.get(trackId) ?? 0, ':p': playsOf.get(trackId) ?? 0 },
        }),
      );
    },
    report('counters', counted.length),
  );
  return { listed: ids.length, likes: likeItems.length, plays: playItems.length };
}

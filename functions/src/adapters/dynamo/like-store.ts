import {
  BatchGetCommand,
  DeleteCommand,
  type DynamoDBDocumentClient,
  GetCommand,
  QueryCommand,
  type TransactWriteCommandInput,
} from '@aws-sdk/lib-dynamodb';
import type { GallerySort } from '@tunesmith/shared/community';
import * as z from 'zod/mini';
import { likeKeys } from '../../data/community-keys';
import { keys, tableDesign } from '../../data/keys';
import type {
  GalleryIndex,
  IndexEntry,
  LikeStore,
  Listener,
  PlayStore,
  TrackReader,
} from '../../domain/community/likes';
import { utcDayOf, weeksCounting } from '../../domain/community/likes';
import { validationError } from '../../domain/errors';
import { CURSOR_INVALID, type Generation } from '../../domain/tracks/track';
import { decodeCursor, encodeCursor } from './client';
import { isConditionFailure, isTransactionConflict } from './conditions';
import { generationFromItem } from './generation-repository';
import { transactWrite } from './transact';

type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

const DAY_S = 86_400;
const BATCH_GET_MAX = 100;
const byOwner = tableDesign.indexes.byOwner;
const gallery = tableDesign.indexes.gallery;
const ranking = tableDesign.indexes.ranking;

/**
 * A transaction on a popular track's counter loses often to its neighbours; it is tried again for
 * longer than `transactWrite` alone would, so a burst of likes is counted, not refused.
 */
async function transactPatiently(client: DynamoDBDocumentClient, items: TransactItem[]): Promise<void> {
  for (let round = 1; ; round++) {
    try {
      await transactWrite(client, items);
      return;
    } catch (error) {
      if (round >= 6 || !isTransactionConflict(error)) throw error;
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 200 * round));
    }
  }
}

/** Which items of a cancelled transaction failed their condition (by position). */
const failedConditions = (error: unknown): number[] =>
  ((error as { CancellationReasons?: { Code?: string }[] }).CancellationReasons ?? []).flatMap((r, i) =>
    r.Code === 'ConditionalCheckFailed' ? [i] : [],
  );

const epochSeconds = (day: string) => Math.floor(Date.parse(`${day}T00:00:00.000Z`) / 1000);

/** Moves a track's counter; the track must still exist (an ADD would otherwise make a stray item). */
const trackCounter = (tableName: string, trackId: string, counter: 'likes' | 'plays', by: number) => ({
  Update: {
    TableName: tableName,
    Key: keys.generation(trackId),
    UpdateExpression: 'ADD #c :by',
    ConditionExpression: 'attribute_exists(pk)',
    ExpressionAttributeNames: { '#c': counter },
    ExpressionAttributeValues: { ':by': by },
  },
});

/** Moves a rank item's score, placing it in its ranking partition (created by the first ADD). */
const rankMove = (
  tableName: string,
  key: { pk: string; sk: string },
  partition: string,
  trackId: string,
  by: number,
  expiresAt?: number,
) => ({
  Update: {
    TableName: tableName,
    Key: key,
    UpdateExpression: `SET #rp = :rp, trackId = :t, entity = :e${expiresAt ? ', expiresAt = :x' : ''} ADD #rs :by`,
    ExpressionAttributeNames: { '#rp': ranking.partitionKey, '#rs': ranking.sortKey },
    ExpressionAttributeValues: {
      ':rp': partition,
      ':t': trackId,
      ':e': 'rank',
      ':by': by,
      ...(expiresAt ? { ':x': expiresAt } : {}),
    },
  },
});

/**
 * The week rankings a like on `likedOn` counts in, from `today` on: the windows that ended before
 * today are read by no one and are left to expire.
 */
function weekMoves(tableName: string, trackId: string, likedOn: string, today: string, by: number) {
  return weeksCounting(likedOn)
    .filter((lastDay) => lastDay >= today)
    .map((lastDay) =>
      rankMove(
        tableName,
        likeKeys.weekRank(trackId, lastDay),
        likeKeys.topWeekPartition(lastDay),
        trackId,
        by,
        // A day after its window closes, so a cursor handed out on its last day still reads.
        epochSeconds(lastDay) + 2 * DAY_S,
      ),
    );
}

/** Pages through an index partition of the user's, in full, for account deletion. */
async function* everyItem(client: DynamoDBDocumentClient, tableName: string, partition: string) {
  let start: Record<string, unknown> | undefined;
  do {
    const out = await client.send(
      new QueryCommand({
        TableName: tableName,
        IndexName: byOwner.indexName,
        KeyConditionExpression: '#pk = :pk',
        ExpressionAttributeNames: { '#pk': byOwner.partitionKey },
        ExpressionAttributeValues: { ':pk': partition },
        ExclusiveStartKey: start,
      }),
    );
    for (const item of out.Items ?? []) yield item;
    start = out.LastEvaluatedKey;
  } while (start);
}

const likeItemSchema = z.object({ trackId: z.string(), likedAt: z.string() });

/** Likes (decision 057): one item per user and track, counted on the track in the same transaction. */
export function dynamoLikeStore(client: DynamoDBDocumentClient, tableName: string): LikeStore {
  const today = () => utcDayOf(new Date());

  /** Deletes the like (as read) and takes it out of the counts; false when it was gone already. */
  const remove = async (userId: string, like: { trackId: string; likedAt: string }): Promise<boolean> => {
    const deleteLike = {
      Delete: {
        TableName: tableName,
        Key: likeKeys.like(userId, like.trackId),
        ConditionExpression: 'likedAt = :at',
        ExpressionAttributeValues: { ':at': like.likedAt },
      },
    };
    try {
      await transactPatiently(client, [
        deleteLike,
        trackCounter(tableName, like.trackId, 'likes', -1),
        ...weekMoves(tableName, like.trackId, like.likedAt.slice(0, 10), today(), -1),
      ]);
      return true;
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
      const failed = failedConditions(error);
      if (failed.includes(0)) return false;
      // The track is gone: there is no count left to correct, only the like to remove.
      try {
        await client.send(new DeleteCommand(deleteLike.Delete));
        return true;
      } catch (again) {
        if (isConditionFailure(again)) return false;
        throw again;
      }
    }
  };

  return {
    async like(userId, trackId, at) {
      try {
        await transactPatiently(client, [
          {
            Put: {
              TableName: tableName,
              Item: {
                ...likeKeys.like(userId, trackId),
                ...likeKeys.likedByUser(userId, at, trackId),
                entity: 'like',
                userId,
                trackId,
                likedAt: at,
              },
              ConditionExpression: 'attribute_not_exists(pk)',
            },
          },
          trackCounter(tableName, trackId, 'likes', 1),
          ...weekMoves(tableName, trackId, at.slice(0, 10), at.slice(0, 10), 1),
        ]);
        return true;
      } catch (error) {
        if (isConditionFailure(error) && failedConditions(error).includes(0)) return false;
        throw error;
      }
    },

    async unlike(userId, trackId) {
      const out = await client.send(
        new GetCommand({ TableName: tableName, Key: likeKeys.like(userId, trackId), ConsistentRead: true }),
      );
      if (!out.Item) return false;
      return remove(userId, likeItemSchema.parse(out.Item));
    },

    async likedAmong(userId, trackIds) {
      const items = await batchGet(
        client,
        tableName,
        [...new Set(trackIds)].map((id) => likeKeys.like(userId, id)),
      );
      return new Set(items.map((item) => String(item.trackId)));
    },

    async listByUser(userId, { limit, cursor }) {
      const start = decodeCursor(cursor);
      if (cursor && start?.[byOwner.partitionKey] !== likeKeys.likedByUserPartition(userId)) {
        throw validationError(CURSOR_INVALID);
      }
      const out = await client.send(
        new QueryCommand({
          TableName: tableName,
          IndexName: byOwner.indexName,
          KeyConditionExpression: '#pk = :pk',
          ExpressionAttributeNames: { '#pk': byOwner.partitionKey },
          ExpressionAttributeValues: { ':pk': likeKeys.likedByUserPartition(userId) },
          ScanIndexForward: false,
          Limit: limit + 1,
          ExclusiveStartKey: start,
        }),
      );
      const raw = out.Items ?? [];
      const page = raw.slice(0, limit);
      const last = page.at(-1);
      const more = raw.length > limit;
      return {
        items: page.map((item) => likeItemSchema.parse(item)),
        ...(more && last
          ? {
              cursor: encodeCursor({
                pk: last.pk,
                sk: last.sk,
                [byOwner.partitionKey]: last[byOwner.partitionKey],
                [byOwner.sortKey]: last[byOwner.sortKey],
              }),
            }
          : {}),
      };
    },

    async removeAllOf(userId) {
      for await (const item of everyItem(client, tableName, likeKeys.likedByUserPartition(userId))) {
        await remove(userId, likeItemSchema.parse(item));
      }
    },
  };
}

const listenerKey = (listener: Listener) =>
  listener.kind === 'user' ? `u#${listener.userId}` : `v#${listener.id}`;

const playItemSchema = z.object({ trackId: z.string(), day: z.string(), listener: z.string() });

/**
 * Counted plays (decision 057): one item per listener, track and UTC day, put on condition with the
 * track's `ADD plays` and its most-played rank. A user's are kept (and findable) so deleting the account
 * takes them back out; a visitor's expire once their day is over.
 */
export function dynamoPlayStore(client: DynamoDBDocumentClient, tableName: string): PlayStore {
  return {
    async record(trackId, listener, day, at) {
      const key = listenerKey(listener);
      try {
        await transactPatiently(client, [
          {
            Put: {
              TableName: tableName,
              Item: {
                ...likeKeys.play(trackId, day, key),
                entity: 'play',
                trackId,
                day,
                listener: key,
                at,
                ...(listener.kind === 'user'
                  ? { userId: listener.userId, ...likeKeys.playedByUser(listener.userId, day, trackId) }
                  : { expiresAt: epochSeconds(day) + 2 * DAY_S }),
              },
              ConditionExpression: 'attribute_not_exists(pk)',
            },
          },
          trackCounter(tableName, trackId, 'plays', 1),
          rankMove(tableName, likeKeys.playsRank(trackId), likeKeys.mostPlayedPartition, trackId, 1),
        ]);
        return true;
      } catch (error) {
        if (isConditionFailure(error) && failedConditions(error).includes(0)) return false;
        throw error;
      }
    },

    async removeAllOf(userId) {
      for await (const item of everyItem(client, tableName, likeKeys.playedByUserPartition(userId))) {
        const play = playItemSchema.parse(item);
        const deletePlay = {
          Delete: {
            TableName: tableName,
            Key: likeKeys.play(play.trackId, play.day, play.listener),
            ConditionExpression: 'attribute_exists(pk)',
          },
        };
        try {
          await transactPatiently(client, [
            deletePlay,
            trackCounter(tableName, play.trackId, 'plays', -1),
            rankMove(
              tableName,
              likeKeys.playsRank(play.trackId),
              likeKeys.mostPlayedPartition,
              play.trackId,
              -1,
            ),
          ]);
        } catch (error) {
          if (!isConditionFailure(error)) throw error;
          if (failedConditions(error).includes(0)) continue;
          // The track is gone with its count: only the record is left to remove.
          await transactPatiently(client, [deletePlay]).catch((again: unknown) => {
            if (!isConditionFailure(again)) throw again;
          });
        }
      }
    },
  };
}

/** Reads items by key in batches of 100, asking again for what DynamoDB leaves unprocessed. */
async function batchGet(
  client: DynamoDBDocumentClient,
  tableName: string,
  keyList: Record<string, unknown>[],
): Promise<Record<string, unknown>[]> {
  const found: Record<string, unknown>[] = [];
  for (let i = 0; i < keyList.length; i += BATCH_GET_MAX) {
    let pending = keyList.slice(i, i + BATCH_GET_MAX);
    for (let attempt = 0; pending.length > 0; attempt++) {
      if (attempt > 8) throw new Error('DynamoDB kept keys unprocessed after 8 retries');
      if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, 20 * 2 ** attempt));
      const out = await client.send(
        new BatchGetCommand({ RequestItems: { [tableName]: { Keys: pending } } }),
      );
      found.push(...(out.Responses?.[tableName] ?? []));
      pending = (out.UnprocessedKeys?.[tableName]?.Keys ?? []) as Record<string, unknown>[];
    }
  }
  return found;
}

/** Tracks by id, one batched read per hundred. */
export function dynamoTrackReader(client: DynamoDBDocumentClient, tableName: string): TrackReader {
  return {
    async get(id) {
      const out = await client.send(
        new GetCommand({ TableName: tableName, Key: keys.generation(id), ConsistentRead: true }),
      );
      return out.Item ? generationFromItem(out.Item) : undefined;
    },
    async getMany(ids) {
      const items = await batchGet(
        client,
        tableName,
        [...new Set(ids)].map((id) => keys.generation(id)),
      );
      return new Map(items.map((item) => [String(item.id), generationFromItem(item)]));
    },
  };
}

const galleryKeySchema = z.object({
  pk: z.string(),
  sk: z.string(),
  [gallery.partitionKey]: z.literal(keys.galleryPartition),
  [gallery.sortKey]: z.string(),
});
const rankKeySchema = z.object({
  pk: z.string().check(z.startsWith('TRACKRANK#')),
  sk: z.string(),
  [ranking.partitionKey]: z.string(),
  [ranking.sortKey]: z.number(),
});
const cursorSchema = z.object({
  s: z.enum(['new', 'top-week', 'most-played']),
  k: z.record(z.string(), z.unknown()),
});
const TOP_WEEK_PARTITION = /^RANK#top-week#\d{4}-\d{2}-\d{2}$/;

/** Decodes a gallery cursor of `sort`, or refuses it: cursors come back from outside. */
function startOf(sort: GallerySort, cursor: string | undefined) {
  if (!cursor) return undefined;
  const parsed = cursorSchema.safeParse(decodeCursor(cursor));
  if (!parsed.success || parsed.data.s !== sort) throw validationError(CURSOR_INVALID);
  const schema = sort === 'new' ? galleryKeySchema : rankKeySchema;
  const key = schema.safeParse(parsed.data.k);
  if (!key.success) throw validationError(CURSOR_INVALID);
  const partition = (key.data as Record<string, unknown>)[ranking.partitionKey];
  if (sort === 'most-played' && partition !== likeKeys.mostPlayedPartition)
    throw validationError(CURSOR_INVALID);
  if (sort === 'top-week' && !TOP_WEEK_PARTITION.test(String(partition)))
    throw validationError(CURSOR_INVALID);
  return key.data as Record<string, unknown>;
}

const cursorOf = (
  sort: GallerySort,
  item: Record<string, unknown>,
  index: { partitionKey: string; sortKey: string },
) =>
  encodeCursor({
    s: sort,
    k: {
      pk: item.pk,
      sk: item.sk,
      [index.partitionKey]: item[index.partitionKey],
      [index.sortKey]: item[index.sortKey],
    },
  }) as string;

/**
 * The gallery's indexes (decision 057): `new` is the sparse gallery index of listed tracks; the
 * rankings are rank items sorted by score, whose tracks are read in one batch. A `top-week` cursor
 * keeps reading the week it started in, so a page turned after midnight does not jump lists.
 */
export function dynamoGalleryIndex(client: DynamoDBDocumentClient, tableName: string): GalleryIndex {
  const tracks = dynamoTrackReader(client, tableName);
  return {
    async read(sort, { day, limit, cursor }) {
      const start = startOf(sort, cursor);
      if (sort === 'new') {
        const out = await client.send(
          new QueryCommand({
            TableName: tableName,
            IndexName: gallery.indexName,
            KeyConditionExpression: '#pk = :pk',
            ExpressionAttributeNames: { '#pk': gallery.partitionKey },
            ExpressionAttributeValues: { ':pk': keys.galleryPartition },
            ScanIndexForward: false,
            Limit: limit,
            ExclusiveStartKey: start,
          }),
        );
        const entries: IndexEntry[] = (out.Items ?? []).map((item) => ({
          generation: generationFromItem(item),
          cursor: cursorOf(sort, item, gallery),
        }));
        return { entries, done: !out.LastEvaluatedKey };
      }
      const partition =
        sort === 'most-played'
          ? likeKeys.mostPlayedPartition
          : String(start?.[ranking.partitionKey] ?? likeKeys.topWeekPartition(day));
      const out = await client.send(
        new QueryCommand({
          TableName: tableName,
          IndexName: ranking.indexName,
          // Scores taken back to zero (unliked, or a deleted account's plays) are not a ranking.
          KeyConditionExpression: '#pk = :pk AND #score > :zero',
          ExpressionAttributeNames: { '#pk': ranking.partitionKey, '#score': ranking.sortKey },
          ExpressionAttributeValues: { ':pk': partition, ':zero': 0 },
          ScanIndexForward: false,
          Limit: limit,
          ExclusiveStartKey: start,
        }),
      );
      const items = out.Items ?? [];
      const found: Map<string, Generation> = await tracks.getMany(items.map((item) => String(item.trackId)));
      const entries: IndexEntry[] = items.map((item) => {
        const generation = found.get(String(item.trackId));
        return { ...(generation ? { generation } : {}), cursor: cursorOf(sort, item, ranking) };
      });
      return { entries, done: !out.LastEvaluatedKey };
    },
  };
}

/** Deleting an account: the user's likes and counted plays, taken back out of the tracks' counts. */
export function dynamoLikesAndPlaysRemoval(
  client: DynamoDBDocumentClient,
  tableName: string,
): { removeAll(userId: string): Promise<void> } {
  const likes = dynamoLikeStore(client, tableName);
  const plays = dynamoPlayStore(client, tableName);
  return {
    async removeAll(userId) {
      await likes.removeAllOf(userId);
      await plays.removeAllOf(userId);
    },
  };
}

import {
  BatchGetCommand,
  DeleteCommand,
  type DynamoDBDocumentClient,
  GetCommand,
  QueryCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { visibilities } from '@tunesmith/shared/tracks';
import * as z from 'zod/mini';
import { playlistKeys } from '../../data/community-keys';
import { keys, tableDesign } from '../../data/keys';
import type { PlaylistStore, PlaylistTracks, StoredPlaylist } from '../../domain/community/playlists';
import type { Generation } from '../../domain/tracks/track';
import { isConditionFailure } from './conditions';
import { generationFromItem } from './generation-repository';
import { transactWrite } from './transact';

const entity = 'playlist';
const byOwner = tableDesign.indexes.byOwner;
/** DynamoDB's BatchGetItem limit. */
const BATCH_GET = 100;
/** Rounds of unprocessed keys asked again before giving up. */
const BATCH_ROUNDS = 8;

const storedPlaylistSchema = z.object({
  id: z.string(),
  userId: z.string(),
  title: z.string(),
  description: z._default(z.nullable(z.string()), null),
  visibility: z.enum(visibilities),
  trackIds: z._default(z.array(z.string()), []),
  createdAt: z.string(),
  updatedAt: z.string(),
});

const fromItem = (item: Record<string, unknown>): StoredPlaylist => storedPlaylistSchema.parse(item);

/** A playlist's item as this store writes it (the load seeder writes the same). */
export function playlistToItem(playlist: StoredPlaylist): Record<string, unknown> {
  return {
    ...playlistKeys.playlist(playlist.id),
    ...playlistKeys.byOwner(playlist.userId, playlist.createdAt, playlist.id),
    entity,
    ...playlist,
  };
}

/** A user's playlist count as this store keeps it, for a user whose count is being written whole. */
export const playlistCountItem = (userId: string, playlists: number): Record<string, unknown> => ({
  ...playlistKeys.count(userId),
  entity: 'playlistCount',
  playlists,
});

/**
 * Playlists in the single table (decision 058): one item per playlist, with its tracks' ids in
 * order, found by owner in gsi1; a count per user moved with `ADD` in the same transaction as the
 * create or delete, whose condition keeps the cap under racing creates.
 */
export function dynamoPlaylistStore(client: DynamoDBDocumentClient, tableName: string): PlaylistStore {
  async function listByOwner(userId: string): Promise<StoredPlaylist[]> {
    const found: StoredPlaylist[] = [];
    let startKey: Record<string, unknown> | undefined;
    do {
      const out = await client.send(
        new QueryCommand({
          TableName: tableName,
          IndexName: byOwner.indexName,
          KeyConditionExpression: '#pk = :pk AND begins_with(#sk, :prefix)',
          ExpressionAttributeNames: { '#pk': byOwner.partitionKey, '#sk': byOwner.sortKey },
          ExpressionAttributeValues: {
            ':pk': playlistKeys.ownerPartition(userId),
            ':prefix': playlistKeys.ownerPrefix,
          },
          ScanIndexForward: false,
          ExclusiveStartKey: startKey,
        }),
      );
      found.push(...(out.Items ?? []).map(fromItem));
      startKey = out.LastEvaluatedKey;
    } while (startKey);
    return found;
  }

  async function remove(id: string, userId: string): Promise<boolean> {
    try {
      await transactWrite(client, [
        {
          Delete: {
            TableName: tableName,
            Key: playlistKeys.playlist(id),
            ConditionExpression: 'attribute_exists(pk) AND userId = :owner',
            ExpressionAttributeValues: { ':owner': userId },
          },
        },
        {
          Update: {
            TableName: tableName,
            Key: playlistKeys.count(userId),
            UpdateExpression: 'ADD playlists :minusOne',
            ConditionExpression: 'playlists > :zero',
            ExpressionAttributeValues: { ':minusOne': -1, ':zero': 0 },
          },
        },
      ]);
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  }

  return {
    async create(playlist, max) {
      try {
        await transactWrite(client, [
          {
            Update: {
              TableName: tableName,
              Key: playlistKeys.count(playlist.userId),
              UpdateExpression: 'ADD playlists :one SET entity = :entity',
              ConditionExpression: 'attribute_not_exists(playlists) OR playlists < :max',
              ExpressionAttributeValues: { ':one': 1, ':max': max, ':entity': 'playlistCount' },
            },
          },
          {
            Put: {
              TableName: tableName,
              Item: playlistToItem(playlist),
              ConditionExpression: 'attribute_not_exists(pk)',
            },
          },
        ]);
        return true;
      } catch (error) {
        if (isConditionFailure(error)) return false;
        throw error;
      }
    },

    async get(id) {
      const out = await client.send(
        new GetCommand({ TableName: tableName, Key: playlistKeys.playlist(id), ConsistentRead: true }),
      );
      return out.Item ? fromItem(out.Item) : undefined;
    },

    listByOwner,

    async update(id, userId, change) {
      const entries = Object.entries(change).filter(([, value]) => value !== undefined);
      try {
        const out = await client.send(
          new UpdateCommand({
            TableName: tableName,
            Key: playlistKeys.playlist(id),
            UpdateExpression: `SET ${entries.map((_, i) => `#f${i} = :f${i}`).join(', ')}`,
            ConditionExpression: 'attribute_exists(pk) AND userId = :owner',
            ExpressionAttributeNames: Object.fromEntries(entries.map(([name], i) => [`#f${i}`, name])),
            ExpressionAttributeValues: {
              ':owner': userId,
              ...Object.fromEntries(entries.map(([, value], i) => [`:f${i}`, value])),
            },
            ReturnValues: 'ALL_NEW',
          }),
        );
        return out.Attributes ? fromItem(out.Attributes) : undefined;
      } catch (error) {
        if (isConditionFailure(error)) return undefined;
        throw error;
      }
    },

    delete: remove,

    async removeAll(userId) {
      for (const playlist of await listByOwner(userId)) await remove(playlist.id, userId);
      await client.send(new DeleteCommand({ TableName: tableName, Key: playlistKeys.count(userId) }));
    },
  };
}

/** Tracks by id for playlists: BatchGetItem, a hundred at a time, asking again for what it leaves. */
export function dynamoPlaylistTracks(client: DynamoDBDocumentClient, tableName: string): PlaylistTracks {
  return {
    async many(ids) {
      const found = new Map<string, Generation>();
      const wanted = [...new Set(ids)];
      for (let start = 0; start < wanted.length; start += BATCH_GET) {
        let pending: Record<string, unknown>[] = wanted
          .slice(start, start + BATCH_GET)
          .map((id) => keys.generation(id));
        for (let round = 0; pending.length > 0; round++) {
          if (round >= BATCH_ROUNDS) throw new Error('DynamoDB kept keys unprocessed');
          if (round > 0) await new Promise((resolve) => setTimeout(resolve, 10 * 2 ** round));
          const out = await client.send(
            new BatchGetCommand({ RequestItems: { [tableName]: { Keys: pending } } }),
          );
          for (const item of out.Responses?.[tableName] ?? []) {
            const g = generationFromItem(item);
            found.set(g.id, g);
          }
          pending = (out.UnprocessedKeys?.[tableName]?.Keys ?? []) as Record<string, unknown>[];
        }
      }
      return found;
    },
  };
}

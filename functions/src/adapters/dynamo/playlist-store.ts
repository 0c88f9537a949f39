import {
  BatchGetCommand,
  DeleteCommand,
  type DynamoDBDocumentClient,
  QueryCommand,
  ScanCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { type Visibility, visibilities } from '@tunesmith/shared/tracks';
import * as z from 'zod/mini';
import { playlistKeys } from '../../data/community-keys';
import { keys, tableDesign } from '../../data/keys';
import type {
  PlaylistStore,
  PlaylistTracks,
  StoredPlaylist,
  StoredPlaylistHead,
} from '../../domain/community/playlists';
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

const headSchema = z.object({
  id: z.string(),
  userId: z.string(),
  title: z.string(),
  description: z._default(z.nullable(z.string()), null),
  visibility: z.enum(visibilities),
  createdAt: z.string(),
  updatedAt: z.string(),
});
/** The attributes a card is read with: not the tracks' ids a playlist written before decision 062 holds. */
const headAttributes = Object.keys(headSchema.def.shape);
const trackIdsSchema = z._default(z.array(z.string()), []);
const tracksEntity = 'playlistTracks';

/**
 * A playlist's items as this store writes them (the load seeder writes the same): its card, and
 * its tracks' ids when it has any (none stored reads as none).
 */
export function playlistItems(playlist: StoredPlaylist): Record<string, unknown>[] {
  const { trackIds, ...head } = playlist;
  const card = {
    ...playlistKeys.playlist(playlist.id),
    ...playlistKeys.byOwner(playlist.userId, playlist.createdAt, playlist.id),
    entity,
    ...head,
  };
  return trackIds.length === 0 ? [card] : [card, tracksItem(playlist.id, trackIds)];
}

const tracksItem = (id: string, trackIds: readonly string[]) => ({
  ...playlistKeys.tracks(id),
  entity: tracksEntity,
  playlistId: id,
  trackIds,
});

/** A user's playlist count as this store keeps it, for a user whose count is being written whole. */
export const playlistCountItem = (userId: string, playlists: number): Record<string, unknown> => ({
  ...playlistKeys.count(userId),
  entity: 'playlistCount',
  playlists,
});

/**
 * Playlists in the single table (decisions 058 and 062): two items per playlist in its own
 * partition, the card (found by owner in gsi1) and its tracks' ids in order; a count per user moved
 * with `ADD` in the same transaction as the create or delete, whose condition keeps the cap under
 * racing creates. A playlist written before decision 062 keeps its ids on the card until its tracks
 * are next set or `npm run backfill -- playlists` moves them; it reads the same meanwhile.
 */
export function dynamoPlaylistStore(client: DynamoDBDocumentClient, tableName: string): PlaylistStore {
  async function headsByOwner(userId: string, only?: Visibility): Promise<StoredPlaylistHead[]> {
    const found: StoredPlaylistHead[] = [];
    const names: Record<string, string> = { '#pk': byOwner.partitionKey, '#sk': byOwner.sortKey };
    for (const [i, name] of headAttributes.entries()) names[`#h${i}`] = name;
    const values: Record<string, unknown> = {
      ':pk': playlistKeys.ownerPartition(userId),
      ':prefix': playlistKeys.ownerPrefix,
    };
    if (only) values[':only'] = only;
    let startKey: Record<string, unknown> | undefined;
    do {
      const out = await client.send(
        new QueryCommand({
          TableName: tableName,
          IndexName: byOwner.indexName,
          KeyConditionExpression: '#pk = :pk AND begins_with(#sk, :prefix)',
          ProjectionExpression: headAttributes.map((_, i) => `#h${i}`).join(', '),
          ...(only ? { FilterExpression: `#h${headAttributes.indexOf('visibility')} = :only` } : {}),
          ExpressionAttributeNames: names,
          ExpressionAttributeValues: values,
          ScanIndexForward: false,
          ExclusiveStartKey: startKey,
        }),
      );
      found.push(...(out.Items ?? []).map((item) => headSchema.parse(item)));
      startKey = out.LastEvaluatedKey;
    } while (startKey);
    return found;
  }

  async function get(id: string): Promise<StoredPlaylist | undefined> {
    const out = await client.send(
      new QueryCommand({
        TableName: tableName,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': playlistKeys.partition(id) },
        ConsistentRead: true,
      }),
    );
    const items = out.Items ?? [];
    const card = items.find((item) => item.sk === playlistKeys.playlist(id).sk);
    if (!card) return undefined;
    const tracks = items.find((item) => item.sk === playlistKeys.tracks(id).sk);
    return { ...headSchema.parse(card), trackIds: trackIdsSchema.parse((tracks ?? card).trackIds) };
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
        { Delete: { TableName: tableName, Key: playlistKeys.tracks(id) } },
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
          ...playlistItems(playlist).map((Item) => ({
            Put: { TableName: tableName, Item, ConditionExpression: 'attribute_not_exists(pk)' },
          })),
        ]);
        return true;
      } catch (error) {
        if (isConditionFailure(error)) return false;
        throw error;
      }
    },

    get,

    headsByOwner,

    async update(id, userId, change) {
      const { trackIds, ...fields } = change;
      const entries = Object.entries(fields).filter(([, value]) => value !== undefined);
      const card = {
        TableName: tableName,
        Key: playlistKeys.playlist(id),
        // Setting the tracks moves a card's ids from before decision 062 to their own item.
        UpdateExpression: `SET ${entries.map((_, i) => `#f${i} = :f${i}`).join(', ')}${trackIds ? ' REMOVE trackIds' : ''}`,
        ConditionExpression: 'attribute_exists(pk) AND userId = :owner',
        ExpressionAttributeNames: Object.fromEntries(entries.map(([name], i) => [`#f${i}`, name])),
        ExpressionAttributeValues: {
          ':owner': userId,
          ...Object.fromEntries(entries.map(([, value], i) => [`:f${i}`, value])),
        },
      };
      try {
        if (trackIds) {
          await transactWrite(client, [
            { Update: card },
            { Put: { TableName: tableName, Item: tracksItem(id, trackIds) } },
          ]);
        } else {
          await client.send(new UpdateCommand(card));
        }
      } catch (error) {
        if (isConditionFailure(error)) return undefined;
        throw error;
      }
      return get(id);
    },

    delete: remove,

    async removeAll(userId) {
      for (const playlist of await headsByOwner(userId)) await remove(playlist.id, userId);
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

/**
 * `npm run backfill -- playlists` (decision 062): each playlist whose card still holds its tracks'
 * ids (written before the ids had their own item) gets them moved to their own item, in one
 * transaction conditioned on the card not having changed since the scan read it; one changed
 * meanwhile is skipped (setting its tracks moved them; anything else, running again moves them).
 * Safe to run again.
 */
export async function movePlaylistTracksApart(
  client: DynamoDBDocumentClient,
  tableName: string,
  options: { dryRun: boolean },
): Promise<{ found: number; moved: number; skipped: number }> {
  const report = { found: 0, moved: 0, skipped: 0 };
  let startKey: Record<string, unknown> | undefined;
  do {
    const out = await client.send(
      new ScanCommand({
        TableName: tableName,
        FilterExpression: 'entity = :entity AND attribute_exists(trackIds)',
        ExpressionAttributeValues: { ':entity': entity },
        ExclusiveStartKey: startKey,
      }),
    );
    for (const card of out.Items ?? []) {
      report.found += 1;
      if (options.dryRun) continue;
      const id = String(card.id);
      const trackIds = trackIdsSchema.parse(card.trackIds);
      try {
        await transactWrite(client, [
          {
            Update: {
              TableName: tableName,
              Key: playlistKeys.playlist(id),
              UpdateExpression: 'REMOVE trackIds',
              ConditionExpression: 'updatedAt = :read AND attribute_exists(trackIds)',
              ExpressionAttributeValues: { ':read': card.updatedAt },
            },
          },
          {
            Put: {
              TableName: tableName,
              Item: tracksItem(id, trackIds),
              ConditionExpression: 'attribute_not_exists(pk)',
            },
          },
        ]);
        report.moved += 1;
      } catch (error) {
        if (!isConditionFailure(error)) throw error;
        report.skipped += 1;
      }
    }
    startKey = out.LastEvaluatedKey;
  } while (startKey);
  return report;
}

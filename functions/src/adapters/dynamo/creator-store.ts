import {
  DeleteCommand,
  type DynamoDBDocumentClient,
  GetCommand,
  QueryCommand,
  type TransactWriteCommandInput,
} from '@aws-sdk/lib-dynamodb';
import { creatorMessages, FOLLOWING_MAX } from '@tunesmith/shared/community';
import * as z from 'zod/mini';
import { creatorKeys } from '../../data/community-keys';
import { keys, tableDesign } from '../../data/keys';
import type { CreatorStore, CreatorTracks, StoredProfile } from '../../domain/community/creators';
import { conflict } from '../../domain/errors';
import { isConditionFailure } from './conditions';
import { generationFromItem } from './generation-repository';
import { transactWrite } from './transact';

type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

const profileSchema = z.object({
  userId: z.string(),
  handle: z.string(),
  displayName: z.string(),
  bio: z._default(z.nullable(z.string()), null),
  hidden: z._default(z.boolean(), false),
  createdAt: z.string(),
  updatedAt: z.string(),
});

/** A profile item is public while it has a handle; one kept after going private holds only `hidden`. */
const profileFromItem = (item: Record<string, unknown> | undefined): StoredProfile | undefined =>
  item && typeof item.handle === 'string' ? profileSchema.parse(item) : undefined;

const numberOr0 = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : 0);

/** Which item of a cancelled transaction failed its condition (DynamoDB lists a reason per item). */
const failedAt = (error: unknown): number[] =>
  ((error as { CancellationReasons?: { Code?: string }[] }).CancellationReasons ?? []).flatMap((reason, i) =>
    reason.Code === 'ConditionalCheckFailed' ? [i] : [],
  );

const counter = (tableName: string, userId: string, name: 'followers' | 'following', by: number) => ({
  Update: {
    TableName: tableName,
    Key: creatorKeys.counts(userId),
    UpdateExpression: 'ADD #n :by',
    ExpressionAttributeNames: { '#n': name },
    ExpressionAttributeValues: { ':by': by },
  },
});

/** A transaction's check that the creator has no public profile (none, or one kept only for its hide). */
const notPublic = (tableName: string, creatorId: string): TransactItem => ({
  ConditionCheck: {
    TableName: tableName,
    Key: creatorKeys.profile(creatorId),
    ConditionExpression: 'attribute_not_exists(#hk)',
    ExpressionAttributeNames: { '#hk': 'handleKey' },
  },
});

/**
 * Public profiles, handle claims and follows in the single table (decision 059). A profile and its
 * handle claim are written in one transaction, so a handle has one holder whatever its case; a follow
 * and both users' counters are written in one, so the counts stay exact under any concurrency.
 */
export function dynamoCreatorStore(client: DynamoDBDocumentClient, tableName: string): CreatorStore {
  const get = async (key: { pk: string; sk: string }) =>
    (await client.send(new GetCommand({ TableName: tableName, Key: key, ConsistentRead: true }))).Item;

  /** The profile's own write: only the fields the user sets, so an administrator's `hidden` stays. */
  const profileUpdate = (
    p: Omit<StoredProfile, 'hidden'>,
    previous: StoredProfile | undefined,
  ): TransactItem => {
    const set: Record<string, unknown> = {
      entity: 'publicProfile',
      userId: p.userId,
      handle: p.handle,
      handleKey: p.handle.toLowerCase(),
      displayName: p.displayName,
      createdAt: p.createdAt,
      updatedAt: p.updatedAt,
      ...(p.bio ? { bio: p.bio } : {}),
    };
    const names = Object.keys(set);
    return {
      Update: {
        TableName: tableName,
        Key: creatorKeys.profile(p.userId),
        UpdateExpression: `SET ${names.map((_, i) => `#f${i} = :v${i}`).join(', ')}${p.bio ? '' : ' REMOVE #bio'}`,
        // Written over exactly the profile read (none, or the same handle), or read again.
        ConditionExpression: previous ? '#handleKey = :previous' : 'attribute_not_exists(#handleKey)',
        ExpressionAttributeNames: {
          ...Object.fromEntries(names.map((name, i) => [`#f${i}`, name])),
          '#handleKey': 'handleKey',
          ...(p.bio ? {} : { '#bio': 'bio' }),
        },
        ExpressionAttributeValues: {
          ...Object.fromEntries(names.map((name, i) => [`:v${i}`, set[name]])),
          ...(previous ? { ':previous': previous.handle.toLowerCase() } : {}),
        },
      },
    };
  };

  const releaseHandle = (previous: StoredProfile): TransactItem => ({
    Delete: {
      TableName: tableName,
      Key: creatorKeys.handle(previous.handle),
      ConditionExpression: '#u = :userId',
      ExpressionAttributeNames: { '#u': 'userId' },
      ExpressionAttributeValues: { ':userId': previous.userId },
    },
  });

  return {
    profile: async (userId) => profileFromItem(await get(creatorKeys.profile(userId))),

    holderOf: async (handle) => {
      const item = await get(creatorKeys.handle(handle));
      return typeof item?.userId === 'string' ? item.userId : undefined;
    },

    async save(profile, previous) {
      const sameHandle = previous && previous.handle.toLowerCase() === profile.handle.toLowerCase();
      const items: TransactItem[] = [profileUpdate(profile, previous)];
      if (!sameHandle) {
        items.push({
          Put: {
            TableName: tableName,
            Item: { ...creatorKeys.handle(profile.handle), entity: 'handleClaim', userId: profile.userId },
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        });
        if (previous) items.push(releaseHandle(previous));
      }
      try {
        await transactWrite(client, items);
        return 'saved';
      } catch (error) {
        if (!isConditionFailure(error)) throw error;
        if (failedAt(error).includes(1)) throw conflict(creatorMessages.handleTaken);
        return 'changed';
      }
    },

    async remove(previous) {
      try {
        await transactWrite(client, [
          {
            // The item stays with nothing public on it while an administrator's hide is on it, so going
            // private and public again does not lift the hide.
            Update: {
              TableName: tableName,
              Key: creatorKeys.profile(previous.userId),
              UpdateExpression: 'REMOVE #h, #hk, #dn, #bio, #c, #u',
              ConditionExpression: '#hk = :previous',
              ExpressionAttributeNames: {
                '#h': 'handle',
                '#hk': 'handleKey',
                '#dn': 'displayName',
                '#bio': 'bio',
                '#c': 'createdAt',
                '#u': 'updatedAt',
              },
              ExpressionAttributeValues: { ':previous': previous.handle.toLowerCase() },
            },
          },
          releaseHandle(previous),
        ]);
      } catch (error) {
        if (!isConditionFailure(error)) throw error;
        return 'changed';
      }
      // Nothing hidden on it: the empty item goes too (a hide set meanwhile keeps it).
      await client
        .send(
          new DeleteCommand({
            TableName: tableName,
            Key: creatorKeys.profile(previous.userId),
            ConditionExpression: 'attribute_not_exists(#hk) AND attribute_not_exists(#hidden)',
            ExpressionAttributeNames: { '#hk': 'handleKey', '#hidden': 'hidden' },
          }),
        )
        .catch((error: unknown) => {
          if (!isConditionFailure(error)) throw error;
        });
      return 'removed';
    },

    async counts(userId) {
      const item = await get(creatorKeys.counts(userId));
      return { followers: numberOr0(item?.followers), following: numberOr0(item?.following) };
    },

    isFollowing: async (followerId, creatorId) => !!(await get(creatorKeys.follow(followerId, creatorId))),

    async follow(followerId, creatorId, at, max) {
      try {
        await transactWrite(client, [
          {
            Put: {
              TableName: tableName,
              Item: {
                ...creatorKeys.follow(followerId, creatorId),
                ...creatorKeys.follower(followerId, creatorId),
                entity: 'follow',
                followerId,
                creatorId,
                createdAt: at,
              },
              ConditionExpression: 'attribute_not_exists(pk)',
            },
          },
          {
            ConditionCheck: {
              TableName: tableName,
              Key: creatorKeys.profile(creatorId),
              ConditionExpression:
                'attribute_exists(#hk) AND (attribute_not_exists(#hidden) OR #hidden = :no)',
              ExpressionAttributeNames: { '#hk': 'handleKey', '#hidden': 'hidden' },
              ExpressionAttributeValues: { ':no': false },
            },
          },
          {
            Update: {
              ...counter(tableName, followerId, 'following', 1).Update,
              ConditionExpression: 'attribute_not_exists(#n) OR #n < :max',
              ExpressionAttributeValues: { ':by': 1, ':max': max },
            },
          },
          counter(tableName, creatorId, 'followers', 1),
        ]);
        return 'followed';
      } catch (error) {
        if (!isConditionFailure(error)) throw error;
        const failed = failedAt(error);
        if (failed.includes(0)) return 'already';
        if (failed.includes(1)) return 'creator-gone';
        return 'limit';
      }
    },

    async unfollow(followerId, creatorId) {
      try {
        await transactWrite(client, [
          {
            Delete: {
              TableName: tableName,
              Key: creatorKeys.follow(followerId, creatorId),
              ConditionExpression: 'attribute_exists(pk)',
            },
          },
          counter(tableName, followerId, 'following', -1),
          counter(tableName, creatorId, 'followers', -1),
        ]);
        return true;
      } catch (error) {
        if (!isConditionFailure(error)) throw error;
        return false;
      }
    },

    async dropFollow(followerId, creatorId, before) {
      try {
        await transactWrite(client, [
          {
            Delete: {
              TableName: tableName,
              Key: creatorKeys.follow(followerId, creatorId),
              ConditionExpression: 'attribute_exists(pk) AND #at <= :before',
              ExpressionAttributeNames: { '#at': 'createdAt' },
              ExpressionAttributeValues: { ':before': before },
            },
          },
          counter(tableName, followerId, 'following', -1),
        ]);
        return true;
      } catch (error) {
        if (!isConditionFailure(error)) throw error;
        return false;
      }
    },

    async resetFollowers(creatorId) {
      try {
        await transactWrite(client, [
          notPublic(tableName, creatorId),
          {
            Update: {
              TableName: tableName,
              Key: creatorKeys.counts(creatorId),
              UpdateExpression: 'SET #n = :zero',
              ConditionExpression: 'attribute_exists(pk)',
              ExpressionAttributeNames: { '#n': 'followers' },
              ExpressionAttributeValues: { ':zero': 0 },
            },
          },
        ]);
        return true;
      } catch (error) {
        if (!isConditionFailure(error)) throw error;
        // Public again (the new profile's count is its own), or no counts yet (nothing to reset).
        return !failedAt(error).includes(0);
      }
    },

    async followed(followerId) {
      const ids: string[] = [];
      let start: Record<string, unknown> | undefined;
      do {
        const out = await client.send(
          new QueryCommand({
            TableName: tableName,
            KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
            ExpressionAttributeValues: {
              ':pk': creatorKeys.follow(followerId, '').pk,
              ':prefix': creatorKeys.followPrefix,
            },
            ProjectionExpression: '#c',
            ExpressionAttributeNames: { '#c': 'creatorId' },
            ConsistentRead: true,
            ExclusiveStartKey: start,
          }),
        );
        for (const item of out.Items ?? []) if (typeof item.creatorId === 'string') ids.push(item.creatorId);
        start = out.LastEvaluatedKey;
      } while (start && ids.length < FOLLOWING_MAX * 2);
      return ids;
    },

    async followers(creatorId, limit, after) {
      const index = tableDesign.indexes.byOwner;
      const out = await client.send(
        new QueryCommand({
          TableName: tableName,
          IndexName: index.indexName,
          KeyConditionExpression: '#pk = :pk',
          ExpressionAttributeNames: { '#pk': index.partitionKey },
          ExpressionAttributeValues: { ':pk': creatorKeys.followersPartition(creatorId) },
          Limit: limit,
          ...(after ? { ExclusiveStartKey: JSON.parse(after) as Record<string, unknown> } : {}),
        }),
      );
      const ids = (out.Items ?? []).flatMap((item) =>
        typeof item.followerId === 'string' ? [item.followerId] : [],
      );
      return out.LastEvaluatedKey ? { ids, next: JSON.stringify(out.LastEvaluatedKey) } : { ids };
    },

    async removeRecords(userId) {
      await client.send(new DeleteCommand({ TableName: tableName, Key: creatorKeys.counts(userId) }));
      await client.send(new DeleteCommand({ TableName: tableName, Key: creatorKeys.profile(userId) }));
    },
  };
}

/** A creator's listed tracks from their partition of the `ranking` index, newest first. */
export function dynamoCreatorTracks(client: DynamoDBDocumentClient, tableName: string): CreatorTracks {
  const index = tableDesign.indexes.ranking;
  return {
    async newest(userId, count, after) {
      const found = [];
      let start: Record<string, unknown> | undefined;
      // Tracks of the cursor's own millisecond come back too (`<=`) and are kept only past its id.
      do {
        const out = await client.send(
          new QueryCommand({
            TableName: tableName,
            IndexName: index.indexName,
            KeyConditionExpression: after ? '#pk = :pk AND #score <= :at' : '#pk = :pk',
            ExpressionAttributeNames: {
              '#pk': index.partitionKey,
              ...(after ? { '#score': index.sortKey } : {}),
            },
            ExpressionAttributeValues: {
              ':pk': keys.creatorTracksPartition(userId),
              ...(after ? { ':at': after.at } : {}),
            },
            ScanIndexForward: false,
            Limit: count + 1,
            ExclusiveStartKey: start,
          }),
        );
        for (const item of out.Items ?? []) {
          const g = generationFromItem(item);
          if (after && Date.parse(g.createdAt) === after.at && g.id >= after.id) continue;
          found.push(g);
        }
        start = out.LastEvaluatedKey;
      } while (start && found.length < count);
      return found.slice(0, count);
    },
  };
}

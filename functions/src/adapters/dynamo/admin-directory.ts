import {
  BatchGetCommand,
  type DynamoDBDocumentClient,
  PutCommand,
  QueryCommand,
} from '@aws-sdk/lib-dynamodb';
import { keys, tableDesign } from '../../data/keys';
import type { User } from '../../domain/accounts/user';
import type { TrackDirectory, UsageAnalyticsStore, UserDirectory } from '../../domain/admin/ports';
import type { Generation } from '../../domain/tracks/track';
import { decodeCursor, encodeCursor } from './client';
import { isConditionFailure } from './conditions';
import { generationFromItem } from './generation-repository';
import { userSchema } from './user-repository';

const byOwner = tableDesign.indexes.byOwner;
const byKind = tableDesign.indexes.byKind;

/** The cursor after `item` in an index: its table and index keys. */
const cursorAt = (item: Record<string, unknown>, index: { partitionKey: string; sortKey: string }) =>
  encodeCursor({
    pk: item.pk,
    sk: item.sk,
    [index.partitionKey]: item[index.partitionKey],
    [index.sortKey]: item[index.sortKey],
  });

/** Users for the admin area: pages of gsi2 (newest first), prefix search on gsi1, plan members on gsi1. */
export function dynamoUserDirectory(client: DynamoDBDocumentClient, tableName: string): UserDirectory {
  const profiles = async (ids: string[]): Promise<User[]> => {
    if (ids.length === 0) return [];
    const found = new Map<string, User>();
    let pending: Record<string, unknown>[] = ids.map((id) => keys.user(id));
    for (let round = 0; pending.length > 0 && round < 5; round++) {
      const out = await client.send(
        new BatchGetCommand({ RequestItems: { [tableName]: { Keys: pending } } }),
      );
      for (const item of out.Responses?.[tableName] ?? []) {
        const parsed = userSchema.safeParse(item);
        if (parsed.success) found.set(parsed.data.id, parsed.data);
      }
      pending = (out.UnprocessedKeys?.[tableName]?.Keys ?? []) as Record<string, unknown>[];
    }
    return ids.flatMap((id) => {
      const user = found.get(id);
      return user ? [user] : [];
    });
  };

  return {
    async list({ limit, cursor }) {
      const out = await client.send(
        new QueryCommand({
          TableName: tableName,
          IndexName: byKind.indexName,
          KeyConditionExpression: '#pk = :pk',
          ExpressionAttributeNames: { '#pk': byKind.partitionKey },
          ExpressionAttributeValues: { ':pk': keys.usersCollection },
          ScanIndexForward: false,
          Limit: limit,
          ExclusiveStartKey: decodeCursor(cursor),
        }),
      );
      const items = (out.Items ?? []).flatMap((item) => {
        const parsed = userSchema.safeParse(item);
        return parsed.success ? [parsed.data] : [];
      });
      const next = encodeCursor(out.LastEvaluatedKey);
      return { items, ...(next ? { cursor: next } : {}) };
    },

    async search(prefix, { limit, cursor }) {
      const out = await client.send(
        new QueryCommand({
          TableName: tableName,
          IndexName: byOwner.indexName,
          KeyConditionExpression: '#pk = :pk AND begins_with(#sk, :prefix)',
          ExpressionAttributeNames: { '#pk': byOwner.partitionKey, '#sk': byOwner.sortKey },
          ExpressionAttributeValues: { ':pk': keys.userSearchPartition(prefix), ':prefix': prefix },
          Limit: limit,
          ExclusiveStartKey: decodeCursor(cursor),
        }),
      );
      // One user may match on several words (first name and email): listed once.
      const ids = [...new Set((out.Items ?? []).map((item) => String(item.userId)))];
      const next = encodeCursor(out.LastEvaluatedKey);
      return { items: await profiles(ids), ...(next ? { cursor: next } : {}) };
    },

    async countOnPlan(planId, upTo) {
      const out = await client.send(
        new QueryCommand({
          TableName: tableName,
          IndexName: byOwner.indexName,
          KeyConditionExpression: '#pk = :pk',
          ExpressionAttributeNames: { '#pk': byOwner.partitionKey },
          ExpressionAttributeValues: { ':pk': keys.planMembersPartition(planId) },
          Limit: upTo,
          Select: 'COUNT',
        }),
      );
      return out.Count ?? 0;
    },
  };
}

/** How many index items one list call reads at most while filtering, so a rare match stays fast. */
const FILTER_READ_BUDGET = 2000;

/** Every track newest first (gsi2), filtered by status, visibility and text in the title or tags. */
export function dynamoTrackDirectory(client: DynamoDBDocumentClient, tableName: string): TrackDirectory {
  return {
    async list(filter, { limit, cursor }) {
      const names: Record<string, string> = { '#pk': byKind.partitionKey };
      const values: Record<string, unknown> = { ':pk': 'TRACKS' };
      const conditions: string[] = [];
      if (filter.status) {
        names['#status'] = 'status';
        values[':status'] = filter.status;
        conditions.push('#status = :status');
      }
      if (filter.visibility) {
        names['#visibility'] = 'visibility';
        values[':visibility'] = filter.visibility;
        conditions.push('#visibility = :visibility');
      }
      if (filter.q) {
        names['#search'] = 'searchText';
        values[':q'] = filter.q;
        conditions.push('contains(#search, :q)');
      }
      const filtered = conditions.length > 0;
      const items: Generation[] = [];
      let startKey = decodeCursor(cursor);
      let read = 0;
      let next: string | undefined;
      while (items.length < limit) {
        const out = await client.send(
          new QueryCommand({
            TableName: tableName,
            IndexName: byKind.indexName,
            KeyConditionExpression: '#pk = :pk',
            ...(filtered ? { FilterExpression: conditions.join(' AND ') } : {}),
            ExpressionAttributeNames: names,
            ExpressionAttributeValues: values,
            ScanIndexForward: false,
            // Without filters a page is exactly what is asked for; with them, read ahead.
            Limit: filtered ? Math.max(limit * 4, 100) : limit - items.length,
            ExclusiveStartKey: startKey,
          }),
        );
        read += out.ScannedCount ?? 0;
        const page = out.Items ?? [];
        let stoppedAt: Record<string, unknown> | undefined;
        for (const item of page) {
          items.push(generationFromItem(item));
          if (items.length === limit) {
            stoppedAt = item;
            break;
          }
        }
        if (stoppedAt && stoppedAt !== page.at(-1)) {
          next = cursorAt(stoppedAt, byKind);
          break;
        }
        next = encodeCursor(out.LastEvaluatedKey);
        startKey = out.LastEvaluatedKey;
        if (!startKey || read >= FILTER_READ_BUDGET) break;
      }
      return { items, ...(next ? { cursor: next } : {}) };
    },
  };
}

/** One usage_analytics item per day, listed by date in gsi2. */
export function dynamoUsageAnalytics(client: DynamoDBDocumentClient, tableName: string): UsageAnalyticsStore {
  return {
    async putIfAbsent(record) {
      try {
        await client.send(
          new PutCommand({
            TableName: tableName,
            Item: {
              ...keys.usageAnalytics(record.date),
              ...keys.usageAnalyticsKind(record.date),
              entity: 'usage-analytics',
              ...record,
            },
            ConditionExpression: 'attribute_not_exists(pk)',
          }),
        );
        return true;
      } catch (error) {
        if (isConditionFailure(error)) return false;
        throw error;
      }
    },
  };
}

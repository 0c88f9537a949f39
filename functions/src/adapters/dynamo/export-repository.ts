import {
  DeleteCommand,
  type DynamoDBDocumentClient,
  GetCommand,
  QueryCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { EXPORT_KEEP_DAYS, exportStatuses } from '@tunesmith/shared/ownership';
import * as z from 'zod/mini';
import { keys, tableDesign } from '../../data/keys';
import type { ExportRecord, ExportRepository } from '../../domain/exports/ports';
import { isConditionFailure } from './conditions';
import { transactWrite } from './transact';

const DAY_SECONDS = 24 * 60 * 60;
/** A slot outlives any export run by far; its TTL only tidies up after a crash nobody followed. */
const SLOT_TTL_SECONDS = DAY_SECONDS;

const storedExportSchema = z.object({
  id: z.string(),
  userId: z.string(),
  status: z.enum(exportStatuses),
  createdAt: z.string(),
  updatedAt: z.string(),
  tracksDone: z.int(),
  tracksTotal: z.nullable(z.int()),
  attempts: z._default(z.int(), 0),
  size: z.optional(z.int()),
  linkExpiresAt: z.optional(z.string()),
});

const epochSeconds = (iso: string) => Math.floor(Date.parse(iso) / 1000);
const owner = tableDesign.indexes.byOwner;
const ttl = tableDesign.ttlAttribute;

const fromItem = (item: Record<string, unknown>): ExportRecord => {
  const { size, linkExpiresAt, ...rest } = storedExportSchema.parse(item);
  return { ...rest, ...(size !== undefined ? { size } : {}), ...(linkExpiresAt ? { linkExpiresAt } : {}) };
};

/**
 * Export records in the single table (`EXPORT#id`, in the owner's gsi1
 * partition under `EXPORT#createdAt#id`, expiring with their zip after
 * EXPORT_KEEP_DAYS), and the user's slot (`USER#id` / `EXPORT_SLOT`) that
 * names the export preparing. A new export and the slot are written in one
 * transaction whose condition is the rule: no slot, or a stale one.
 */
export function dynamoExportRepository(client: DynamoDBDocumentClient, tableName: string): ExportRepository {
  const ifPreparing = {
    ConditionExpression: '#status = :preparing',
    names: { '#status': 'status' },
    values: { ':preparing': 'preparing' },
  };

  const releaseSlot = async (userId: string, exportId: string) => {
    try {
      await client.send(
        new DeleteCommand({
          TableName: tableName,
          Key: keys.exportSlot(userId),
          ConditionExpression: 'exportId = :id',
          ExpressionAttributeValues: { ':id': exportId },
        }),
      );
    } catch (error) {
      // Another export holds it (this one went stale and a newer one started): it is not ours to free.
      if (!isConditionFailure(error)) throw error;
    }
  };

  return {
    async begin(record, staleBefore) {
      try {
        await transactWrite(client, [
          {
            Put: {
              TableName: tableName,
              Item: {
                ...keys.exportSlot(record.userId),
                entity: 'exportSlot',
                exportId: record.id,
                startedAt: record.createdAt,
                [ttl]: epochSeconds(record.createdAt) + SLOT_TTL_SECONDS,
              },
              ConditionExpression: 'attribute_not_exists(pk) OR startedAt < :staleBefore',
              ExpressionAttributeValues: { ':staleBefore': staleBefore },
            },
          },
          {
            Put: {
              TableName: tableName,
              Item: {
                ...keys.export(record.id),
                ...keys.exportOwner(record.userId, record.createdAt, record.id),
                entity: 'export',
                ...record,
                [ttl]: epochSeconds(record.createdAt) + EXPORT_KEEP_DAYS * DAY_SECONDS,
              },
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
        new GetCommand({ TableName: tableName, Key: keys.export(id), ConsistentRead: true }),
      );
      return out.Item ? fromItem(out.Item) : undefined;
    },

    async latest(userId) {
      const out = await client.send(
        new QueryCommand({
          TableName: tableName,
          IndexName: owner.indexName,
          KeyConditionExpression: '#pk = :pk AND begins_with(#sk, :prefix)',
          ExpressionAttributeNames: { '#pk': owner.partitionKey, '#sk': owner.sortKey },
          ExpressionAttributeValues: {
            ':pk': keys.generationOwnerPartition(userId),
            ':prefix': keys.exportOwnerPrefix,
          },
          ScanIndexForward: false,
          Limit: 1,
        }),
      );
      const item = out.Items?.[0];
      return item ? fromItem(item) : undefined;
    },

    async startAttempt(id, at) {
      try {
        const out = await client.send(
          new UpdateCommand({
            TableName: tableName,
            Key: keys.export(id),
            UpdateExpression: 'SET attempts = if_not_exists(attempts, :zero) + :one, updatedAt = :at',
            ConditionExpression: ifPreparing.ConditionExpression,
            ExpressionAttributeNames: ifPreparing.names,
            ExpressionAttributeValues: { ...ifPreparing.values, ':zero': 0, ':one': 1, ':at': at },
            ReturnValues: 'ALL_NEW',
          }),
        );
        return out.Attributes ? fromItem(out.Attributes) : undefined;
      } catch (error) {
        if (isConditionFailure(error)) return undefined;
        throw error;
      }
    },

    async progress(id, { tracksDone, tracksTotal, at }) {
      try {
        await client.send(
          new UpdateCommand({
            TableName: tableName,
            Key: keys.export(id),
            UpdateExpression: 'SET tracksDone = :done, tracksTotal = :total, updatedAt = :at',
            ConditionExpression: ifPreparing.ConditionExpression,
            ExpressionAttributeNames: ifPreparing.names,
            ExpressionAttributeValues: {
              ...ifPreparing.values,
              ':done': tracksDone,
              ':total': tracksTotal,
              ':at': at,
            },
          }),
        );
      } catch (error) {
        if (!isConditionFailure(error)) throw error;
      }
    },

    async finish(record, outcome, at) {
      const ready = outcome.status === 'ready' ? outcome : undefined;
      try {
        await client.send(
          new UpdateCommand({
            TableName: tableName,
            Key: keys.export(record.id),
            UpdateExpression: ready
              ? 'SET #status = :status, updatedAt = :at, #size = :size, linkExpiresAt = :link, tracksDone = :done, tracksTotal = :total'
              : 'SET #status = :status, updatedAt = :at',
            ConditionExpression: ifPreparing.ConditionExpression,
            ExpressionAttributeNames: { ...ifPreparing.names, ...(ready ? { '#size': 'size' } : {}) },
            ExpressionAttributeValues: {
              ...ifPreparing.values,
              ':status': outcome.status,
              ':at': at,
              ...(ready
                ? {
                    ':size': ready.size,
                    ':link': ready.linkExpiresAt,
                    ':done': ready.tracksDone,
                    ':total': ready.tracksTotal,
                  }
                : {}),
            },
          }),
        );
      } catch (error) {
        if (isConditionFailure(error)) return false;
        throw error;
      }
      await releaseSlot(record.userId, record.id);
      return true;
    },

    async removeAll(userId) {
      let startKey: Record<string, unknown> | undefined;
      do {
        const out = await client.send(
          new QueryCommand({
            TableName: tableName,
            IndexName: owner.indexName,
            KeyConditionExpression: '#pk = :pk AND begins_with(#sk, :prefix)',
            ExpressionAttributeNames: { '#pk': owner.partitionKey, '#sk': owner.sortKey },
            ExpressionAttributeValues: {
              ':pk': keys.generationOwnerPartition(userId),
              ':prefix': keys.exportOwnerPrefix,
            },
            ExclusiveStartKey: startKey,
          }),
        );
        for (const item of out.Items ?? [])
          await client.send(new DeleteCommand({ TableName: tableName, Key: keys.export(String(item.id)) }));
        startKey = out.LastEvaluatedKey;
      } while (startKey);
      await client.send(new DeleteCommand({ TableName: tableName, Key: keys.exportSlot(userId) }));
    },
  };
}

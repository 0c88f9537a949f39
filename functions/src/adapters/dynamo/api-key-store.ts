import {
  DeleteCommand,
  type DynamoDBDocumentClient,
  GetCommand,
  QueryCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { apiScopes } from '@tunesmith/shared/developer-api';
import * as z from 'zod/mini';
import { developerKeys } from '../../data/developer-keys';
import { tableDesign } from '../../data/keys';
import type { ApiKeyRecord, ApiKeyStore } from '../../domain/developers/ports';
import { isConditionFailure } from './conditions';
import { transactWrite } from './transact';

/** A revoked key's record is kept this long (what it was, when it was last used), then expires. */
const REVOKED_KEEP_SECONDS = 90 * 24 * 60 * 60;
/** Pages of one user's key records read at most (10 live keys and the revoked ones of 90 days). */
const MAX_PAGES = 20;

const entity = 'apiKey';
const ttl = tableDesign.ttlAttribute;

const storedKeySchema = z.object({
  id: z.string(),
  userId: z.string(),
  name: z.string(),
  prefix: z.string(),
  scopes: z.array(z.enum(apiScopes)),
  hash: z.string(),
  createdAt: z.string(),
  lastUsedAt: z._default(z.nullable(z.string()), null),
  revokedAt: z._default(z.nullable(z.string()), null),
});

const lookupSchema = z.object({
  id: z.string(),
  userId: z.string(),
  scopes: z.array(z.enum(apiScopes)),
  hash: z.string(),
  lastUsedAt: z._default(z.nullable(z.string()), null),
});

/**
 * API keys in the single table (decision 052): the record in the user's
 * partition, an item by the key's hash for the calls that present it, and a
 * count of live keys; creating and revoking write all three in one
 * transaction, so the count is exact and a revoked key stops at once.
 */
export function dynamoApiKeyStore(client: DynamoDBDocumentClient, tableName: string): ApiKeyStore {
  async function records(userId: string): Promise<ApiKeyRecord[]> {
    const found: ApiKeyRecord[] = [];
    let startKey: Record<string, unknown> | undefined;
    for (let page = 0; page < MAX_PAGES; page++) {
      const out = await client.send(
        new QueryCommand({
          TableName: tableName,
          KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
          ExpressionAttributeValues: {
            ':pk': developerKeys.apiKey(userId, '').pk,
            ':prefix': developerKeys.apiKeyPrefix,
          },
          ConsistentRead: true,
          ExclusiveStartKey: startKey,
        }),
      );
      found.push(...(out.Items ?? []).map((item) => storedKeySchema.parse(item)));
      startKey = out.LastEvaluatedKey;
      if (!startKey) break;
    }
    return found;
  }

  return {
    async create(record, max) {
      const { lastUsedAt: _l, revokedAt: _r, ...fields } = record;
      try {
        await transactWrite(client, [
          {
            Update: {
              TableName: tableName,
              Key: developerKeys.apiKeyCount(record.userId),
              UpdateExpression: 'ADD live :one SET entity = :entity',
              ConditionExpression: 'attribute_not_exists(live) OR live < :max',
              ExpressionAttributeValues: { ':one': 1, ':max': max, ':entity': 'apiKeyCount' },
            },
          },
          {
            Put: {
              TableName: tableName,
              Item: { ...developerKeys.apiKey(record.userId, record.id), entity, ...fields },
              ConditionExpression: 'attribute_not_exists(pk)',
            },
          },
          {
            Put: {
              TableName: tableName,
              Item: {
                ...developerKeys.apiKeyByHash(record.hash),
                entity: 'apiKeyHash',
                id: record.id,
                userId: record.userId,
                scopes: record.scopes,
                hash: record.hash,
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

    async listLive(userId) {
      return (await records(userId)).filter((record) => !record.revokedAt);
    },

    async revoke(userId, id, at) {
      const out = await client.send(
        new GetCommand({ TableName: tableName, Key: developerKeys.apiKey(userId, id), ConsistentRead: true }),
      );
      if (!out.Item) return false;
      const record = storedKeySchema.parse(out.Item);
      if (record.revokedAt) return false;
      try {
        await transactWrite(client, [
          {
            Update: {
              TableName: tableName,
              Key: developerKeys.apiKey(userId, id),
              UpdateExpression: 'SET revokedAt = :at, #ttl = :expires',
              ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(revokedAt)',
              ExpressionAttributeNames: { '#ttl': ttl },
              ExpressionAttributeValues: {
                ':at': at,
                ':expires': Math.floor(Date.parse(at) / 1000) + REVOKED_KEEP_SECONDS,
              },
            },
          },
          { Delete: { TableName: tableName, Key: developerKeys.apiKeyByHash(record.hash) } },
          {
            Update: {
              TableName: tableName,
              Key: developerKeys.apiKeyCount(userId),
              UpdateExpression: 'ADD live :minusOne',
              ConditionExpression: 'live > :zero',
              ExpressionAttributeValues: { ':minusOne': -1, ':zero': 0 },
            },
          },
        ]);
        return true;
      } catch (error) {
        if (isConditionFailure(error)) return false;
        throw error;
      }
    },

    async findByHash(hash) {
      const out = await client.send(
        new GetCommand({ TableName: tableName, Key: developerKeys.apiKeyByHash(hash), ConsistentRead: true }),
      );
      return out.Item ? lookupSchema.parse(out.Item) : undefined;
    },

    async touch(key, at, notBefore) {
      const update = (Key: Record<string, string>, extra: string) =>
        client
          .send(
            new UpdateCommand({
              TableName: tableName,
              Key,
              UpdateExpression: 'SET lastUsedAt = :at',
              // Never brings back an item a revoke deleted, nor writes twice in a minute.
              ConditionExpression: `attribute_exists(pk)${extra} AND (attribute_not_exists(lastUsedAt) OR lastUsedAt <= :notBefore)`,
              ExpressionAttributeValues: { ':at': at, ':notBefore': notBefore },
            }),
          )
          .catch((error: unknown) => {
            if (!isConditionFailure(error)) throw error;
          });
      await Promise.all([
        update(developerKeys.apiKeyByHash(key.hash), ''),
        update(developerKeys.apiKey(key.userId, key.id), ' AND attribute_not_exists(revokedAt)'),
      ]);
    },

    async removeAll(userId) {
      for (const record of await records(userId)) {
        await transactWrite(client, [
          { Delete: { TableName: tableName, Key: developerKeys.apiKeyByHash(record.hash) } },
          { Delete: { TableName: tableName, Key: developerKeys.apiKey(userId, record.id) } },
        ]);
      }
      await client.send(new DeleteCommand({ TableName: tableName, Key: developerKeys.apiKeyCount(userId) }));
    },
  };
}

import {
  BatchWriteCommand,
  DeleteCommand,
  type DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  QueryCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { webhookEvents } from '@tunesmith/shared/developer-api';
import * as z from 'zod/mini';
import { developerKeys } from '../../data/developer-keys';
import { tableDesign } from '../../data/keys';
import {
  WEBHOOK_LOG_DAYS,
  type WebhookDelivery,
  type WebhookDeliveryStore,
  type WebhookEndpoint,
  type WebhookEndpointStore,
} from '../../domain/developers/webhooks';
import { isConditionFailure } from './conditions';
import { transactWrite } from './transact';

const storedEndpointSchema = z.object({
  id: z.string(),
  userId: z.string(),
  url: z.string(),
  events: z.array(z.enum(webhookEvents)),
  secret: z.string(),
  createdAt: z.string(),
});

const storedDeliverySchema = z.object({
  id: z.string(),
  endpointId: z.string(),
  userId: z.string(),
  event: z.string(),
  eventId: z.string(),
  body: z.string(),
  status: z.enum(['pending', 'delivered', 'failed']),
  attempts: z.int(),
  responseStatus: z.nullable(z.int()),
  error: z.nullable(z.string()),
  nextAttemptAt: z.nullable(z.string()),
  createdAt: z.string(),
  updatedAt: z.string(),
});

const owner = tableDesign.indexes.byOwner;
const kind = tableDesign.indexes.byKind;
const ttl = tableDesign.ttlAttribute;
const DAY_SECONDS = 24 * 60 * 60;

const endpointOf = (item: Record<string, unknown>): WebhookEndpoint => storedEndpointSchema.parse(item);
const deliveryOf = (item: Record<string, unknown>): WebhookDelivery => storedDeliverySchema.parse(item);

/**
 * A user's webhook endpoints in their partition (`USER#id` / `WEBHOOK#id`),
 * and the count that holds the limit (`USER#id` / `WEBHOOK_COUNT`): an
 * endpoint is written in one transaction with the count's conditional
 * increment, so racing creates cannot pass it; a delete decrements it.
 */
export function dynamoWebhookEndpoints(
  client: DynamoDBDocumentClient,
  tableName: string,
): WebhookEndpointStore {
  const list = async (userId: string): Promise<WebhookEndpoint[]> => {
    const found: WebhookEndpoint[] = [];
    let start: Record<string, unknown> | undefined;
    do {
      const page = await client.send(
        new QueryCommand({
          TableName: tableName,
          KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
          ExpressionAttributeValues: {
            ':pk': developerKeys.webhookEndpoint(userId, '').pk,
            ':prefix': developerKeys.webhookEndpointPrefix,
          },
          ExclusiveStartKey: start,
        }),
      );
      for (const item of page.Items ?? []) found.push(endpointOf(item));
      start = page.LastEvaluatedKey;
    } while (start);
    return found.sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
  };

  const remove = async (userId: string, id: string): Promise<boolean> => {
    try {
      await transactWrite(client, [
        {
          Delete: {
            TableName: tableName,
            Key: developerKeys.webhookEndpoint(userId, id),
            ConditionExpression: 'attribute_exists(pk)',
          },
        },
        {
          Update: {
            TableName: tableName,
            Key: developerKeys.webhookCount(userId),
            UpdateExpression: 'ADD #count :minus',
            ConditionExpression: '#count > :zero',
            ExpressionAttributeNames: { '#count': 'count' },
            ExpressionAttributeValues: { ':minus': -1, ':zero': 0 },
          },
        },
      ]);
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  };

  return {
    async create(endpoint, max) {
      try {
        await transactWrite(client, [
          {
            Update: {
              TableName: tableName,
              Key: developerKeys.webhookCount(endpoint.userId),
              UpdateExpression: 'ADD #count :one',
              ConditionExpression: 'attribute_not_exists(#count) OR #count < :max',
              ExpressionAttributeNames: { '#count': 'count' },
              ExpressionAttributeValues: { ':one': 1, ':max': max },
            },
          },
          {
            Put: {
              TableName: tableName,
              Item: { ...developerKeys.webhookEndpoint(endpoint.userId, endpoint.id), ...endpoint },
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
    list,
    async get(userId, id) {
      const { Item } = await client.send(
        new GetCommand({ TableName: tableName, Key: developerKeys.webhookEndpoint(userId, id) }),
      );
      return Item ? endpointOf(Item) : undefined;
    },
    delete: remove,
    async removeUser(userId) {
      for (const endpoint of await list(userId)) await remove(userId, endpoint.id);
      await client.send(new DeleteCommand({ TableName: tableName, Key: developerKeys.webhookCount(userId) }));
    },
  };
}

/**
 * Deliveries (`WHDELIVERY#id`), listed per endpoint newest first in gsi1
 * (`WEBHOOK#endpointId` / `DELIVERY#createdAt#id`), found when due in gsi2
 * while pending (`WEBHOOKS_DUE` / `nextAttemptAt#id`, removed once delivered
 * or failed), and expiring WEBHOOK_LOG_DAYS after they were made.
 */
export function dynamoWebhookDeliveries(
  client: DynamoDBDocumentClient,
  tableName: string,
): WebhookDeliveryStore {
  const itemOf = (delivery: WebhookDelivery) => ({
    ...developerKeys.webhookDelivery(delivery.id),
    ...developerKeys.webhookDeliveryOwner(delivery.endpointId, delivery.createdAt, delivery.id),
    ...(delivery.status === 'pending' && delivery.nextAttemptAt
      ? developerKeys.webhookDeliveryDue(delivery.nextAttemptAt, delivery.id)
      : {}),
    ...delivery,
    [ttl]: Math.floor(Date.parse(delivery.createdAt) / 1000) + WEBHOOK_LOG_DAYS * DAY_SECONDS,
  });

  return {
    async put(delivery) {
      await client.send(new PutCommand({ TableName: tableName, Item: itemOf(delivery) }));
    },
    async get(id) {
      const { Item } = await client.send(
        new GetCommand({ TableName: tableName, Key: developerKeys.webhookDelivery(id) }),
      );
      return Item ? deliveryOf(Item) : undefined;
    },
    async listForEndpoint(endpointId, limit) {
      const { Items } = await client.send(
        new QueryCommand({
          TableName: tableName,
          IndexName: owner.indexName,
          KeyConditionExpression: '#pk = :pk AND begins_with(#sk, :prefix)',
          ExpressionAttributeNames: { '#pk': owner.partitionKey, '#sk': owner.sortKey },
          ExpressionAttributeValues: {
            ':pk': developerKeys.webhookDeliveryOwnerPartition(endpointId),
            ':prefix': 'DELIVERY#',
          },
          ScanIndexForward: false,
          Limit: limit,
        }),
      );
      return (Items ?? []).map(deliveryOf);
    },
    async due(now, limit) {
      const { Items } = await client.send(
        new QueryCommand({
          TableName: tableName,
          IndexName: kind.indexName,
          KeyConditionExpression: '#pk = :pk AND #sk < :upper',
          ExpressionAttributeNames: { '#pk': kind.partitionKey, '#sk': kind.sortKey },
          // Every key due at `now` sorts before `now#~` (ids are base62).
          ExpressionAttributeValues: { ':pk': developerKeys.webhooksDuePartition, ':upper': `${now}#~` },
          Limit: limit,
        }),
      );
      return (Items ?? []).map(deliveryOf);
    },
    async claim(id, attempts, leaseUntil) {
      try {
        await client.send(
          new UpdateCommand({
            TableName: tableName,
            Key: developerKeys.webhookDelivery(id),
            UpdateExpression: 'SET attempts = :next, nextAttemptAt = :lease, #due = :due',
            ConditionExpression: '#status = :pending AND attempts = :attempts',
            ExpressionAttributeNames: { '#status': 'status', '#due': kind.sortKey },
            ExpressionAttributeValues: {
              ':pending': 'pending',
              ':attempts': attempts,
              ':next': attempts + 1,
              ':lease': leaseUntil,
              ':due': developerKeys.webhookDeliveryDue(leaseUntil, id).gsi2sk,
            },
          }),
        );
        return true;
      } catch (error) {
        if (isConditionFailure(error)) return false;
        throw error;
      }
    },
    async deleteForEndpoint(endpointId) {
      let start: Record<string, unknown> | undefined;
      do {
        const page = await client.send(
          new QueryCommand({
            TableName: tableName,
            IndexName: owner.indexName,
            KeyConditionExpression: '#pk = :pk',
            ExpressionAttributeNames: { '#pk': owner.partitionKey },
            ExpressionAttributeValues: { ':pk': developerKeys.webhookDeliveryOwnerPartition(endpointId) },
            ProjectionExpression: 'pk, sk',
            ExclusiveStartKey: start,
          }),
        );
        const items = page.Items ?? [];
        for (let i = 0; i < items.length; i += 25) {
          let requests = items
            .slice(i, i + 25)
            .map((item) => ({ DeleteRequest: { Key: { pk: item.pk, sk: item.sk } } }));
          // What DynamoDB leaves unprocessed is sent again.
          while (requests.length) {
            const result = await client.send(
              new BatchWriteCommand({ RequestItems: { [tableName]: requests } }),
            );
            requests = (result.UnprocessedItems?.[tableName] ?? []) as typeof requests;
          }
        }
        start = page.LastEvaluatedKey;
      } while (start);
    },
  };
}

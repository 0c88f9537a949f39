import {
  DeleteCommand,
  type DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { developerKeys } from '../../data/developer-keys';
import type { IdempotencyRecord, IdempotencyStore } from '../../domain/developers/idempotency';
import { isConditionFailure } from './conditions';

/** How many times a claim is tried when the record it lost to vanished before it could be read. */
const CLAIM_TRIES = 3;

/**
 * Idempotency records (decision 055) in the single table, one item per key
 * owner and key, expiring through the table's TTL. DynamoDB deletes expired
 * items only eventually, so every condition also reads `expiresAt` itself.
 */
export function dynamoIdempotencyStore(client: DynamoDBDocumentClient, tableName: string): IdempotencyStore {
  return {
    async claim(userId, key, record, now) {
      const Key = developerKeys.idempotency(userId, key);
      for (let attempt = 0; attempt < CLAIM_TRIES; attempt++) {
        try {
          await client.send(
            new PutCommand({
              TableName: tableName,
              Item: { ...Key, entity: 'idempotency', ...record },
              ConditionExpression:
                'attribute_not_exists(pk) OR expiresAt <= :now OR (#status = :inProgress AND lockedUntil <= :now)',
              ExpressionAttributeNames: { '#status': 'status' },
              ExpressionAttributeValues: { ':now': now, ':inProgress': 'in_progress' },
            }),
          );
          return { claimed: true };
        } catch (error) {
          if (!isConditionFailure(error)) throw error;
        }
        const out = await client.send(new GetCommand({ TableName: tableName, Key, ConsistentRead: true }));
        if (out.Item) return { claimed: false, existing: recordFromItem(out.Item) };
      }
      throw new Error('Idempotency record changing too often to claim');
    },

    async complete(userId, key, requestHash, answer, expiresAt) {
      try {
        await client.send(
          new UpdateCommand({
            TableName: tableName,
            Key: developerKeys.idempotency(userId, key),
            UpdateExpression:
              'SET #status = :completed, answer = :answer, expiresAt = :expiresAt REMOVE lockedUntil',
            ConditionExpression: 'requestHash = :hash AND #status = :inProgress',
            ExpressionAttributeNames: { '#status': 'status' },
            ExpressionAttributeValues: {
              ':completed': 'completed',
              ':inProgress': 'in_progress',
              ':answer': answer,
              ':expiresAt': expiresAt,
              ':hash': requestHash,
            },
          }),
        );
      } catch (error) {
        if (!isConditionFailure(error)) throw error;
      }
    },

    async release(userId, key, requestHash) {
      try {
        await client.send(
          new DeleteCommand({
            TableName: tableName,
            Key: developerKeys.idempotency(userId, key),
            ConditionExpression: 'requestHash = :hash AND #status = :inProgress',
            ExpressionAttributeNames: { '#status': 'status' },
            ExpressionAttributeValues: { ':hash': requestHash, ':inProgress': 'in_progress' },
          }),
        );
      } catch (error) {
        if (!isConditionFailure(error)) throw error;
      }
    },
  };
}

function recordFromItem(item: Record<string, unknown>): IdempotencyRecord {
  const answer = item.answer as IdempotencyRecord['answer'] | undefined;
  return {
    status: item.status === 'completed' ? 'completed' : 'in_progress',
    requestHash: String(item.requestHash),
    expiresAt: Number(item.expiresAt),
    ...(typeof item.lockedUntil === 'number' ? { lockedUntil: item.lockedUntil } : {}),
    ...(answer ? { answer } : {}),
  };
}

import { type DynamoDBDocumentClient, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { keys } from '../../data/keys';
import type { RateLimiter } from '../../domain/accounts/ports';
import { isConditionFailure } from './conditions';

/**
 * Fixed-window counters: one item per key and window, incremented atomically
 * only while under the limit, expiring through TTL after the window.
 */
export function dynamoRateLimiter(
  client: DynamoDBDocumentClient,
  tableName: string,
  now: () => number = Date.now,
): RateLimiter {
  const windowOf = (windowSeconds: number) => {
    const seconds = Math.floor(now() / 1000);
    return seconds - (seconds % windowSeconds);
  };
  return {
    async count(key, windowSeconds) {
      const out = await client.send(
        new GetCommand({ TableName: tableName, Key: keys.rateCounter(key, windowOf(windowSeconds)) }),
      );
      return typeof out.Item?.count === 'number' ? out.Item.count : 0;
    },
    async add(key, windowSeconds) {
      const window = windowOf(windowSeconds);
      await client.send(
        new UpdateCommand({
          TableName: tableName,
          Key: keys.rateCounter(key, window),
          UpdateExpression: 'ADD #count :one SET expiresAt = :expires, entity = :entity',
          ExpressionAttributeNames: { '#count': 'count' },
          ExpressionAttributeValues: {
            ':one': 1,
            ':expires': window + windowSeconds + 60,
            ':entity': 'rate',
          },
        }),
      );
    },
    async hit(key, limit, windowSeconds) {
      const window = windowOf(windowSeconds);
      try {
        await client.send(
          new UpdateCommand({
            TableName: tableName,
            Key: keys.rateCounter(key, window),
            UpdateExpression: 'ADD #count :one SET expiresAt = :expires, entity = :entity',
            ConditionExpression: 'attribute_not_exists(#count) OR #count < :limit',
            ExpressionAttributeNames: { '#count': 'count' },
            ExpressionAttributeValues: {
              ':one': 1,
              ':limit': limit,
              ':expires': window + windowSeconds + 60,
              ':entity': 'rate',
            },
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

import { type DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';
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
  return {
    async hit(key, limit, windowSeconds) {
      const seconds = Math.floor(now() / 1000);
      const window = seconds - (seconds % windowSeconds);
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

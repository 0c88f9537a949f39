import { DeleteCommand, type DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
import { keys } from '../../data/keys';
import type { OneTimeTokens } from '../../domain/accounts/ports';

/**
 * One-time tokens keyed by their hash. Consuming deletes and returns the item
 * in one call, so a token works once even under concurrent use; the TTL
 * attribute cleans up the ones never used.
 */
export function dynamoTokenStore(client: DynamoDBDocumentClient, tableName: string): OneTimeTokens {
  return {
    async save(purpose, tokenHash, userId, expiresAt, data) {
      await client.send(
        new PutCommand({
          TableName: tableName,
          Item: {
            ...keys.oneTimeToken(purpose, tokenHash),
            entity: 'token',
            purpose,
            userId,
            expiresAt,
            ...(data === undefined ? {} : { data }),
          },
        }),
      );
    },
    async consume(purpose, tokenHash) {
      const out = await client.send(
        new DeleteCommand({
          TableName: tableName,
          Key: keys.oneTimeToken(purpose, tokenHash),
          ReturnValues: 'ALL_OLD',
        }),
      );
      const item = out.Attributes;
      if (!item || typeof item.userId !== 'string' || typeof item.expiresAt !== 'number') return undefined;
      return {
        userId: item.userId,
        expiresAt: item.expiresAt,
        ...(typeof item.data === 'string' ? { data: item.data } : {}),
      };
    },
  };
}

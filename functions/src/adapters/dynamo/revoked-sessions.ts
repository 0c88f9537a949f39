import { type DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { keys } from '../../data/keys';
import type { RevokedSessions } from '../../domain/accounts/ports';

/**
 * Ended access tokens by hash. The TTL attribute removes each once the token
 * has expired; until TTL gets to it, the expiry is checked here too.
 */
export function dynamoRevokedSessions(
  client: DynamoDBDocumentClient,
  tableName: string,
  now: () => number = Date.now,
): RevokedSessions {
  return {
    async revoke(tokenHash, expiresAt) {
      await client.send(
        new PutCommand({
          TableName: tableName,
          Item: { ...keys.revokedSession(tokenHash), entity: 'revoked-session', expiresAt },
        }),
      );
    },
    async isRevoked(tokenHash) {
      const out = await client.send(
        new GetCommand({ TableName: tableName, Key: keys.revokedSession(tokenHash), ConsistentRead: true }),
      );
      return endsItsToken(out.Item, now());
    },
  };
}

/** Whether a revoked-session item (if any) still ends its token at `now` (ms). */
export function endsItsToken(item: Record<string, unknown> | undefined, now: number): boolean {
  const expiresAt = item?.expiresAt;
  return typeof expiresAt === 'number' && expiresAt * 1000 > now;
}

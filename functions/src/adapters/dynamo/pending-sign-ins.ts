import { DeleteCommand, type DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod/mini';
import { keys } from '../../data/keys';
import type { PendingAdminSignIns } from '../../domain/accounts/admin';

const pendingSchema = z.object({
  username: z.string(),
  poolUsername: z.string(),
  step: z.enum(['setup', 'code']),
  session: z.string(),
  expiresAt: z.number(),
});

/**
 * Admin sign-ins waiting for their second factor, keyed by the hash of the
 * browser's challenge cookie; the TTL attribute removes the ones never
 * finished (the domain checks expiry itself, as TTL deletion is not prompt).
 */
export function dynamoPendingSignIns(client: DynamoDBDocumentClient, tableName: string): PendingAdminSignIns {
  return {
    async put(hash, pending) {
      await client.send(
        new PutCommand({
          TableName: tableName,
          Item: { ...keys.pendingAdminSignIn(hash), entity: 'admin-sign-in', ...pending },
        }),
      );
    },
    async get(hash) {
      const out = await client.send(
        new GetCommand({ TableName: tableName, Key: keys.pendingAdminSignIn(hash), ConsistentRead: true }),
      );
      return out.Item ? pendingSchema.parse(out.Item) : undefined;
    },
    async remove(hash) {
      await client.send(new DeleteCommand({ TableName: tableName, Key: keys.pendingAdminSignIn(hash) }));
    },
  };
}

import { type DynamoDBDocumentClient, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod/mini';
import { keys } from '../../data/keys';
import type { AdminRepository } from '../../domain/accounts/admin';
import { conflict } from '../../domain/errors';
import { setClause } from './client';
import { isConditionFailure } from './conditions';

export const adminSchema = z.object({
  id: z.string(),
  username: z.string(),
  email: z.nullable(z.string()),
  role: z.string(),
  isActive: z.boolean(),
  lastLoginAt: z.nullable(z.string()),
  sessionsValidAfter: z.number(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

/** Administrator profiles, one item per username beside the admin pool. */
export function dynamoAdminRepository(client: DynamoDBDocumentClient, tableName: string): AdminRepository {
  return {
    async getByUsername(username) {
      const out = await client.send(
        new GetCommand({ TableName: tableName, Key: keys.admin(username), ConsistentRead: true }),
      );
      return out.Item ? adminSchema.parse(out.Item) : undefined;
    },
    async create(admin) {
      try {
        await client.send(
          new PutCommand({
            TableName: tableName,
            Item: { ...keys.admin(admin.username), entity: 'admin', ...admin },
            ConditionExpression: 'attribute_not_exists(pk)',
          }),
        );
      } catch (error) {
        if (isConditionFailure(error)) {
          throw conflict(`Admin ${admin.username} already exists.`);
        }
        throw error;
      }
    },
    async update(username, changes) {
      const clause = setClause(changes);
      if (!clause) return;
      await client.send(
        new UpdateCommand({
          TableName: tableName,
          Key: keys.admin(username),
          ConditionExpression: 'attribute_exists(pk)',
          ...clause,
        }),
      );
    },
  };
}

import {
  type DynamoDBDocumentClient,
  GetCommand,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { BILLING_CYCLES, planStatuses } from '@tunesmith/shared/constants';
import * as z from 'zod/mini';
import { keys } from '../../data/keys';
import type { User } from '../../domain/accounts/user';
import type { AdminUserStore } from '../../domain/admin/ports';
import { normaliseSearch, searchFields, userSearchTokens } from '../../domain/admin/search';
import { conflict } from '../../domain/errors';
import { setClause } from './client';
import { isConditionFailure } from './conditions';
import { dayUpdate, totalsUpdate } from './counters';
import { transactWrite } from './transact';

const userSchema = z.object({
  id: z.string(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  emailVerified: z.boolean(),
  planStatus: z.enum(planStatuses),
  subscriptionPlanId: z.nullable(z.string()),
  stripeCustomerId: z.nullable(z.string()),
  stripeSubscriptionId: z.nullable(z.string()),
  generationsUsedThisMonth: z.int(),
  quotaWindowStart: z.optional(z.string()),
  planStartDate: z.nullable(z.string()),
  planEndDate: z.nullable(z.string()),
  // Profiles written before billing carry neither.
  billingCycle: z._default(z.nullable(z.enum(BILLING_CYCLES)), null),
  billingObservedAt: z._default(z.nullable(z.string()), null),
  sessionsValidAfter: z.number(),
  suspended: z.optional(z.boolean()),
  createdAt: z.string(),
  updatedAt: z.string(),
});

const toItem = (user: User) => ({
  ...keys.user(user.id),
  ...keys.userKind(user.createdAt, user.id),
  ...(user.subscriptionPlanId ? keys.planMember(user.subscriptionPlanId, user.id) : {}),
  entity: 'user',
  ...user,
});

/** The search entries that find a user by the start of their email or names (gsi1). */
function searchEntries(user: Pick<User, 'id' | 'email' | 'firstName' | 'lastName'>) {
  const tokens = userSearchTokens(user);
  return searchFields.map((field) => ({
    ...keys.userSearch(user.id, field),
    ...keys.userSearchIndex(tokens[field], user.id),
    entity: 'user-search',
    userId: user.id,
  }));
}

/** Transaction puts of a user's search entries. */
export function searchItems(tableName: string, user: Pick<User, 'id' | 'email' | 'firstName' | 'lastName'>) {
  return searchEntries(user).map((Item) => ({ Put: { TableName: tableName, Item } }));
}

const claimItem = (email: string, userId: string) => ({
  ...keys.emailClaim(email),
  entity: 'email-claim',
  userId,
});

/**
 * Every item that records a user (profile, email claim, search entries), for
 * loading many users at once; `create` writes the same items with its checks.
 */
export const userRecordItems = (user: User) => [
  toItem(user),
  claimItem(user.email, user.id),
  ...searchEntries(user),
];

const present = <T>(item: T | undefined): item is T => item !== undefined;

const emailTaken = () => conflict('An account with this email already exists.');

/** User profiles plus one claim item per email, written together in transactions. */
export { userSchema };

export function dynamoUserRepository(client: DynamoDBDocumentClient, tableName: string): AdminUserStore {
  const get = async (id: string) => {
    const out = await client.send(
      new GetCommand({ TableName: tableName, Key: keys.user(id), ConsistentRead: true }),
    );
    return out.Item ? userSchema.parse(out.Item) : undefined;
  };
  return {
    get,
    async findByEmail(email) {
      const claim = await client.send(
        new GetCommand({ TableName: tableName, Key: keys.emailClaim(email), ConsistentRead: true }),
      );
      const userId = claim.Item?.userId;
      return typeof userId === 'string' ? get(userId) : undefined;
    },
    async create(user) {
      try {
        await transactWrite(client, [
          {
            Put: {
              TableName: tableName,
              Item: claimItem(user.email, user.id),
              ConditionExpression: 'attribute_not_exists(pk)',
            },
          },
          {
            Put: {
              TableName: tableName,
              Item: toItem(user),
              ConditionExpression: 'attribute_not_exists(pk)',
            },
          },
          ...searchItems(tableName, user),
          ...[
            totalsUpdate(tableName, { users: 1 }),
            dayUpdate(tableName, user.createdAt, { newUsers: 1 }),
          ].filter(present),
        ]);
      } catch (error) {
        if (isConditionFailure(error)) throw emailTaken();
        throw error;
      }
    },
    async changeEmail(id, from, to, updatedAt) {
      try {
        await client.send(
          new TransactWriteCommand({
            TransactItems: [
              {
                Put: {
                  TableName: tableName,
                  Item: claimItem(to, id),
                  ConditionExpression: 'attribute_not_exists(pk)',
                },
              },
              {
                Delete: {
                  TableName: tableName,
                  Key: keys.emailClaim(from),
                  ConditionExpression: 'userId = :id',
                  ExpressionAttributeValues: { ':id': id },
                },
              },
              {
                Update: {
                  TableName: tableName,
                  Key: keys.user(id),
                  UpdateExpression: 'SET email = :to, updatedAt = :at',
                  ConditionExpression: 'email = :from',
                  ExpressionAttributeValues: { ':to': to, ':from': from, ':at': updatedAt },
                },
              },
              {
                Put: {
                  TableName: tableName,
                  Item: {
                    ...keys.userSearch(id, 'email'),
                    ...keys.userSearchIndex(normaliseSearch(to), id),
                    entity: 'user-search',
                    userId: id,
                  },
                },
              },
            ],
          }),
        );
      } catch (error) {
        if (isConditionFailure(error)) throw emailTaken();
        throw error;
      }
    },
    async update(id, changes) {
      const clause = setClause(changes);
      if (!clause) return;
      await client.send(
        new UpdateCommand({
          TableName: tableName,
          Key: keys.user(id),
          ConditionExpression: 'attribute_exists(pk)',
          ...clause,
        }),
      );
    },
    async rename(user, names, updatedAt) {
      const renamed = { ...user, ...names };
      await client.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Update: {
                TableName: tableName,
                Key: keys.user(user.id),
                UpdateExpression: 'SET firstName = :first, lastName = :last, updatedAt = :at',
                ConditionExpression: 'attribute_exists(pk)',
                ExpressionAttributeValues: {
                  ':first': names.firstName,
                  ':last': names.lastName,
                  ':at': updatedAt,
                },
              },
            },
            ...searchItems(tableName, renamed).filter((item) => !item.Put.Item.sk.endsWith('#email')),
          ],
        }),
      );
    },
    async delete(user) {
      try {
        await transactWrite(client, [
          // The counter moves only with the profile it counted.
          {
            Delete: {
              TableName: tableName,
              Key: keys.user(user.id),
              ConditionExpression: 'attribute_exists(pk)',
            },
          },
          {
            Delete: {
              TableName: tableName,
              Key: keys.emailClaim(user.email),
              ConditionExpression: 'attribute_not_exists(pk) OR userId = :id',
              ExpressionAttributeValues: { ':id': user.id },
            },
          },
          ...searchFields.map((field) => ({
            Delete: { TableName: tableName, Key: keys.userSearch(user.id, field) },
          })),
          ...[totalsUpdate(tableName, { users: -1 })].filter(present),
        ]);
      } catch (error) {
        // Already deleted: nothing to do.
        if (!isConditionFailure(error)) throw error;
      }
    },
  };
}

import {
  DeleteCommand,
  type DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { keys, tableDesign } from '../../data/keys';
import type { BillingAccounts, EventReceipts } from '../../domain/billing/ports';
import { type BillingState, pickBilling } from '../../domain/billing/subscription';
import { isConditionFailure } from './conditions';
import { dynamoUserRepository } from './user-repository';

/** Attempts at a billing compare-and-set before giving up (each loses only to a concurrent write). */
const MAX_ATTEMPTS = 8;

/** The billing fields a compare-and-set compares: every one `change` is given. */
const COMPARED = [
  'planStatus',
  'subscriptionPlanId',
  'stripeSubscriptionId',
  'billingCycle',
  'planStartDate',
  'planEndDate',
  'billingObservedAt',
] as const satisfies readonly (keyof BillingState)[];

/**
 * A condition that holds while the stored billing fields are still `read`
 * (a null field is also absent in older items).
 */
function unchangedSince(read: BillingState): {
  condition: string;
  names: Record<string, string>;
  values: Record<string, unknown>;
} {
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const parts = COMPARED.map((field, index) => {
    names[`#c${index}`] = field;
    const value = read[field];
    if (value === null) {
      values[':nullType'] = 'NULL';
      return `(attribute_not_exists(#c${index}) OR attribute_type(#c${index}, :nullType))`;
    }
    values[`:c${index}`] = value;
    return `#c${index} = :c${index}`;
  });
  return { condition: ['attribute_exists(pk)', ...parts].join(' AND '), names, values };
}

/**
 * Billing on user profiles: compare-and-set on the billing fields (the
 * webhook's readings and an administrator's grant both write them, so each
 * decides on what is stored when it writes), and one directory item per
 * Stripe customer, written in the same transaction as the profile's
 * `stripeCustomerId`.
 */
export function dynamoBillingAccounts(client: DynamoDBDocumentClient, tableName: string): BillingAccounts {
  const users = dynamoUserRepository(client, tableName);
  const member = tableDesign.indexes.byOwner;

  const userOfCustomer = async (customerId: string) => {
    const out = await client.send(
      new GetCommand({ TableName: tableName, Key: keys.paymentCustomer(customerId), ConsistentRead: true }),
    );
    const userId = out.Item?.userId;
    return typeof userId === 'string' ? userId : undefined;
  };

  return {
    get: (userId) => users.get(userId),

    async updateBilling(userId, change) {
      for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
        const user = await users.get(userId);
        if (!user) return undefined;
        const current: BillingState = { ...pickBilling(user), billingObservedAt: user.billingObservedAt };
        const next = change(current);
        if (!next) return current;
        const unchanged = unchangedSince(current);
        try {
          await client.send(
            new UpdateCommand({
              TableName: tableName,
              Key: keys.user(userId),
              // The plan-membership keys (gsi1) follow the plan, so who is on a plan is a query.
              UpdateExpression:
                'SET planStatus = :status, subscriptionPlanId = :plan, stripeSubscriptionId = :sub, ' +
                'billingCycle = :cycle, planStartDate = :start, planEndDate = :end, #observed = :observed, ' +
                `updatedAt = :at${next.subscriptionPlanId ? ', #mpk = :mpk, #msk = :msk' : ' REMOVE #mpk, #msk'}`,
              ConditionExpression: unchanged.condition,
              ExpressionAttributeNames: {
                ...unchanged.names,
                '#observed': 'billingObservedAt',
                '#mpk': member.partitionKey,
                '#msk': member.sortKey,
              },
              ExpressionAttributeValues: {
                ...unchanged.values,
                ':status': next.planStatus,
                ':plan': next.subscriptionPlanId,
                ':sub': next.stripeSubscriptionId,
                ':cycle': next.billingCycle,
                ':start': next.planStartDate,
                ':end': next.planEndDate,
                ':observed': next.billingObservedAt,
                ':at': new Date().toISOString(),
                ...(next.subscriptionPlanId
                  ? (({ gsi1pk, gsi1sk }) => ({ ':mpk': gsi1pk, ':msk': gsi1sk }))(
                      keys.planMember(next.subscriptionPlanId, userId),
                    )
                  : {}),
              },
            }),
          );
          return next;
        } catch (error) {
          if (!isConditionFailure(error)) throw error;
        }
      }
      throw new Error(`Billing of user ${userId} kept changing under ${MAX_ATTEMPTS} attempts`);
    },

    async linkCustomer(userId, customerId) {
      try {
        await client.send(
          new TransactWriteCommand({
            TransactItems: [
              {
                Update: {
                  TableName: tableName,
                  Key: keys.user(userId),
                  UpdateExpression: 'SET stripeCustomerId = :customer',
                  ConditionExpression:
                    'attribute_exists(pk) AND (attribute_type(stripeCustomerId, :nullType) OR ' +
                    'attribute_not_exists(stripeCustomerId) OR stripeCustomerId = :customer)',
                  ExpressionAttributeValues: { ':customer': customerId, ':nullType': 'NULL' },
                },
              },
              {
                Put: {
                  TableName: tableName,
                  Item: { ...keys.paymentCustomer(customerId), entity: 'payment-customer', userId },
                  ConditionExpression: 'attribute_not_exists(pk) OR userId = :user',
                  ExpressionAttributeValues: { ':user': userId },
                },
              },
            ],
          }),
        );
        return customerId;
      } catch (error) {
        if (!isConditionFailure(error)) throw error;
        // The profile already holds another customer (or this one belongs to someone else): the first link stands.
        const user = await users.get(userId);
        return user?.stripeCustomerId ?? customerId;
      }
    },

    userOfCustomer,

    async swapCheckoutSession(userId, sessionId) {
      // One update returns what it replaced, so of two concurrent Checkouts each learns the other's page.
      const out = await client.send(
        new UpdateCommand({
          TableName: tableName,
          Key: keys.user(userId),
          UpdateExpression: 'SET checkoutSessionId = :session',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeValues: { ':session': sessionId },
          ReturnValues: 'UPDATED_OLD',
        }),
      );
      const previous = out.Attributes?.checkoutSessionId;
      return typeof previous === 'string' ? previous : undefined;
    },

    async checkoutSessionOf(userId) {
      const out = await client.send(
        new GetCommand({
          TableName: tableName,
          Key: keys.user(userId),
          ConsistentRead: true,
          ProjectionExpression: 'checkoutSessionId',
        }),
      );
      const session = out.Item?.checkoutSessionId;
      return typeof session === 'string' ? session : undefined;
    },
  };
}

/**
 * Receipts of Stripe events: `handling` while claimed (expiring with the
 * lease), `handled` once done (expiring after the retention), through the
 * table's TTL attribute. TTL deletes lazily (DynamoDB Local not at all), so
 * the claim itself treats an expired receipt as absent.
 */
export function dynamoEventReceipts(client: DynamoDBDocumentClient, tableName: string): EventReceipts {
  return {
    async claim(eventId, now, leaseSeconds) {
      try {
        await client.send(
          new PutCommand({
            TableName: tableName,
            Item: {
              ...keys.paymentEventReceipt(eventId),
              entity: 'payment-event',
              state: 'handling',
              claimedAt: now,
              expiresAt: now + leaseSeconds,
            },
            // A claim expires with its lease, a handled receipt with its TTL.
            ConditionExpression: 'attribute_not_exists(pk) OR expiresAt <= :now',
            ExpressionAttributeValues: { ':now': now },
          }),
        );
        return true;
      } catch (error) {
        if (isConditionFailure(error)) return false;
        throw error;
      }
    },
    async complete(eventId, expiresAt) {
      await client.send(
        new UpdateCommand({
          TableName: tableName,
          Key: keys.paymentEventReceipt(eventId),
          UpdateExpression: 'SET #state = :handled, expiresAt = :expires',
          ExpressionAttributeNames: { '#state': 'state' },
          ExpressionAttributeValues: { ':handled': 'handled', ':expires': expiresAt },
        }),
      );
    },
    async release(eventId) {
      await client
        .send(
          new DeleteCommand({
            TableName: tableName,
            Key: keys.paymentEventReceipt(eventId),
            ConditionExpression: '#state = :handling',
            ExpressionAttributeNames: { '#state': 'state' },
            ExpressionAttributeValues: { ':handling': 'handling' },
          }),
        )
        .catch((error: unknown) => {
          if (!isConditionFailure(error)) throw error;
        });
    },
  };
}

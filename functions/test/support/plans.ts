import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { keys } from '../../src/data/keys';
import type { direct } from './direct';

/**
 * Puts a user on a paid plan of the seed (Basic by default) with an active
 * subscription, as the billing webhook would, straight in the table.
 */
export async function subscribe(
  store: ReturnType<typeof direct>,
  userId: string,
  planId: 'basic' | 'premium' = 'basic',
): Promise<void> {
  await store.documents.send(
    new UpdateCommand({
      TableName: store.tableName,
      Key: keys.user(userId),
      UpdateExpression: 'SET planStatus = :status, subscriptionPlanId = :plan, planStartDate = :now',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: { ':status': 'active', ':plan': planId, ':now': new Date().toISOString() },
    }),
  );
}

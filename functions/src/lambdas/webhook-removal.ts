import { dynamo } from '../adapters/dynamo/client';
import { dynamoWebhookDeliveries, dynamoWebhookEndpoints } from '../adapters/dynamo/webhook-store';
import { deleteUserWebhooks } from '../domain/developers/webhooks';

/** Deleting an account: the user's webhook endpoints and their deliveries, from the table only. */
export function webhookRemoval(): { removeAll(userId: string): Promise<void> } {
  const { client, tableName } = dynamo();
  const deps = {
    endpoints: dynamoWebhookEndpoints(client, tableName),
    deliveries: dynamoWebhookDeliveries(client, tableName),
  };
  return {
    removeAll: async (userId) => {
      await deleteUserWebhooks(deps, userId);
    },
  };
}

import type { GroupHandlers } from '../http/group-handler';
import { lazyRoutes } from '../http/group-handler';

/**
 * The `developers` group's webhook routes (decision 053): their code (the
 * table's stores, the sender) loads with the first call of one of them.
 */
export function webhookEndpointHandlers(): GroupHandlers {
  return lazyRoutes(
    [
      'createWebhookEndpoint',
      'listWebhookEndpoints',
      'deleteWebhookEndpoint',
      'listWebhookDeliveries',
      'sendWebhookTestEvent',
    ],
    async () => {
      const [{ webhookEndpointRoutes }, { webhookDeps }] = await Promise.all([
        import('../http/routes/webhook-endpoints'),
        import('./webhook-deps'),
      ]);
      return webhookEndpointRoutes(webhookDeps());
    },
  );
}

import type { GroupHandlers } from '../http/group-handler';
import { lazyRoutes } from '../http/group-handler';
import type { TrackEvents } from '../workflow/steps';

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

/** The workflow's track events: recorded for the owner's webhooks and their delivery started. */
export function trackEventsFromEnv(log?: {
  warn(message: string, fields: Record<string, unknown>): void;
}): TrackEvents {
  return {
    async raise(type, generation) {
      const [{ raiseTrackEvent }, { webhookDeps }] = await Promise.all([
        import('../domain/developers/webhooks'),
        import('./webhook-deps'),
      ]);
      return raiseTrackEvent(webhookDeps(), type, generation, log);
    },
  };
}

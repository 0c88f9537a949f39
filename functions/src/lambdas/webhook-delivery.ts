/**
 * The webhook delivery function (decision 053): started with the deliveries
 * of an event just raised (`{ kind: 'webhook-deliveries', deliveryIds }`), and
 * every minute by its schedule (any other event: it sends every delivery
 * due). A failed try is recorded with its next time, not thrown; the
 * function fails only when it cannot read or write the table, and an event
 * that fails Lambda's retries goes to the function's own dead-letter queue.
 */
import { deliverWebhooks, deliveryIdsOf } from '../domain/developers/webhooks';
import { logger } from '../http/logger';
import { webhookDeps } from './webhook-deps';

export const handler = async (event: unknown): Promise<{ tried: number; delivered: number }> => {
  const ids = deliveryIdsOf(event);
  const outcome = await deliverWebhooks(webhookDeps(), ids);
  if (outcome.tried) logger.info('webhooks', { ...outcome, scheduled: ids === undefined });
  return outcome;
};

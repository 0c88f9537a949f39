import {
  createdWebhookSchema,
  createWebhookSchema,
  webhookDeliveryListSchema,
  webhookDeliverySchema,
  webhookEndpointListSchema,
} from '@tunesmith/shared/developer-api';
import type { User } from '../../domain/accounts/user';
import {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  listWebhookDeliveries,
  listWebhookEndpoints,
  sendWebhookTestEvent,
  type WebhookDeps,
} from '../../domain/developers/webhooks';
import type { GroupHandlers } from '../group-handler';
import { readJson } from '../request';
import { json } from '../responses';

export type WebhookEndpointRouteDeps = Pick<
  WebhookDeps,
  'endpoints' | 'deliveries' | 'sender' | 'clock' | 'allowLoopback'
>;

/**
 * Profile → Developers, webhooks (decision 053): a user's endpoints, each
 * one's delivery log, and "Send test event". Only the owner reaches an
 * endpoint; any other id is a 404.
 */
export function webhookEndpointRoutes(deps: WebhookEndpointRouteDeps): GroupHandlers {
  const userOf = (ctx: { user?: unknown }) => (ctx.user as User).id;
  return {
    createWebhookEndpoint: async (event, ctx) => {
      const input = readJson(event, createWebhookSchema);
      const created = await createWebhookEndpoint(deps, userOf(ctx), input);
      return json(201, createdWebhookSchema.parse(created));
    },
    listWebhookEndpoints: async (_event, ctx) =>
      json(
        200,
        webhookEndpointListSchema.parse({ endpoints: await listWebhookEndpoints(deps, userOf(ctx)) }),
      ),
    deleteWebhookEndpoint: async (_event, ctx) => {
      await deleteWebhookEndpoint(deps, userOf(ctx), ctx.params.id ?? '');
      return { statusCode: 204, headers: { 'cache-control': 'no-store' } };
    },
    listWebhookDeliveries: async (_event, ctx) =>
      json(
        200,
        webhookDeliveryListSchema.parse({
          deliveries: await listWebhookDeliveries(deps, userOf(ctx), ctx.params.id ?? ''),
        }),
      ),
    sendWebhookTestEvent: async (_event, ctx) =>
      json(
        200,
        webhookDeliverySchema.parse(await sendWebhookTestEvent(deps, userOf(ctx), ctx.params.id ?? '')),
      ),
  };
}

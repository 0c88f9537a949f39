/** The `webhooks` route group's calls (`../api-routes.ts`). */
import type { RouteDef } from '../api-routes';

export const stripeWebhook = {
  id: 'stripeWebhook',
  group: 'webhooks',
  method: 'POST',
  path: '/api/webhooks/stripe',
  auth: 'webhook',
} as const satisfies RouteDef;
// The music provider's signed completion callback (DESIGN: Generation).
export const falWebhook = {
  id: 'falWebhook',
  group: 'webhooks',
  method: 'POST',
  path: '/api/webhooks/fal',
  auth: 'webhook',
} as const satisfies RouteDef;

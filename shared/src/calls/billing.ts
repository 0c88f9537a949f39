/** The `billing` route group's calls (`../api-routes.ts`). */
import type { RouteDef } from '../api-routes';

// Billing
export const createCheckoutSession = {
  id: 'createCheckoutSession',
  group: 'billing',
  method: 'POST',
  path: '/api/stripe/create-checkout-session',
  auth: 'user',
} as const satisfies RouteDef;
export const createPortalSession = {
  id: 'createPortalSession',
  group: 'billing',
  method: 'POST',
  path: '/api/stripe/create-portal-session',
  auth: 'user',
} as const satisfies RouteDef;
export const cancelSubscription = {
  id: 'cancelSubscription',
  group: 'billing',
  method: 'POST',
  path: '/api/stripe/cancel-subscription',
  auth: 'user',
} as const satisfies RouteDef;

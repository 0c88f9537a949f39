/**
 * The `developers` route group's calls (`../api-routes.ts`): a user's API keys
 * and webhook endpoints, managed from Profile → Developers (decision 052).
 */
import type { RouteDef } from '../api-routes';

export const createApiKey = {
  id: 'createApiKey',
  group: 'developers',
  method: 'POST',
  path: '/api/user/api-keys',
  auth: 'user',
} as const satisfies RouteDef;
export const listApiKeys = {
  id: 'listApiKeys',
  group: 'developers',
  method: 'GET',
  path: '/api/user/api-keys',
  auth: 'user',
} as const satisfies RouteDef;
export const revokeApiKey = {
  id: 'revokeApiKey',
  group: 'developers',
  method: 'DELETE',
  path: '/api/user/api-keys/{id}',
  auth: 'user',
} as const satisfies RouteDef;
export const createWebhookEndpoint = {
  id: 'createWebhookEndpoint',
  group: 'developers',
  method: 'POST',
  path: '/api/user/webhooks',
  auth: 'user',
} as const satisfies RouteDef;
export const listWebhookEndpoints = {
  id: 'listWebhookEndpoints',
  group: 'developers',
  method: 'GET',
  path: '/api/user/webhooks',
  auth: 'user',
} as const satisfies RouteDef;
export const deleteWebhookEndpoint = {
  id: 'deleteWebhookEndpoint',
  group: 'developers',
  method: 'DELETE',
  path: '/api/user/webhooks/{id}',
  auth: 'user',
} as const satisfies RouteDef;
export const listWebhookDeliveries = {
  id: 'listWebhookDeliveries',
  group: 'developers',
  method: 'GET',
  path: '/api/user/webhooks/{id}/deliveries',
  auth: 'user',
} as const satisfies RouteDef;
export const sendWebhookTestEvent = {
  id: 'sendWebhookTestEvent',
  group: 'developers',
  method: 'POST',
  path: '/api/user/webhooks/{id}/test',
  auth: 'user',
} as const satisfies RouteDef;

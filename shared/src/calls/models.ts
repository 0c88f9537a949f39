/**
 * Choosing a model (decision 051): the models on offer (the catalog group)
 * and their settings in the admin area. A module of their own, so the
 * visitor's first code does not gain them.
 */
import type { RouteDef } from '../api-routes';

// The models that are on, with their limits, cost and whether the caller's plan offers them.
export const listModels = {
  id: 'listModels',
  group: 'catalog',
  method: 'GET',
  path: '/api/models',
  auth: 'public',
} as const satisfies RouteDef;
// The registry, the settings in force and this week's use of each model.
export const adminGetModels = {
  id: 'adminGetModels',
  group: 'admin',
  method: 'GET',
  path: '/api/admin/models',
  auth: 'admin',
} as const satisfies RouteDef;
// The whole settings document, validated and audited.
export const adminUpdateModels = {
  id: 'adminUpdateModels',
  group: 'admin',
  method: 'PUT',
  path: '/api/admin/models',
  auth: 'admin',
} as const satisfies RouteDef;

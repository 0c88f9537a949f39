/**
 * The `api-v1` route group's calls (`../api-routes.ts`): the versioned API for
 * developers, called with an API key and never with a browser session
 * (decision 052). Each route's bodies and answers are in `../developer-api.ts`,
 * from which `GET /api/v1/openapi.json` is generated.
 */
import type { RouteDef } from '../api-routes';

export const v1OpenApi = {
  id: 'v1OpenApi',
  group: 'api-v1',
  method: 'GET',
  path: '/api/v1/openapi.json',
  auth: 'public',
} as const satisfies RouteDef;
export const v1CreateTrack = {
  id: 'v1CreateTrack',
  group: 'api-v1',
  method: 'POST',
  path: '/api/v1/tracks',
  auth: 'key',
  scope: 'generate',
} as const satisfies RouteDef;
export const v1ListTracks = {
  id: 'v1ListTracks',
  group: 'api-v1',
  method: 'GET',
  path: '/api/v1/tracks',
  auth: 'key',
  scope: 'read',
} as const satisfies RouteDef;
export const v1GetTrack = {
  id: 'v1GetTrack',
  group: 'api-v1',
  method: 'GET',
  path: '/api/v1/tracks/{id}',
  auth: 'key',
  scope: 'read',
} as const satisfies RouteDef;
export const v1CreateUpload = {
  id: 'v1CreateUpload',
  group: 'api-v1',
  method: 'POST',
  path: '/api/v1/uploads',
  auth: 'key',
  scope: 'generate',
} as const satisfies RouteDef;
export const v1ExtendTrack = {
  id: 'v1ExtendTrack',
  group: 'api-v1',
  method: 'POST',
  path: '/api/v1/tracks/{id}/extend',
  auth: 'key',
  scope: 'generate',
} as const satisfies RouteDef;
export const v1RepaintTrack = {
  id: 'v1RepaintTrack',
  group: 'api-v1',
  method: 'POST',
  path: '/api/v1/tracks/{id}/repaint',
  auth: 'key',
  scope: 'generate',
} as const satisfies RouteDef;
export const v1CreateVariation = {
  id: 'v1CreateVariation',
  group: 'api-v1',
  method: 'POST',
  path: '/api/v1/tracks/{id}/variation',
  auth: 'key',
  scope: 'generate',
} as const satisfies RouteDef;

/**
 * A track's stems (issue 36): asking for them (the owner; one of the week's
 * generations), reading them (whoever may see the track) and the paid plans'
 * zip. The route groups are those of the calls beside them.
 */
import type { RouteDef } from '../api-routes';

export const requestStems = {
  id: 'requestStems',
  group: 'generation',
  method: 'POST',
  path: '/api/generation/{id}/stems',
  auth: 'user',
} as const satisfies RouteDef;
export const getTrackStems = {
  id: 'getTrackStems',
  group: 'catalog',
  method: 'GET',
  path: '/api/track/{id}/stems',
  auth: 'public',
} as const satisfies RouteDef;
// The stems as one zip (`stems/{name}.wav`, `manifest.json`), for plans with downloads: a short-lived link,
// as the track's own download answers.
export const downloadStems = {
  id: 'downloadStems',
  group: 'generation',
  method: 'GET',
  path: '/api/generation/{id}/stems/download',
  auth: 'user',
} as const satisfies RouteDef;

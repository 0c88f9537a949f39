/**
 * A track's stems (decision 044): asking for them and their zip (the
 * generation group), reading them (the catalog group). A module of their own,
 * so the track page's stems code does not share a chunk with the catalog
 * calls every visitor's first code makes.
 */
import type { RouteDef } from '../api-routes';

// A track's stems (decision 044), for whoever may see the track.
export const getTrackStems = {
  id: 'getTrackStems',
  group: 'catalog',
  method: 'GET',
  path: '/api/track/{id}/stems',
  auth: 'public',
} as const satisfies RouteDef;
// Separate the owner's finished track, and download its stems as one zip.
export const requestStems = {
  id: 'requestStems',
  group: 'generation',
  method: 'POST',
  path: '/api/generation/{id}/stems',
  auth: 'user',
} as const satisfies RouteDef;
export const downloadStems = {
  id: 'downloadStems',
  group: 'generation',
  method: 'GET',
  path: '/api/generation/{id}/stems/download',
  auth: 'user',
} as const satisfies RouteDef;

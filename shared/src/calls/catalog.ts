/** The `catalog` route group's calls (`../api-routes.ts`). */
import type { RouteDef } from '../api-routes';

// Public catalogue
export const listPlans = {
  id: 'listPlans',
  group: 'catalog',
  method: 'GET',
  path: '/api/plans',
  auth: 'public',
} as const satisfies RouteDef;
export const listPublicTracks = {
  id: 'listPublicTracks',
  group: 'catalog',
  method: 'GET',
  path: '/api/public-tracks',
  auth: 'public',
} as const satisfies RouteDef;
export const getTrack = {
  id: 'getTrack',
  group: 'catalog',
  method: 'GET',
  path: '/api/track/{id}',
  auth: 'public',
} as const satisfies RouteDef;
// What made a track and what its owner may do with it; visible to whoever may see the track.
export const getTrackProvenance = {
  id: 'getTrackProvenance',
  group: 'catalog',
  method: 'GET',
  path: '/api/track/{id}/provenance',
  auth: 'public',
} as const satisfies RouteDef;
// Not in the spec's call table: the track's lyrics in time (`?format=lrc`: as an .lrc file), for whoever may
// see the track.
export const getTrackLyrics = {
  id: 'getTrackLyrics',
  group: 'catalog',
  method: 'GET',
  path: '/api/track/{id}/lyrics',
  auth: 'public',
} as const satisfies RouteDef;
// Not in the spec's call table: a shared link's og:audio, a 302 to a fresh signed link (decision 024).
export const getTrackAudio = {
  id: 'getTrackAudio',
  group: 'catalog',
  method: 'GET',
  path: '/api/track/{id}/audio',
  auth: 'public',
} as const satisfies RouteDef;
// The same for a HEAD: a link preview may check the audio before it offers it, and API Gateway answers a
// HEAD only on a route of its own.
export const headTrackAudio = {
  id: 'headTrackAudio',
  group: 'catalog',
  method: 'HEAD',
  path: '/api/track/{id}/audio',
  auth: 'public',
} as const satisfies RouteDef;
// Not in the spec's call table: how the site names itself (Site Settings, General) for every screen.
export const getSite = {
  id: 'getSite',
  group: 'catalog',
  method: 'GET',
  path: '/api/site',
  auth: 'public',
} as const satisfies RouteDef;

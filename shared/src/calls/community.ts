/**
 * The `community` route group's calls (`../api-routes.ts`, decision 056): likes and plays, playlists,
 * public creator profiles and following, remixes with credit, and reports. Routes marked `public` read
 * the session when there is one (`likedByMe`, `followedByMe`, a private playlist for its owner).
 */
import type { RouteDef } from '../api-routes';

// Likes and plays
export const likeTrack = {
  id: 'likeTrack',
  group: 'community',
  method: 'PUT',
  path: '/api/track/{id}/like',
  auth: 'user',
} as const satisfies RouteDef;
export const unlikeTrack = {
  id: 'unlikeTrack',
  group: 'community',
  method: 'DELETE',
  path: '/api/track/{id}/like',
  auth: 'user',
} as const satisfies RouteDef;
// Counted once per listener (a user, or a visitor's anonymous id) per track per UTC day.
export const recordPlay = {
  id: 'recordPlay',
  group: 'community',
  method: 'POST',
  path: '/api/track/{id}/play',
  auth: 'public',
} as const satisfies RouteDef;
// The library's Liked tab: tracks the user liked that they may still see, newest like first.
export const listLikedTracks = {
  id: 'listLikedTracks',
  group: 'community',
  method: 'GET',
  path: '/api/my-likes',
  auth: 'user',
} as const satisfies RouteDef;

// Playlists
export const createPlaylist = {
  id: 'createPlaylist',
  group: 'community',
  method: 'POST',
  path: '/api/playlists',
  auth: 'user',
} as const satisfies RouteDef;
// The signed-in user's own playlists (the library and "Add to playlist").
export const listMyPlaylists = {
  id: 'listMyPlaylists',
  group: 'community',
  method: 'GET',
  path: '/api/playlists',
  auth: 'user',
} as const satisfies RouteDef;
export const getPlaylist = {
  id: 'getPlaylist',
  group: 'community',
  method: 'GET',
  path: '/api/playlists/{id}',
  auth: 'public',
} as const satisfies RouteDef;
export const updatePlaylist = {
  id: 'updatePlaylist',
  group: 'community',
  method: 'PATCH',
  path: '/api/playlists/{id}',
  auth: 'user',
} as const satisfies RouteDef;
export const deletePlaylist = {
  id: 'deletePlaylist',
  group: 'community',
  method: 'DELETE',
  path: '/api/playlists/{id}',
  auth: 'user',
} as const satisfies RouteDef;
export const setPlaylistTracks = {
  id: 'setPlaylistTracks',
  group: 'community',
  method: 'PUT',
  path: '/api/playlists/{id}/tracks',
  auth: 'user',
} as const satisfies RouteDef;

// Public profiles and following
export const getMyPublicProfile = {
  id: 'getMyPublicProfile',
  group: 'community',
  method: 'GET',
  path: '/api/user/public-profile',
  auth: 'user',
} as const satisfies RouteDef;
export const setPublicProfile = {
  id: 'setPublicProfile',
  group: 'community',
  method: 'PUT',
  path: '/api/user/public-profile',
  auth: 'user',
} as const satisfies RouteDef;
export const deletePublicProfile = {
  id: 'deletePublicProfile',
  group: 'community',
  method: 'DELETE',
  path: '/api/user/public-profile',
  auth: 'user',
} as const satisfies RouteDef;
export const getCreator = {
  id: 'getCreator',
  group: 'community',
  method: 'GET',
  path: '/api/creators/{handle}',
  auth: 'public',
} as const satisfies RouteDef;
export const followCreator = {
  id: 'followCreator',
  group: 'community',
  method: 'PUT',
  path: '/api/creators/{handle}/follow',
  auth: 'user',
} as const satisfies RouteDef;
export const unfollowCreator = {
  id: 'unfollowCreator',
  group: 'community',
  method: 'DELETE',
  path: '/api/creators/{handle}/follow',
  auth: 'user',
} as const satisfies RouteDef;
export const getFeed = {
  id: 'getFeed',
  group: 'community',
  method: 'GET',
  path: '/api/feed',
  auth: 'user',
} as const satisfies RouteDef;

// Remixes with credit
export const setRemixable = {
  id: 'setRemixable',
  group: 'community',
  method: 'PATCH',
  path: '/api/generation/{id}/remixable',
  auth: 'user',
} as const satisfies RouteDef;
export const remixTrack = {
  id: 'remixTrack',
  group: 'community',
  method: 'POST',
  path: '/api/generation/{id}/remix',
  auth: 'user',
} as const satisfies RouteDef;
// The remixes of a track that the viewer may see (its owner also learns how many are private).
export const listRemixes = {
  id: 'listRemixes',
  group: 'community',
  method: 'GET',
  path: '/api/track/{id}/remixes',
  auth: 'public',
} as const satisfies RouteDef;

// Reports
export const reportTrack = {
  id: 'reportTrack',
  group: 'community',
  method: 'POST',
  path: '/api/track/{id}/report',
  auth: 'user',
} as const satisfies RouteDef;
export const reportCreator = {
  id: 'reportCreator',
  group: 'community',
  method: 'POST',
  path: '/api/creators/{handle}/report',
  auth: 'user',
} as const satisfies RouteDef;

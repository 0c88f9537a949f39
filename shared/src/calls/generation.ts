/** The `generation` route group's calls (`../api-routes.ts`). */
import type { RouteDef } from '../api-routes';

// Generation and library
export const generateLyrics = {
  id: 'generateLyrics',
  group: 'generation',
  method: 'POST',
  path: '/api/generate-lyrics',
  auth: 'user',
} as const satisfies RouteDef;
export const generateTextToMusic = {
  id: 'generateTextToMusic',
  group: 'generation',
  method: 'POST',
  path: '/api/generate-text-to-music',
  auth: 'user',
} as const satisfies RouteDef;
export const generateAudioToMusic = {
  id: 'generateAudioToMusic',
  group: 'generation',
  method: 'POST',
  path: '/api/generate-audio-to-music',
  auth: 'user',
} as const satisfies RouteDef;
export const getGenerationStatus = {
  id: 'getGenerationStatus',
  group: 'generation',
  method: 'GET',
  path: '/api/generation/{id}/status',
  auth: 'user',
} as const satisfies RouteDef;
export const listMyGenerations = {
  id: 'listMyGenerations',
  group: 'generation',
  method: 'GET',
  path: '/api/my-generations',
  auth: 'user',
} as const satisfies RouteDef;
export const updateGeneration = {
  id: 'updateGeneration',
  group: 'generation',
  method: 'PATCH',
  path: '/api/generation/{id}/visibility',
  auth: 'user',
} as const satisfies RouteDef;
export const deleteGeneration = {
  id: 'deleteGeneration',
  group: 'generation',
  method: 'DELETE',
  path: '/api/generation/{id}',
  auth: 'user',
} as const satisfies RouteDef;
// Not in the spec's call table: the server decides downloads (free plan: none).
export const downloadGeneration = {
  id: 'downloadGeneration',
  group: 'generation',
  method: 'GET',
  path: '/api/generation/{id}/download',
  auth: 'user',
} as const satisfies RouteDef;
// The studio: new tracks made from one of the owner's completed tracks.
export const createVariation = {
  id: 'createVariation',
  group: 'generation',
  method: 'POST',
  path: '/api/generation/{id}/variation',
  auth: 'user',
} as const satisfies RouteDef;
export const extendGeneration = {
  id: 'extendGeneration',
  group: 'generation',
  method: 'POST',
  path: '/api/generation/{id}/extend',
  auth: 'user',
} as const satisfies RouteDef;
export const repaintGeneration = {
  id: 'repaintGeneration',
  group: 'generation',
  method: 'POST',
  path: '/api/generation/{id}/repaint',
  auth: 'user',
} as const satisfies RouteDef;
// Export everything: one zip of every track the user owns, prepared in the background.
export const startExport = {
  id: 'startExport',
  group: 'generation',
  method: 'POST',
  path: '/api/user/export',
  auth: 'user',
} as const satisfies RouteDef;
export const getLatestExport = {
  id: 'getLatestExport',
  group: 'generation',
  method: 'GET',
  path: '/api/user/export',
  auth: 'user',
} as const satisfies RouteDef;
export const getExport = {
  id: 'getExport',
  group: 'generation',
  method: 'GET',
  path: '/api/user/export/{exportId}',
  auth: 'user',
} as const satisfies RouteDef;

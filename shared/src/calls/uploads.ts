/** The `uploads` route group's calls (`../api-routes.ts`). */
import type { RouteDef } from '../api-routes';

// Uploads
export const reserveUpload = {
  id: 'reserveUpload',
  group: 'uploads',
  method: 'POST',
  path: '/api/objects/upload',
  auth: 'user',
} as const satisfies RouteDef;
export const normalizeUploadPath = {
  id: 'normalizeUploadPath',
  group: 'uploads',
  method: 'POST',
  path: '/api/objects/normalize-path',
  auth: 'user',
} as const satisfies RouteDef;
// The upload dialog's multipart calls (spec 1 "Upload dialog calls"): files over 5 MiB go in parts.
export const createMultipartUpload = {
  id: 'createMultipartUpload',
  group: 'uploads',
  method: 'POST',
  path: '/api/s3/multipart',
  auth: 'user',
} as const satisfies RouteDef;
export const listMultipartParts = {
  id: 'listMultipartParts',
  group: 'uploads',
  method: 'GET',
  path: '/api/s3/multipart/{uploadId}',
  auth: 'user',
} as const satisfies RouteDef;
export const signMultipartPart = {
  id: 'signMultipartPart',
  group: 'uploads',
  method: 'GET',
  path: '/api/s3/multipart/{uploadId}/{partNumber}',
  auth: 'user',
} as const satisfies RouteDef;
export const completeMultipartUpload = {
  id: 'completeMultipartUpload',
  group: 'uploads',
  method: 'POST',
  path: '/api/s3/multipart/{uploadId}/complete',
  auth: 'user',
} as const satisfies RouteDef;
export const abortMultipartUpload = {
  id: 'abortMultipartUpload',
  group: 'uploads',
  method: 'DELETE',
  path: '/api/s3/multipart/{uploadId}',
  auth: 'user',
} as const satisfies RouteDef;

/** The `admin` route group's calls (`../api-routes.ts`). */
import type { RouteDef } from '../api-routes';

// Admin area
export const adminDashboardStats = {
  id: 'adminDashboardStats',
  group: 'admin',
  method: 'GET',
  path: '/api/admin/dashboard/stats',
  auth: 'admin',
} as const satisfies RouteDef;
export const adminListUsers = {
  id: 'adminListUsers',
  group: 'admin',
  method: 'GET',
  path: '/api/admin/regular-users',
  auth: 'admin',
} as const satisfies RouteDef;
export const adminUpdateUser = {
  id: 'adminUpdateUser',
  group: 'admin',
  method: 'PUT',
  path: '/api/admin/regular-users/{id}',
  auth: 'admin',
} as const satisfies RouteDef;
export const adminDeleteUser = {
  id: 'adminDeleteUser',
  group: 'admin',
  method: 'DELETE',
  path: '/api/admin/regular-users/{id}',
  auth: 'admin',
} as const satisfies RouteDef;
export const adminAssignPlan = {
  id: 'adminAssignPlan',
  group: 'admin',
  method: 'PUT',
  path: '/api/admin/regular-users/{id}/plan',
  auth: 'admin',
} as const satisfies RouteDef;
export const adminListPlans = {
  id: 'adminListPlans',
  group: 'admin',
  method: 'GET',
  path: '/api/admin/plans',
  auth: 'admin',
} as const satisfies RouteDef;
export const adminCreatePlan = {
  id: 'adminCreatePlan',
  group: 'admin',
  method: 'POST',
  path: '/api/admin/plans',
  auth: 'admin',
} as const satisfies RouteDef;
export const adminUpdatePlan = {
  id: 'adminUpdatePlan',
  group: 'admin',
  method: 'PUT',
  path: '/api/admin/plans/{id}',
  auth: 'admin',
} as const satisfies RouteDef;
export const adminDeletePlan = {
  id: 'adminDeletePlan',
  group: 'admin',
  method: 'DELETE',
  path: '/api/admin/plans/{id}',
  auth: 'admin',
} as const satisfies RouteDef;
export const adminListSettings = {
  id: 'adminListSettings',
  group: 'admin',
  method: 'GET',
  path: '/api/admin/settings',
  auth: 'admin',
} as const satisfies RouteDef;
export const adminUpdateSetting = {
  id: 'adminUpdateSetting',
  group: 'admin',
  method: 'PUT',
  path: '/api/admin/settings',
  auth: 'admin',
} as const satisfies RouteDef;
export const adminListTracks = {
  id: 'adminListTracks',
  group: 'admin',
  method: 'GET',
  path: '/api/admin/tracks',
  auth: 'admin',
} as const satisfies RouteDef;
export const adminSetGalleryVisibility = {
  id: 'adminSetGalleryVisibility',
  group: 'admin',
  method: 'PATCH',
  path: '/api/admin/tracks/{trackId}/gallery-visibility',
  auth: 'admin',
} as const satisfies RouteDef;
export const adminRenameTrack = {
  id: 'adminRenameTrack',
  group: 'admin',
  method: 'PATCH',
  path: '/api/admin/tracks/{trackId}/title',
  auth: 'admin',
} as const satisfies RouteDef;
export const adminDeleteTrack = {
  id: 'adminDeleteTrack',
  group: 'admin',
  method: 'DELETE',
  path: '/api/admin/tracks/{trackId}',
  auth: 'admin',
} as const satisfies RouteDef;
// Not in the spec's call table: a download link for any completed track (spec 2 section 6).
export const adminDownloadTrack = {
  id: 'adminDownloadTrack',
  group: 'admin',
  method: 'GET',
  path: '/api/admin/tracks/{trackId}/download',
  auth: 'admin',
} as const satisfies RouteDef;
// Reports of tracks and profiles (decision 056): open ones first, then what was done.
export const adminListReports = {
  id: 'adminListReports',
  group: 'admin',
  method: 'GET',
  path: '/api/admin/reports',
  auth: 'admin',
} as const satisfies RouteDef;
// Hide the reported track or profile, dismiss the report, or suspend the user; audited.
export const adminResolveReport = {
  id: 'adminResolveReport',
  group: 'admin',
  method: 'POST',
  path: '/api/admin/reports/{reportId}',
  auth: 'admin',
} as const satisfies RouteDef;

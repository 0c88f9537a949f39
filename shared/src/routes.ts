/**
 * The route manifest: every call of the product (`calls/{group}.ts`), the
 * Lambda route group that serves it and who may call it. CDK builds one Lambda
 * per group and one API Gateway route per entry from this list; the local API
 * adapter serves the same list. The SPA imports the calls it makes from
 * `calls/{group}.ts` itself, not this list.
 */

import { type RouteDef, type RouteGroup, routePath } from './api-routes';
import * as admin from './calls/admin';
import * as adminSession from './calls/admin-session';
import * as apiV1 from './calls/api-v1';
import * as auth from './calls/auth';
import * as billing from './calls/billing';
import * as catalog from './calls/catalog';
import * as community from './calls/community';
import * as developers from './calls/developers';
import * as generation from './calls/generation';
import * as models from './calls/models';
import * as stems from './calls/stems';
import * as uploads from './calls/uploads';
import * as webhooks from './calls/webhooks';

export { type HttpMethod, type RouteAuth, type RouteDef, type RouteGroup, routeGroups } from './api-routes';

export const routes = [
  auth.getCurrentUser,
  auth.login,
  auth.register,
  auth.requestPasswordReset,
  auth.resetPassword,
  auth.verifyEmail,
  auth.resendVerification,
  auth.logout,
  auth.updateEmail,
  auth.updatePassword,
  auth.deleteAccount,
  catalog.listPlans,
  catalog.listPublicTracks,
  catalog.getTrack,
  catalog.getTrackProvenance,
  catalog.getTrackLyrics,
  catalog.getTrackAudio,
  stems.getTrackStems,
  catalog.headTrackAudio,
  catalog.getSite,
  models.listModels,
  generation.generateLyrics,
  generation.generateTextToMusic,
  generation.generateAudioToMusic,
  generation.getGenerationStatus,
  generation.listMyGenerations,
  generation.updateGeneration,
  generation.deleteGeneration,
  generation.downloadGeneration,
  generation.createVariation,
  generation.extendGeneration,
  generation.repaintGeneration,
  stems.requestStems,
  stems.downloadStems,
  generation.startExport,
  generation.getLatestExport,
  generation.getExport,
  uploads.reserveUpload,
  uploads.normalizeUploadPath,
  uploads.createMultipartUpload,
  uploads.listMultipartParts,
  uploads.signMultipartPart,
  uploads.completeMultipartUpload,
  uploads.abortMultipartUpload,
  billing.createCheckoutSession,
  billing.createPortalSession,
  billing.cancelSubscription,
  webhooks.stripeWebhook,
  webhooks.falWebhook,
  adminSession.adminLogin,
  adminSession.adminLoginCode,
  adminSession.adminLogout,
  adminSession.getCurrentAdmin,
  adminSession.adminChangePassword,
  admin.adminDashboardStats,
  admin.adminListUsers,
  admin.adminUpdateUser,
  admin.adminDeleteUser,
  admin.adminAssignPlan,
  admin.adminListPlans,
  admin.adminCreatePlan,
  admin.adminUpdatePlan,
  admin.adminDeletePlan,
  admin.adminListSettings,
  admin.adminUpdateSetting,
  admin.adminListTracks,
  admin.adminSetGalleryVisibility,
  admin.adminRenameTrack,
  admin.adminDeleteTrack,
  admin.adminDownloadTrack,
  models.adminGetModels,
  models.adminUpdateModels,
  developers.createApiKey,
  developers.listApiKeys,
  developers.revokeApiKey,
  developers.createWebhookEndpoint,
  developers.listWebhookEndpoints,
  developers.deleteWebhookEndpoint,
  developers.listWebhookDeliveries,
  developers.sendWebhookTestEvent,
  apiV1.v1OpenApi,
  apiV1.v1CreateTrack,
  apiV1.v1ListTracks,
  apiV1.v1GetTrack,
  apiV1.v1CreateUpload,
  apiV1.v1ExtendTrack,
  apiV1.v1RepaintTrack,
  apiV1.v1CreateVariation,
  community.likeTrack,
  community.unlikeTrack,
  community.recordPlay,
  community.listLikedTracks,
  community.createPlaylist,
  community.listMyPlaylists,
  community.getPlaylist,
  community.updatePlaylist,
  community.deletePlaylist,
  community.setPlaylistTracks,
  community.getMyPublicProfile,
  community.setPublicProfile,
  community.deletePublicProfile,
  community.getCreator,
  community.followCreator,
  community.unfollowCreator,
  community.getFeed,
  community.setRemixable,
  community.remixTrack,
  community.listRemixes,
  community.reportTrack,
  community.reportCreator,
  admin.adminListReports,
  admin.adminResolveReport,
] as const satisfies readonly RouteDef[];

export type RouteId = (typeof routes)[number]['id'];

const byId = new Map<string, RouteDef>(routes.map((route) => [route.id, route]));

/** The manifest entry for a route id. */
export function routeById(id: RouteId): RouteDef {
  const route = byId.get(id);
  if (!route) throw new Error(`Unknown route ${id}`);
  return route;
}

/** The routes served by one route group. */
export function routesOfGroup(group: RouteGroup): RouteDef[] {
  return routes.filter((route) => route.group === group);
}

/** A concrete path for a route id, its `{param}` placeholders filled with URI-encoded values. */
export function apiPath(id: RouteId, params: Record<string, string> = {}): string {
  return routePath(routeById(id), params);
}

/**
 * Matches a method and concrete path against the manifest. Returns the route
 * and its decoded path parameters, or undefined.
 */
export function matchRoute(
  method: string,
  path: string,
): { route: RouteDef; params: Record<string, string> } | undefined {
  for (const route of routes) {
    if (route.method !== method) continue;
    const params = matchPath(route.path, path);
    if (params) return { route, params };
  }
  return undefined;
}

/** Matches a concrete path against an API Gateway `{param}` template. */
export function matchPath(template: string, path: string): Record<string, string> | undefined {
  const want = template.split('/');
  const got = path.split('/');
  if (want.length !== got.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i++) {
    const segment = want[i] as string;
    const actual = got[i] as string;
    if (segment.startsWith('{') && segment.endsWith('}')) {
      if (actual === '') return undefined;
      try {
        params[segment.slice(1, -1)] = decodeURIComponent(actual);
      } catch {
        return undefined;
      }
    } else if (segment !== actual) {
      return undefined;
    }
  }
  return params;
}

/**
 * The route manifest: every call of the product, the Lambda route group that
 * serves it and who may call it. CDK builds one Lambda per group and one API
 * Gateway route per entry from this list; the local API adapter serves the same
 * list; the SPA builds its URLs with {@link apiPath}.
 */

export type RouteAuth = 'public' | 'user' | 'admin' | 'webhook';
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export const routeGroups = [
  'auth',
  'catalog',
  'generation',
  'uploads',
  'billing',
  'webhooks',
  'admin-session',
  'admin',
] as const;
export type RouteGroup = (typeof routeGroups)[number];

export interface RouteDef {
  /** Stable identifier, also the handler key inside the group. */
  readonly id: string;
  readonly group: RouteGroup;
  readonly method: HttpMethod;
  /** API Gateway style path with `{param}` placeholders. */
  readonly path: string;
  readonly auth: RouteAuth;
}

const r = (id: string, group: RouteGroup, method: HttpMethod, path: string, auth: RouteAuth): RouteDef => ({
  id,
  group,
  method,
  path,
  auth,
});

export const routes = [
  // Accounts (spec 1 section 7, spec 2 public calls)
  r('getCurrentUser', 'auth', 'GET', '/api/auth/user', 'public'),
  r('login', 'auth', 'POST', '/api/auth/login', 'public'),
  r('register', 'auth', 'POST', '/api/auth/register', 'public'),
  r('requestPasswordReset', 'auth', 'POST', '/api/auth/request-password-reset', 'public'),
  r('resetPassword', 'auth', 'POST', '/api/auth/reset-password', 'public'),
  r('verifyEmail', 'auth', 'GET', '/api/auth/verify-email/{token}', 'public'),
  r('resendVerification', 'auth', 'POST', '/api/auth/resend-verification', 'public'),
  r('logout', 'auth', 'GET', '/api/logout', 'public'),
  r('updateEmail', 'auth', 'PUT', '/api/user/email', 'user'),
  r('updatePassword', 'auth', 'PUT', '/api/user/password', 'user'),
  // Own your music: delete the account (password checked), everything of it goes.
  r('deleteAccount', 'auth', 'DELETE', '/api/user', 'user'),

  // Public catalogue
  r('listPlans', 'catalog', 'GET', '/api/plans', 'public'),
  r('listPublicTracks', 'catalog', 'GET', '/api/public-tracks', 'public'),
  r('getTrack', 'catalog', 'GET', '/api/track/{id}', 'public'),
  // What made a track and what its owner may do with it; visible to whoever may see the track.
  r('getTrackProvenance', 'catalog', 'GET', '/api/track/{id}/provenance', 'public'),
  // Not in the spec's call table: a shared link's og:audio, a 302 to a fresh signed link (decision 024).
  r('getTrackAudio', 'catalog', 'GET', '/api/track/{id}/audio', 'public'),
  // Not in the spec's call table: how the site names itself (Site Settings, General) for every screen.
  r('getSite', 'catalog', 'GET', '/api/site', 'public'),

  // Generation and library
  r('generateLyrics', 'generation', 'POST', '/api/generate-lyrics', 'user'),
  r('generateTextToMusic', 'generation', 'POST', '/api/generate-text-to-music', 'user'),
  r('generateAudioToMusic', 'generation', 'POST', '/api/generate-audio-to-music', 'user'),
  r('getGenerationStatus', 'generation', 'GET', '/api/generation/{id}/status', 'user'),
  r('listMyGenerations', 'generation', 'GET', '/api/my-generations', 'user'),
  r('updateGeneration', 'generation', 'PATCH', '/api/generation/{id}/visibility', 'user'),
  r('deleteGeneration', 'generation', 'DELETE', '/api/generation/{id}', 'user'),
  // Not in the spec's call table: the server decides downloads (free plan: none).
  r('downloadGeneration', 'generation', 'GET', '/api/generation/{id}/download', 'user'),
  // The studio: new tracks made from one of the owner's completed tracks.
  r('createVariation', 'generation', 'POST', '/api/generation/{id}/variation', 'user'),
  r('extendGeneration', 'generation', 'POST', '/api/generation/{id}/extend', 'user'),
  r('repaintGeneration', 'generation', 'POST', '/api/generation/{id}/repaint', 'user'),
  // Export everything: one zip of every track the user owns, prepared in the background.
  r('startExport', 'generation', 'POST', '/api/user/export', 'user'),
  r('getLatestExport', 'generation', 'GET', '/api/user/export', 'user'),
  r('getExport', 'generation', 'GET', '/api/user/export/{exportId}', 'user'),

  // Uploads
  r('reserveUpload', 'uploads', 'POST', '/api/objects/upload', 'user'),
  r('normalizeUploadPath', 'uploads', 'POST', '/api/objects/normalize-path', 'user'),
  // The upload dialog's multipart calls (spec 1 "Upload dialog calls"): files over 5 MiB go in parts.
  r('createMultipartUpload', 'uploads', 'POST', '/api/s3/multipart', 'user'),
  r('listMultipartParts', 'uploads', 'GET', '/api/s3/multipart/{uploadId}', 'user'),
  r('signMultipartPart', 'uploads', 'GET', '/api/s3/multipart/{uploadId}/{partNumber}', 'user'),
  r('completeMultipartUpload', 'uploads', 'POST', '/api/s3/multipart/{uploadId}/complete', 'user'),
  r('abortMultipartUpload', 'uploads', 'DELETE', '/api/s3/multipart/{uploadId}', 'user'),

  // Billing
  r('createCheckoutSession', 'billing', 'POST', '/api/stripe/create-checkout-session', 'user'),
  r('createPortalSession', 'billing', 'POST', '/api/stripe/create-portal-session', 'user'),
  r('cancelSubscription', 'billing', 'POST', '/api/stripe/cancel-subscription', 'user'),
  r('stripeWebhook', 'webhooks', 'POST', '/api/webhooks/stripe', 'webhook'),
  // The music provider's signed completion callback (DESIGN: Generation).
  r('falWebhook', 'webhooks', 'POST', '/api/webhooks/fal', 'webhook'),

  // Admin session
  r('adminLogin', 'admin-session', 'POST', '/api/admin/login', 'public'),
  r('adminLogout', 'admin-session', 'POST', '/api/admin/logout', 'admin'),
  r('getCurrentAdmin', 'admin-session', 'GET', '/api/admin/user', 'admin'),
  r('adminChangePassword', 'admin-session', 'PUT', '/api/admin/change-password', 'admin'),

  // Admin area
  r('adminDashboardStats', 'admin', 'GET', '/api/admin/dashboard/stats', 'admin'),
  r('adminListUsers', 'admin', 'GET', '/api/admin/regular-users', 'admin'),
  r('adminUpdateUser', 'admin', 'PUT', '/api/admin/regular-users/{id}', 'admin'),
  r('adminDeleteUser', 'admin', 'DELETE', '/api/admin/regular-users/{id}', 'admin'),
  r('adminAssignPlan', 'admin', 'PUT', '/api/admin/regular-users/{id}/plan', 'admin'),
  r('adminListPlans', 'admin', 'GET', '/api/admin/plans', 'admin'),
  r('adminCreatePlan', 'admin', 'POST', '/api/admin/plans', 'admin'),
  r('adminUpdatePlan', 'admin', 'PUT', '/api/admin/plans/{id}', 'admin'),
  r('adminDeletePlan', 'admin', 'DELETE', '/api/admin/plans/{id}', 'admin'),
  r('adminListSettings', 'admin', 'GET', '/api/admin/settings', 'admin'),
  r('adminUpdateSetting', 'admin', 'PUT', '/api/admin/settings', 'admin'),
  r('adminListTracks', 'admin', 'GET', '/api/admin/tracks', 'admin'),
  r('adminSetGalleryVisibility', 'admin', 'PATCH', '/api/admin/tracks/{trackId}/gallery-visibility', 'admin'),
  r('adminRenameTrack', 'admin', 'PATCH', '/api/admin/tracks/{trackId}/title', 'admin'),
  r('adminDeleteTrack', 'admin', 'DELETE', '/api/admin/tracks/{trackId}', 'admin'),
  // Not in the spec's call table: a download link for any completed track (spec 2 section 6).
  r('adminDownloadTrack', 'admin', 'GET', '/api/admin/tracks/{trackId}/download', 'admin'),
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

/**
 * Builds a concrete path for a route, filling `{param}` placeholders with
 * URI-encoded values.
 */
export function apiPath(id: RouteId, params: Record<string, string> = {}): string {
  return routeById(id).path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`Missing path parameter ${name} for ${id}`);
    return encodeURIComponent(value);
  });
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

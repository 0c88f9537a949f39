import {
  adminAssignPlanSchema,
  adminTrackListQuerySchema,
  adminTrackTitleSchema,
  adminUpdateSettingSchema,
  adminUpdateUserSchema,
  adminUserListQuerySchema,
  galleryVisibilitySchema,
  planInputSchema,
} from '@tunesmith/shared/admin';
import { resolveReportSchema } from '@tunesmith/shared/community';
import type { AdminUser } from '../../domain/accounts/admin';
import { createPlan, deletePlan, listAllPlans, updatePlan } from '../../domain/admin/plans';
import type { AdminDeps } from '../../domain/admin/ports';
import { listSettings, updateSetting } from '../../domain/admin/settings';
import {
  adminDownload,
  deleteTrack,
  listTracks,
  renameTrack,
  setGalleryVisibility,
} from '../../domain/admin/tracks';
import { assignPlan, deleteUser, listUsers, updateUser } from '../../domain/admin/users';
import { listReports, type ModerationDeps, resolveReport } from '../../domain/community/reports';
import type { GroupHandlers, RouteContext } from '../group-handler';
import { readJson, readQuery } from '../request';
import { json } from '../responses';

const noContent = () => ({ statusCode: 204, headers: { 'cache-control': 'no-store' } });
const adminOf = (ctx: RouteContext) => ctx.admin as AdminUser;

/**
 * The admin area's data calls (spec 2 section 7) but the dashboard's
 * (admin-dashboard.ts); the group handler has checked the admin session.
 */
export function adminRoutes(deps: () => AdminDeps & ModerationDeps): GroupHandlers {
  return {
    adminListUsers: async (event) =>
      json(200, await listUsers(deps(), readQuery(event, adminUserListQuerySchema))),
    adminUpdateUser: async (event, ctx) =>
      json(
        200,
        await updateUser(deps(), adminOf(ctx), ctx.params.id ?? '', readJson(event, adminUpdateUserSchema)),
      ),
    adminAssignPlan: async (event, ctx) =>
      json(
        200,
        await assignPlan(deps(), adminOf(ctx), ctx.params.id ?? '', readJson(event, adminAssignPlanSchema)),
      ),
    adminDeleteUser: async (_event, ctx) => {
      await deleteUser(deps(), adminOf(ctx), ctx.params.id ?? '');
      return noContent();
    },

    adminListPlans: async () => json(200, await listAllPlans(deps())),
    adminCreatePlan: async (event, ctx) =>
      json(201, await createPlan(deps(), adminOf(ctx), readJson(event, planInputSchema))),
    adminUpdatePlan: async (event, ctx) =>
      json(
        200,
        await updatePlan(deps(), adminOf(ctx), ctx.params.id ?? '', readJson(event, planInputSchema)),
      ),
    adminDeletePlan: async (_event, ctx) => {
      await deletePlan(deps(), adminOf(ctx), ctx.params.id ?? '');
      return noContent();
    },

    adminListSettings: async () => json(200, await listSettings(deps())),
    adminUpdateSetting: async (event, ctx) =>
      json(200, await updateSetting(deps(), adminOf(ctx), readJson(event, adminUpdateSettingSchema))),

    adminListTracks: async (event) =>
      json(200, await listTracks(deps(), readQuery(event, adminTrackListQuerySchema))),
    adminSetGalleryVisibility: async (event, ctx) => {
      const { showInGallery } = readJson(event, galleryVisibilitySchema);
      return json(
        200,
        await setGalleryVisibility(deps(), adminOf(ctx), ctx.params.trackId ?? '', showInGallery),
      );
    },
    adminRenameTrack: async (event, ctx) => {
      const { title } = readJson(event, adminTrackTitleSchema);
      return json(200, await renameTrack(deps(), adminOf(ctx), ctx.params.trackId ?? '', title));
    },
    adminDeleteTrack: async (_event, ctx) => {
      await deleteTrack(deps(), adminOf(ctx), ctx.params.trackId ?? '');
      return noContent();
    },
    adminDownloadTrack: async (_event, ctx) =>
      json(200, await adminDownload(deps(), ctx.params.trackId ?? '')),

    // Reports (decision 061): open ones first; hide, dismiss, suspend, or restore, each audited.
    adminListReports: async () => json(200, await listReports(deps())),
    adminResolveReport: async (event, ctx) => {
      const { action } = readJson(event, resolveReportSchema);
      return json(200, await resolveReport(deps(), adminOf(ctx), ctx.params.reportId ?? '', action));
    },
  };
}

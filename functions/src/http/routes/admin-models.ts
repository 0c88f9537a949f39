import { modelSettingsSchema } from '@tunesmith/shared/model-settings';
import type { AdminUser } from '../../domain/accounts/admin';
import { adminModels, updateModels } from '../../domain/models/models-service';
import type { GroupHandlers } from '../group-handler';
import { readJson } from '../request';
import { json } from '../responses';

/** The admin Models page's calls (decision 051): the registry, settings and use; saving the settings. */
export function adminModelsRoutes(
  deps: () => Parameters<typeof adminModels>[0] & Parameters<typeof updateModels>[0],
): GroupHandlers {
  return {
    adminGetModels: async () => json(200, await adminModels(deps())),
    adminUpdateModels: async (event, ctx) =>
      json(200, await updateModels(deps(), ctx.admin as AdminUser, readJson(event, modelSettingsSchema))),
  };
}

import { exportStartedSchema, latestExportSchema, startExportSchema } from '@tunesmith/shared/ownership';
import type { User } from '../../domain/accounts/user';
import { getExport, latestExport, startExport } from '../../domain/exports/export-service';
import type { ExportDeps } from '../../domain/exports/ports';
import type { GroupHandlers } from '../group-handler';
import { readJson } from '../request';
import { json } from '../responses';

export type ExportRouteDeps = Pick<ExportDeps, 'exports' | 'files' | 'jobs' | 'clock' | 'newId'>;

/** Export everything: start one (202, prepared by a background job), and follow it. */
export function exportRoutes(deps: ExportRouteDeps): GroupHandlers {
  return {
    startExport: async (event, ctx) => {
      readJson(event, startExportSchema);
      const started = await startExport(deps, (ctx.user as User).id);
      return json(202, exportStartedSchema.parse(started));
    },
    getLatestExport: async (_event, ctx) =>
      json(200, latestExportSchema.parse({ export: await latestExport(deps, (ctx.user as User).id) })),
    getExport: async (_event, ctx) =>
      json(200, await getExport(deps, (ctx.user as User).id, ctx.params.exportId ?? '')),
  };
}

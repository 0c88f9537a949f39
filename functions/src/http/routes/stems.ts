import { type StemsStarted, stemsRequestSchema } from '@tunesmith/shared/stems';
import type { User } from '../../domain/accounts/user';
import { downloadFilename } from '../../domain/generations/download';
import type { GenerationDeps } from '../../domain/generations/ports';
import type { PlanRepository } from '../../domain/plans/plan';
import { requestStems, type StemsWorkflow, stemsForDownload } from '../../domain/stems/stems-service';
import type { GroupHandlers } from '../group-handler';
import { readJson } from '../request';
import { json } from '../responses';

export interface StemsRouteDeps {
  generations: GenerationDeps;
  plans: PlanRepository;
  /** Starts the separation's workflow execution. */
  workflow: StemsWorkflow;
  /** A link that makes the browser save a stored file as `filename`. */
  downloadLink(stored: string, filename: string): Promise<string>;
}

/** The owner's stems calls (decision 044): ask for a separation, download the stems as one zip. */
export function stemsRoutes(deps: StemsRouteDeps): GroupHandlers {
  const planOf = async (user: User) =>
    user.subscriptionPlanId ? deps.plans.get(user.subscriptionPlanId) : undefined;
  return {
    requestStems: async (event, ctx) => {
      const user = ctx.user as User;
      const { set } = readJson(event, stemsRequestSchema);
      const body: StemsStarted = await requestStems(
        { ...deps.generations, plans: deps.plans, workflow: deps.workflow },
        user,
        await planOf(user),
        ctx.params.id ?? '',
        set,
      );
      return json(202, body);
    },

    downloadStems: async (_event, ctx) => {
      const user = ctx.user as User;
      const { track, record } = await stemsForDownload(
        deps.generations,
        user,
        await planOf(user),
        ctx.params.id ?? '',
      );
      const filename = downloadFilename(track.title).replace(/\.wav$/, ` (stems).zip`);
      return json(200, { url: await deps.downloadLink(record.zipUrl, filename), filename });
    },
  };
}

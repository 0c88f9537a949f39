import { remixSchema } from '@tunesmith/shared/community';
import type { User } from '../../domain/accounts/user';
import type { CreatorNames } from '../../domain/community/ports';
import { startRemix } from '../../domain/community/remix-start';
import type { RemixIndex } from '../../domain/community/remixes';
import type { StartDeps } from '../../domain/generations/generation-service';
import type { WorkflowStarter } from '../../domain/generations/ports';
import type { PlanRepository } from '../../domain/plans/plan';
import type { GroupHandlers } from '../group-handler';
import { readJson } from '../request';
import { json } from '../responses';

export interface RemixStartDeps {
  start: StartDeps & { workflow: WorkflowStarter };
  plans: PlanRepository;
  remixes: RemixIndex;
  creators: CreatorNames;
}

/** Starting a remix: the generation start's code, loaded with the first one. */
export function remixStartRoutes(deps: RemixStartDeps): GroupHandlers {
  return {
    remixTrack: async (event, ctx) => {
      const user = ctx.user as User;
      const plan = user.subscriptionPlanId ? await deps.plans.get(user.subscriptionPlanId) : undefined;
      const remix = await startRemix(
        { ...deps.start, remixes: deps.remixes, creators: deps.creators },
        user,
        plan,
        ctx.params.id ?? '',
        // A track the user may not see or remix is refused before its body is read.
        () => readJson(event, remixSchema),
      );
      return json(201, { generationId: remix.id });
    },
  };
}

import type { PlanRepository } from '../../domain/plans/plan';
import { listActivePlans } from '../../domain/plans/plan-service';
import type { GenerationRepository } from '../../domain/tracks/track';
import { listPublicTracks } from '../../domain/tracks/track-service';
import type { GroupHandlers } from '../group-handler';
import { json } from '../responses';

export interface CatalogDeps {
  plans: PlanRepository;
  generations: GenerationRepository;
}

/** Public catalogue calls: plans and the community gallery. */
export function catalogRoutes(deps: CatalogDeps): GroupHandlers {
  return {
    listPlans: async () => json(200, await listActivePlans(deps.plans)),
    listPublicTracks: async () => json(200, await listPublicTracks(deps.generations)),
  };
}

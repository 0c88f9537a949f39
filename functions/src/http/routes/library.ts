import { updateGenerationSchema } from '@tunesmith/shared/generations';
import type { User } from '../../domain/accounts/user';
import {
  getForViewer,
  listForOwner,
  renameOrSetVisibility,
} from '../../domain/generations/generation-service';
import type { GenerationDeps } from '../../domain/generations/ports';
import type { PlanRepository } from '../../domain/plans/plan';
import { toTrack } from '../../domain/tracks/track';
import type { AudioLinker } from '../audio-links';
import type { GroupHandlers } from '../group-handler';
import { readJson } from '../request';
import { json } from '../responses';

/** The library is one bounded page, newest first. */
export const LIBRARY_LIMIT = 100;

export interface LibraryRouteDeps {
  generations: GenerationDeps;
  plans: PlanRepository;
  /** Presigns stored audio for the owner's player. */
  audioLinks: AudioLinker;
}

/** The owner's library: list, status, title/visibility, delete and download. */
export function libraryRoutes(deps: LibraryRouteDeps): GroupHandlers {
  const planOf = async (user: User) =>
    user.subscriptionPlanId ? deps.plans.get(user.subscriptionPlanId) : undefined;
  return {
    listMyGenerations: async (_event, ctx) => {
      const page = await listForOwner(deps.generations, ctx.user as User, { limit: LIBRARY_LIMIT });
      return json(200, page.items.map(toTrack));
    },

    getGenerationStatus: async (_event, ctx) => {
      // Only the owner polls; a private or foreign id answers not found either way.
      const user = ctx.user as User;
      const generation = await getForViewer(deps.generations, user, ctx.params.id ?? '');
      if (generation.userId !== user.id) return json(404, { message: 'Track not found' });
      const { status, audioUrl, duration, tags, type } = generation;
      return json(200, { status, audioUrl, duration, tags, type });
    },

    updateGeneration: async (event, ctx) => {
      const input = readJson(event, updateGenerationSchema);
      const user = ctx.user as User;
      const updated = await renameOrSetVisibility(
        deps.generations,
        user,
        await planOf(user),
        ctx.params.id ?? '',
        input,
      );
      return json(200, toTrack(updated));
    },
  };
}

import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import type { User } from '../../domain/accounts/user';
import { getForViewer } from '../../domain/generations/generation-service';
import type { GenerationStore } from '../../domain/generations/ports';
import type { PlanRepository } from '../../domain/plans/plan';
import { listActivePlans } from '../../domain/plans/plan-service';
import { listPublicTracks } from '../../domain/tracks/track-service';
import { type AudioLinker, playableTrack, withPlayableAudio } from '../audio-links';
import { errorToResponse } from '../errors';
import type { GroupHandlers } from '../group-handler';
import { json } from '../responses';

/** Who is looking at a public page: a signed-in user (with refreshed session cookies) or a visitor. */
export type ViewerLookup = (
  event: APIGatewayProxyEventV2,
) => Promise<{ user?: Pick<User, 'id'>; cookies: string[] }>;

export interface CatalogDeps {
  plans: PlanRepository;
  generations: GenerationStore;
  /** Presigns stored audio for players of tracks the viewer may see. */
  audioLinks: AudioLinker;
  /** Recognises a signed-in viewer; the track page is public, so a visitor is fine. */
  viewer: ViewerLookup;
}

/** Public catalogue calls: plans, the community gallery and the track page. */
export function catalogRoutes(deps: CatalogDeps): GroupHandlers {
  return {
    listPlans: async () => json(200, await listActivePlans(deps.plans)),

    listPublicTracks: async () => {
      const tracks = await listPublicTracks(deps.generations);
      return json(200, await Promise.all(tracks.map((track) => withPlayableAudio(track, deps.audioLinks))));
    },

    getTrack: async (event, ctx) => {
      // A private track is found only for its signed-in owner; everyone else gets not found.
      const viewer = await deps.viewer(event);
      const cookies = viewer.cookies;
      try {
        const generation = await getForViewer(deps, viewer.user, ctx.params.id ?? '');
        return json(200, await playableTrack(generation, deps.audioLinks), { cookies });
      } catch (error) {
        const answer = errorToResponse(error);
        return cookies.length ? { ...answer, cookies: [...(answer.cookies ?? []), ...cookies] } : answer;
      }
    },
  };
}

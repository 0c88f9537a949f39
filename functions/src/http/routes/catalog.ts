import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import type { User } from '../../domain/accounts/user';
import { familyOf, getForViewer } from '../../domain/generations/generation-service';
import type { GenerationStore } from '../../domain/generations/ports';
import type { PlanRepository } from '../../domain/plans/plan';
import { listActivePlans } from '../../domain/plans/plan-service';
import type { SettingsRepository } from '../../domain/settings/settings';
import { publicSite } from '../../domain/settings/site';
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
  /** Site settings as stored; only the public ones are answered. */
  settings: Pick<SettingsRepository, 'list'>;
  /** The deployment's name (SITE_NAME), when no Site Name is stored. */
  siteName: string;
}

/** Public catalogue calls: plans, the community gallery, the track page and how the site names itself. */
export function catalogRoutes(deps: CatalogDeps): GroupHandlers {
  return {
    listPlans: async () => json(200, await listActivePlans(deps.plans)),

    // Read on every page load, so a saved Site Name shows on the next one.
    getSite: async () => json(200, await publicSite(deps.settings, deps.siteName)),

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
        // The page names the track's parent and children, as far as this viewer may see them.
        const [track, family] = await Promise.all([
          playableTrack(generation, deps.audioLinks),
          familyOf(deps, viewer.user, generation),
        ]);
        return json(200, { ...track, family }, { cookies });
      } catch (error) {
        const answer = errorToResponse(error);
        return cookies.length ? { ...answer, cookies: [...(answer.cookies ?? []), ...cookies] } : answer;
      }
    },
  };
}

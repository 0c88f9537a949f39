import { setRemixableSchema } from '@tunesmith/shared/community';
import type { Track } from '@tunesmith/shared/tracks';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import type { User } from '../../domain/accounts/user';
import type { CreatorNames } from '../../domain/community/ports';
import { listRemixes, type RemixIndex, remixCreditOf, setRemixable } from '../../domain/community/remixes';
import type { GenerationStore } from '../../domain/generations/ports';
import type { Generation } from '../../domain/tracks/track';
import { type AudioLinker, playableTracks } from '../audio-links';
import { errorToResponse } from '../errors';
import type { GroupHandlers, RouteContext } from '../group-handler';
import { readJson } from '../request';
import { type ApiResult, json } from '../responses';
import type { ViewerLookup } from './catalog';

export interface RemixReadDeps {
  generations: GenerationStore;
  clock: { now(): Date };
  remixes: RemixIndex;
  creators: CreatorNames;
  audioLinks: AudioLinker;
  viewer: ViewerLookup;
}

/** Tracks as the community shows them: playable, their creators named, a remix's source credited. */
async function shownTracks(deps: RemixReadDeps, generations: Generation[]): Promise<Track[]> {
  const [tracks, names] = await Promise.all([
    playableTracks(generations, deps.audioLinks),
    deps.creators.names([...new Set(generations.map((g) => g.userId))]),
  ]);
  return Promise.all(
    tracks.map(async (track, i) => {
      const g = generations[i] as Generation;
      return { ...track, creator: names.get(g.userId) ?? null, remixOf: await remixCreditOf(deps, g) };
    }),
  );
}

/** The remix permission and the remixes list (decision 060); cheap, served from the cold start. */
export function remixReadRoutes(deps: RemixReadDeps): GroupHandlers {
  return {
    setRemixable: async (event, ctx) => {
      // Someone else's track is not found, whatever the body says.
      const track = await setRemixable(
        deps,
        ctx.user as User,
        ctx.params.id ?? '',
        () => readJson(event, setRemixableSchema).remixable,
      );
      return json(200, (await shownTracks(deps, [track]))[0]);
    },

    listRemixes: async (event: APIGatewayProxyEventV2, ctx: RouteContext): Promise<ApiResult> => {
      const viewer = await deps.viewer(event);
      const withCookies = (result: ApiResult) =>
        viewer.cookies.length
          ? { ...result, cookies: [...(result.cookies ?? []), ...viewer.cookies] }
          : result;
      try {
        const { remixes, privateCount } = await listRemixes(deps, viewer.user, ctx.params.id ?? '');
        const body = {
          remixes: await shownTracks(deps, remixes),
          ...(privateCount === undefined ? {} : { privateCount }),
        };
        return withCookies(json(200, body));
      } catch (error) {
        return withCookies(errorToResponse(error));
      }
    },
  };
}

import {
  creatorSchema,
  followStateSchema,
  pageQuerySchema,
  publicProfileInputSchema,
  publicProfileSchema,
  trackPageSchema,
} from '@tunesmith/shared/community';
import type { User } from '../../domain/accounts/user';
import {
  type CreatorDeps,
  creatorPage,
  feed,
  follow,
  goPrivate,
  ownProfile,
  setPublicProfile,
  unfollow,
} from '../../domain/community/creators';
import { errorToResponse } from '../errors';
import type { GroupHandlers } from '../group-handler';
import { readJson, readQuery } from '../request';
import { type ApiResult, json } from '../responses';
import type { ViewerLookup } from './catalog';

const limitOf = (query: { limit?: string }) => (query.limit ? Number(query.limit) : undefined);
/** The `{handle}` of the path; one that does not decode is no handle (looked up nowhere). */
const handleOf = (params: Record<string, string>) => {
  try {
    return decodeURIComponent(params.handle ?? '');
  } catch {
    return '';
  }
};

/** Public profiles, creator pages, following and the feed (decision 059). */
export function creatorRoutes(deps: CreatorDeps & { viewer: ViewerLookup }): GroupHandlers {
  return {
    getMyPublicProfile: async (_event, ctx) =>
      json(200, publicProfileSchema.parse(await ownProfile(deps, (ctx.user as User).id))),

    setPublicProfile: async (event, ctx) => {
      const input = readJson(event, publicProfileInputSchema);
      return json(200, publicProfileSchema.parse(await setPublicProfile(deps, (ctx.user as User).id, input)));
    },

    deletePublicProfile: async (_event, ctx) => {
      await goPrivate(deps, (ctx.user as User).id);
      return { statusCode: 204, headers: { 'cache-control': 'no-store' } };
    },

    // Public: a signed-in viewer also learns whether they follow the creator.
    getCreator: async (event, ctx) => {
      const viewer = await deps.viewer(event);
      let result: ApiResult;
      try {
        const query = readQuery(event, pageQuerySchema);
        const creator = await creatorPage(deps, handleOf(ctx.params), viewer.user?.id, {
          ...(query.cursor ? { cursor: query.cursor } : {}),
          ...(query.limit ? { limit: limitOf(query) } : {}),
        });
        result = json(200, creatorSchema.parse(creator));
      } catch (error) {
        result = errorToResponse(error);
      }
      return viewer.cookies.length
        ? { ...result, cookies: [...(result.cookies ?? []), ...viewer.cookies] }
        : result;
    },

    followCreator: async (_event, ctx) =>
      json(200, followStateSchema.parse(await follow(deps, (ctx.user as User).id, handleOf(ctx.params)))),

    unfollowCreator: async (_event, ctx) =>
      json(200, followStateSchema.parse(await unfollow(deps, (ctx.user as User).id, handleOf(ctx.params)))),

    getFeed: async (event, ctx) => {
      const query = readQuery(event, pageQuerySchema);
      const page = await feed(deps, (ctx.user as User).id, {
        ...(query.cursor ? { cursor: query.cursor } : {}),
        ...(query.limit ? { limit: limitOf(query) } : {}),
      });
      return json(200, trackPageSchema.parse(page));
    },
  };
}

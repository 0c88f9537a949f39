import { pageQuerySchema, recordPlaySchema, type TrackPage } from '@tunesmith/shared/community';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { isbot } from 'isbot';
import type { User } from '../../domain/accounts/user';
import {
  galleryTrack,
  type LikeDeps,
  type LikeStore,
  likedTracks,
  likeTrack,
  type PlayDeps,
  type PlayStore,
  recordPlay,
  type TrackReader,
  unlikeTrack,
  visibleTrack,
  withCreators,
  withLikedByMe,
} from '../../domain/community/likes';
import type { CreatorNames } from '../../domain/community/ports';
import type { Generation } from '../../domain/tracks/track';
import { type AudioLinker, withPlayableAudio } from '../audio-links';
import { errorToResponse } from '../errors';
import type { GroupHandlers } from '../group-handler';
import { clientAddress, readJson, readQuery } from '../request';
import { type ApiResult, json } from '../responses';
import type { ViewerLookup } from './catalog';

export interface LikeRouteDeps {
  tracks: TrackReader;
  likes: LikeStore;
  plays: PlayStore;
  creators: CreatorNames;
  audioLinks: AudioLinker;
  viewer: ViewerLookup;
  clock: LikeDeps['clock'];
  visitorPlays?: PlayDeps['visitorPlays'];
}

const DEFAULT_PAGE = 24;

/**
 * A page of tracks as lists answer them: playable audio, `creator` and, for a signed-in viewer,
 * `likedByMe`, each filled with one batched read for the page.
 */
export async function trackPageOf(
  deps: Pick<LikeRouteDeps, 'likes' | 'creators' | 'audioLinks'>,
  viewer: Pick<User, 'id'> | undefined,
  generations: Generation[],
  nextCursor: string | null,
): Promise<TrackPage> {
  const owners = new Map(generations.map((g) => [g.id, g.userId]));
  const named = await withCreators(deps.creators, owners, generations.map(galleryTrack));
  const liked = await withLikedByMe(deps.likes, viewer, named);
  const tracks = await Promise.all(liked.map((track) => withPlayableAudio(track, deps.audioLinks)));
  return { tracks, nextCursor };
}

/** Likes, counted plays and the Liked list (decision 057). */
export function likeRoutes(deps: LikeRouteDeps): GroupHandlers {
  const id = (params: Record<string, string>) => params.id ?? '';
  return {
    likeTrack: async (_event, ctx) => json(200, await likeTrack(deps, ctx.user as User, id(ctx.params))),
    unlikeTrack: async (_event, ctx) => json(200, await unlikeTrack(deps, ctx.user as User, id(ctx.params))),

    listLikedTracks: async (event, ctx) => {
      const query = readQuery(event, pageQuerySchema);
      const user = ctx.user as User;
      const page = await likedTracks(deps, user, {
        limit: query.limit ? Number(query.limit) : DEFAULT_PAGE,
        ...(query.cursor ? { cursor: query.cursor } : {}),
      });
      return json(200, await trackPageOf(deps, user, page.generations, page.nextCursor));
    },

    // Public: a visitor's play counts under the anonymous id their browser keeps.
    recordPlay: async (event, ctx) => {
      const viewer = await deps.viewer(event);
      const answer = async (): Promise<ApiResult> => {
        const body = await (async () => {
          try {
            return readJson(event, recordPlaySchema);
          } catch (error) {
            // A track the caller may not see is not found, whatever they sent: its existence is not told.
            await visibleTrack(deps.tracks, viewer.user, id(ctx.params));
            throw error;
          }
        })();
        return json(
          200,
          await recordPlay(
            deps,
            {
              viewer: viewer.user,
              listenerId: body.listenerId,
              listenedSeconds: body.listenedSeconds,
              isBot: isbot(userAgent(event)),
              address: clientAddress(event),
            },
            id(ctx.params),
          ),
        );
      };
      const result = await answer().catch(errorToResponse);
      return viewer.cookies.length
        ? { ...result, cookies: [...(result.cookies ?? []), ...viewer.cookies] }
        : result;
    },
  };
}

const userAgent = (event: APIGatewayProxyEventV2): string =>
  event.headers?.['user-agent'] ?? event.requestContext?.http?.userAgent ?? '';

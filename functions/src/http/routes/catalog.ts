import { publicTracksQuerySchema } from '@tunesmith/shared/community';
import { PUBLIC_TRACKS_PAGE_SIZE } from '@tunesmith/shared/constants';
import { generationMessages } from '@tunesmith/shared/generation-values';
import { LRC_CONTENT_TYPE, LYRICS_FORMATS, NO_LYRICS_MESSAGE } from '@tunesmith/shared/lyrics';
import { type TrackStems, trackStemsQuerySchema } from '@tunesmith/shared/stems';
import { UNTITLED_TRACK } from '@tunesmith/shared/tracks';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { attachmentDisposition } from '../../adapters/s3/links';
import type { User } from '../../domain/accounts/user';
import {
  type GalleryDeps,
  galleryPage,
  galleryTrack,
  type LikeStore,
  withCreators,
  withLikedByMe,
} from '../../domain/community/likes';
import type { CreatorNames } from '../../domain/community/ports';
import { remixCreditOf } from '../../domain/community/remixes';
import { notFound, validationError } from '../../domain/errors';
import { downloadFilename } from '../../domain/generations/download';
import {
  familyOf,
  getForViewer,
  getPlayableForViewer,
  parentForViewer,
} from '../../domain/generations/generation-service';
import type { GenerationStore } from '../../domain/generations/ports';
import { lrcFileName, toLrc } from '../../domain/lyrics/lrc';
import type { LyricsStore } from '../../domain/lyrics/lyrics-timing';
import { listModels, type ModelsDeps } from '../../domain/models/models-service';
import type { PlanRepository } from '../../domain/plans/plan';
import { listActivePlans } from '../../domain/plans/plan-service';
import type { SettingsRepository } from '../../domain/settings/settings';
import { publicSite } from '../../domain/settings/site';
import { stemsForViewer } from '../../domain/stems/stems-service';
import { provenanceOf } from '../../domain/tracks/provenance';
import { type Generation, playbackAudio } from '../../domain/tracks/track';
import { listPublicGenerations } from '../../domain/tracks/track-service';
import { type AudioLinker, playableTrack, withPlayableAudio } from '../audio-links';
import { errorToResponse } from '../errors';
import type { GroupHandlers, RouteContext } from '../group-handler';
import { readQuery } from '../request';
import { type ApiResult, json, redirect } from '../responses';

/**
 * How long a shared link's audio redirect may be reused: minutes, far inside
 * the signed link's 6 hours (decision 008), so a cached redirect never
 * outlives the link it names.
 */
export const AUDIO_REDIRECT_CACHE = 'public, max-age=300';

/** Who is looking at a public page: a signed-in user (with refreshed session cookies) or a visitor. */
export type ViewerLookup = (event: APIGatewayProxyEventV2) => Promise<{
  /** The signed-in user; their plan's fields decide which models they may use. */
  user?: Pick<User, 'id'> & Partial<Pick<User, 'planStatus' | 'planEndDate' | 'subscriptionPlanId'>>;
  cookies: string[];
}>;

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
  /** The site's public origin (PUBLIC_ORIGIN): the terms link of a record from before licenses. */
  siteOrigin: string;
  /** Tracks' timed lyrics. */
  lyrics: Pick<LyricsStore, 'get'>;
  /** The models' settings (decision 051). */
  modelSettings: ModelsDeps['modelSettings'];
  /** The gallery's sorted indexes and the day they rank by (decision 057). */
  gallery: GalleryDeps;
  /** Whether the signed-in viewer likes the tracks answered (`likedByMe`). */
  likes: Pick<LikeStore, 'likedAmong'>;
  /** Track owners' public names (`creator`). */
  creators: CreatorNames;
}

const noPublicNames: CreatorNames = { names: async () => new Map() };

/**
 * Public catalogue calls: plans, the community gallery, the track page, a
 * track's provenance, its audio for a shared link and how the site names
 * itself.
 */
export function catalogRoutes(deps: CatalogDeps): GroupHandlers {
  /**
   * Answers for whoever may see track `{id}` (a private one only for its
   * owner; `find` may ask more of it), else 404, with refreshed cookies.
   */
  const forViewer =
    (
      answer: (
        generation: Generation,
        viewer: Pick<User, 'id'> | undefined,
        event: APIGatewayProxyEventV2,
      ) => Promise<ApiResult>,
      find: typeof getForViewer = getForViewer,
    ) =>
    async (event: APIGatewayProxyEventV2, ctx: RouteContext): Promise<ApiResult> => {
      const viewer = await deps.viewer(event);
      const cookies = viewer.cookies;
      try {
        const generation = await find(deps, viewer.user, ctx.params.id ?? '');
        const result = await answer(generation, viewer.user, event);
        return cookies.length ? { ...result, cookies: [...(result.cookies ?? []), ...cookies] } : result;
      } catch (error) {
        const refusal = errorToResponse(error);
        return cookies.length ? { ...refusal, cookies: [...(refusal.cookies ?? []), ...cookies] } : refusal;
      }
    };

  // A shared link's audio (og:audio, decision 024): a 302 to a freshly signed link to what the track
  // page's player gets, for whoever may play it (finished, with audio, visible to them); else 404.
  const trackAudio = forViewer(async (generation, viewer) => {
    const link = await deps.audioLinks(playbackAudio(generation));
    if (!link) throw notFound(generationMessages.trackNotFound);
    // Cached well within the link's 6 hours; a signed-in viewer's answer is theirs alone.
    return redirect(link, viewer ? 'private, no-store' : AUDIO_REDIRECT_CACHE);
  }, getPlayableForViewer);

  return {
    listPlans: async () => json(200, await listActivePlans(deps.plans)),

    // Read on every page load, so a saved Site Name shows on the next one.
    getSite: async () => json(200, await publicSite(deps.settings, deps.siteName)),

    // Without `sort` and `cursor`: the spec's array of the newest. With either: a page and its cursor.
    listPublicTracks: async (event) => {
      const viewer = await deps.viewer(event);
      const answer = async (): Promise<ApiResult> => {
        const query = readQuery(event, publicTracksQuerySchema);
        const paged = query.sort !== undefined || query.cursor !== undefined;
        const found = paged
          ? await galleryPage(deps.gallery, {
              sort: query.sort ?? 'new',
              limit: query.limit ? Number(query.limit) : PUBLIC_TRACKS_PAGE_SIZE,
              ...(query.cursor ? { cursor: query.cursor } : {}),
            })
          : { generations: await listPublicGenerations(deps.generations), nextCursor: null };
        const owners = new Map(found.generations.map((g) => [g.id, g.userId]));
        const named = await withCreators(deps.creators, owners, found.generations.map(galleryTrack));
        const liked = await withLikedByMe(deps.likes, viewer.user, named);
        const tracks = await Promise.all(liked.map((track) => withPlayableAudio(track, deps.audioLinks)));
        return json(200, paged ? { tracks, nextCursor: found.nextCursor } : tracks);
      };
      const result = await answer().catch(errorToResponse);
      return viewer.cookies.length
        ? { ...result, cookies: [...(result.cookies ?? []), ...viewer.cookies] }
        : result;
    },

    // A private track is found only for its signed-in owner; everyone else gets not found.
    getTrack: forViewer(async (generation, viewer) => {
      // The page names the track's parent and children, as far as this viewer may see them;
      // a parent they may not see is not named in the track either.
      const [track, family, creators] = await Promise.all([
        playableTrack(generation, deps.audioLinks),
        familyOf(deps, viewer, generation),
        deps.creators.names([generation.userId]),
      ]);
      const [liked] = await withLikedByMe(deps.likes, viewer, [track]);
      const creator = creators.get(generation.userId) ?? null;
      const remixOf = await remixCreditOf(deps, generation);
      return json(200, { ...liked, creator, parentId: family.parent?.id ?? null, family, remixOf });
    }),

    // What made the track and what its owner may do with it: for whoever may see the track,
    // naming its parent only to those who may see the parent.
    // A remix's source is named while it is listed (decision 060).
    getTrackProvenance: forViewer(async (generation, viewer) => {
      const [parent, credit] = await Promise.all([
        parentForViewer(deps, viewer, generation),
        remixCreditOf({ ...deps, creators: noPublicNames }, generation),
      ]);
      const named = { parentNamed: parent !== null, remixNamed: credit?.available !== false };
      return json(200, provenanceOf(generation, deps.siteOrigin, named));
    }),

    // The lyrics in time, for whoever may see the track; 404 for a track without them (instrumental, not
    // finished, or not timed yet). `?format=lrc` answers them as an .lrc file named after the WAV.
    getTrackLyrics: forViewer(async (generation, _viewer, event) => {
      const format = event.queryStringParameters?.format ?? 'json';
      if (!(LYRICS_FORMATS as readonly string[]).includes(format))
        throw validationError(`format must be one of ${LYRICS_FORMATS.join(', ')}`);
      const timed = generation.status === 'completed' ? await deps.lyrics.get(generation.id) : undefined;
      if (!timed) throw notFound(NO_LYRICS_MESSAGE);
      if (format === 'json') return json(200, timed);
      const name = lrcFileName(downloadFilename(generation.title));
      return {
        statusCode: 200,
        headers: {
          'content-type': LRC_CONTENT_TYPE,
          'content-disposition': attachmentDisposition(name),
          'cache-control': 'no-store',
          'x-content-type-options': 'nosniff',
        },
        body: toLrc(timed, { title: generation.title ?? UNTITLED_TRACK, length: generation.duration }),
      };
    }),

    // The stems of a track (decision 044), for whoever may see it, signed like its own audio.
    getTrackStems: async (event, ctx) => {
      const viewer = await deps.viewer(event);
      try {
        const { set } = readQuery(event, trackStemsQuerySchema);
        const found = await stemsForViewer(deps, viewer.user, ctx.params.id ?? '', set);
        const stems = await Promise.all(
          found.stems.map(async (stem) => {
            const [audioUrl, peaksUrl] = await Promise.all([
              deps.audioLinks(stem.audio),
              deps.audioLinks(stem.peaks),
            ]);
            return { name: stem.name, audioUrl, peaksUrl, sha256: stem.sha256, loudness: stem.loudness };
          }),
        );
        const body: TrackStems = { status: found.status, ...(found.set ? { set: found.set } : {}), stems };
        return { ...json(200, body), ...(viewer.cookies.length ? { cookies: viewer.cookies } : {}) };
      } catch (error) {
        const refusal = errorToResponse(error);
        return viewer.cookies.length
          ? { ...refusal, cookies: [...(refusal.cookies ?? []), ...viewer.cookies] }
          : refusal;
      }
    },

    // The models that are on (decision 051); `available` says which the signed-in user's plan offers.
    listModels: async (event) => {
      const viewer = await deps.viewer(event);
      const user = viewer.user;
      const plan = user?.subscriptionPlanId ? await deps.plans.get(user.subscriptionPlanId) : undefined;
      const answer = await listModels(
        { modelSettings: deps.modelSettings, plans: deps.plans, clock: { now: () => new Date() } },
        user
          ? { planStatus: user.planStatus ?? 'free', planEndDate: user.planEndDate ?? null, plan }
          : undefined,
      );
      // What a user may use is theirs alone.
      const result = json(200, answer);
      return viewer.cookies.length ? { ...result, cookies: viewer.cookies } : result;
    },

    getTrackAudio: trackAudio,
    // The same answer to a HEAD (a link preview checking the audio). A 404's body is not sent: Node's
    // server (locally) and CloudFront (on AWS) send no body with the answer to a HEAD.
    headTrackAudio: trackAudio,
  };
}

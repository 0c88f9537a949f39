import { updateGenerationSchema } from '@tunesmith/shared/generations';
import type { User } from '../../domain/accounts/user';
import { trackDownload } from '../../domain/generations/download';
import {
  deleteGeneration,
  getOwn,
  listLibrary,
  renameOrSetVisibility,
} from '../../domain/generations/generation-service';
import type { GenerationDeps } from '../../domain/generations/ports';
import type { PlanRepository } from '../../domain/plans/plan';
import { changeSharedTrack, type SharePageDeps } from '../../domain/tracks/share-page';
import { isDownloadReady, playbackAudio, toTrack } from '../../domain/tracks/track';
import { ownUploadKey, type UploadStore } from '../../domain/uploads/uploads';
import { type AudioLinker, playableTrack, playableTracks } from '../audio-links';
import type { GroupHandlers } from '../group-handler';
import { logger } from '../logger';
import { readJson } from '../request';
import { json } from '../responses';

/** A finished track's stored audio, as the library needs it. */
export interface TrackAudioFiles {
  /** A link that makes the browser save the stored audio as `filename`. */
  downloadLink(stored: string, filename: string): Promise<string>;
  /** Removes the stored audio of a deleted track. */
  remove(stored: string): Promise<void>;
}

export interface LibraryRouteDeps {
  generations: GenerationDeps;
  plans: PlanRepository;
  /** Presigns stored audio for the owner's player. */
  audioLinks: AudioLinker;
  /** Download links and removal of finished audio. */
  trackAudio: TrackAudioFiles;
  /** The uploads bucket: a deleted remix takes its uploaded song with it. */
  uploads: UploadStore;
  /** Share documents: they follow a rename, a visibility change and a delete (decision 024). */
  sharePages: SharePageDeps;
}

/** The owner's library: list, status, title/visibility, delete and download. */
export function libraryRoutes(deps: LibraryRouteDeps): GroupHandlers {
  const planOf = async (user: User) =>
    user.subscriptionPlanId ? deps.plans.get(user.subscriptionPlanId) : undefined;
  const onRefreshFailure = (generationId: string, error: unknown) =>
    logger.warn('the share page of a changed track was not brought in line', { generationId, error });
  return {
    listMyGenerations: async (_event, ctx) => {
      const tracks = await listLibrary(deps.generations, ctx.user as User);
      return json(200, await playableTracks(tracks, deps.audioLinks));
    },

    getGenerationStatus: async (_event, ctx) => {
      const generation = await getOwn(deps.generations, ctx.user as User, ctx.params.id ?? '');
      const { status, duration, tags, type } = generation;
      const [audioUrl, peaksUrl] = await Promise.all([
        deps.audioLinks(playbackAudio(generation)),
        deps.audioLinks(generation.peaksUrl ?? null),
      ]);
      return json(200, {
        status,
        audioUrl,
        peaksUrl,
        duration,
        tags,
        type,
        // The Create page's download dialog says what the finished track may be used for, once it is there.
        license: toTrack(generation).license,
        downloadReady: isDownloadReady(generation),
      });
    },

    updateGeneration: async (event, ctx) => {
      const input = readJson(event, updateGenerationSchema);
      const user = ctx.user as User;
      const id = ctx.params.id ?? '';
      // Only the owner's track is touched, its share page included; anyone else's is not found.
      await getOwn(deps.generations, user, id);
      const plan = await planOf(user);
      const updated = await changeSharedTrack(
        deps.sharePages,
        id,
        { hides: input.visibility === 'private', onRefreshFailure },
        () => renameOrSetVisibility(deps.generations, user, plan, id, input),
      );
      return json(200, await playableTrack(updated, deps.audioLinks));
    },

    deleteGeneration: async (_event, ctx) => {
      const user = ctx.user as User;
      const id = ctx.params.id ?? '';
      await getOwn(deps.generations, user, id);
      // Its share page goes first: if it cannot, the track stays.
      const { generation, audioUrls } = await changeSharedTrack(
        deps.sharePages,
        id,
        { hides: true, onRefreshFailure },
        () => deleteGeneration(deps.generations, user, id),
      );
      const removals = await Promise.allSettled(
        audioUrls.map((stored) => {
          const uploadKey = ownUploadKey(stored, user.id);
          return uploadKey ? deps.uploads.delete(uploadKey) : deps.trackAudio.remove(stored);
        }),
      );
      // The track is gone either way; an object left behind is logged, not shown to the user.
      for (const removal of removals) {
        if (removal.status === 'rejected') {
          logger.warn('audio of a deleted track was not removed', {
            generationId: generation.id,
            error: removal.reason,
          });
        }
      }
      return { statusCode: 204, headers: { 'cache-control': 'no-store' } };
    },

    downloadGeneration: async (event, ctx) => {
      const user = ctx.user as User;
      // `?name=` picks the saved file's name (made safe in the domain); the title by default.
      const name = event.queryStringParameters?.name?.slice(0, 200);
      const { audioUrl, filename } = await trackDownload(
        deps.generations,
        user,
        await planOf(user),
        ctx.params.id ?? '',
        name,
      );
      return json(200, { url: await deps.trackAudio.downloadLink(audioUrl, filename), filename });
    },
  };
}

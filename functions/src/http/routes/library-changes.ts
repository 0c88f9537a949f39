import { updateGenerationSchema } from '@tunesmith/shared/generations';
import type { User } from '../../domain/accounts/user';
import { trackDownload } from '../../domain/generations/download';
import { deleteGeneration, getOwn, renameOrSetVisibility } from '../../domain/generations/generation-service';
import type { GenerationDeps } from '../../domain/generations/ports';
import type { PlanRepository } from '../../domain/plans/plan';
import { changeSharedTrack, type SharePageDeps } from '../../domain/tracks/share-page';
import { ownUploadKey, type UploadStore } from '../../domain/uploads/uploads';
import { type AudioLinker, playableTrack } from '../audio-links';
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

export interface TrackChangeRouteDeps {
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

/** Changing a track of the owner's library: title and visibility, delete, download. */
export function trackChangeRoutes(deps: TrackChangeRouteDeps): GroupHandlers {
  const planOf = async (user: User) =>
    user.subscriptionPlanId ? deps.plans.get(user.subscriptionPlanId) : undefined;
  const onRefreshFailure = (generationId: string, error: unknown) =>
    logger.warn('the share page of a changed track was not brought in line', { generationId, error });
  return {
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

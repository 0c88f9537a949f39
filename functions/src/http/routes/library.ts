import type { User } from '../../domain/accounts/user';
import { getOwn, listLibrary } from '../../domain/generations/library';
import type { GenerationDeps } from '../../domain/generations/ports';
import { isDownloadReady, playbackAudio, toTrack } from '../../domain/tracks/track';
import { type AudioLinker, playableTracks } from '../audio-links';
import type { GroupHandlers } from '../group-handler';
import { json } from '../responses';

export interface LibraryRouteDeps {
  generations: GenerationDeps;
  /** Presigns stored audio for the owner's player. */
  audioLinks: AudioLinker;
}

/**
 * Reading the owner's library: the list and a track's status, what the
 * library and create pages ask for first. Changing a track is in
 * library-changes.ts, loaded with the first change (decision 042).
 */
export function libraryRoutes(deps: LibraryRouteDeps): GroupHandlers {
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
        // Tempo and key measured from the audio, once completed (null before, or for a track from before them).
        analysis: generation.analysis ?? null,
        // The model it is made with (decision 051); a track from before the choice reads as the default.
        model: toTrack(generation).model,
      });
    },
  };
}

import {
  createPlaylistSchema,
  type Playlist,
  playlistListSchema,
  playlistSchema,
  setPlaylistTracksSchema,
  updatePlaylistSchema,
} from '@tunesmith/shared/community';
import type { User } from '../../domain/accounts/user';
import {
  createPlaylist,
  deletePlaylist,
  getPlaylist,
  listMyPlaylists,
  type PlaylistDeps,
  type PlaylistView,
  setPlaylistTracks,
  updatePlaylist,
} from '../../domain/community/playlists';
import { type AudioLinker, playableTrack } from '../audio-links';
import { errorToResponse } from '../errors';
import type { GroupHandlers } from '../group-handler';
import { readJson } from '../request';
import { json } from '../responses';
import type { ViewerLookup } from './catalog';

export interface PlaylistRouteDeps extends PlaylistDeps {
  /** Signs the audio and peaks of the tracks the viewer may see. */
  audioLinks: AudioLinker;
  /** Who opens a playlist: it is a public page, so a visitor is fine. */
  viewer: ViewerLookup;
}

/** Playlists (decision 058): the owner's calls, and the public page's read. */
export function playlistRoutes(deps: PlaylistRouteDeps): GroupHandlers {
  const answer = async ({ summary, entries }: PlaylistView): Promise<Playlist> =>
    playlistSchema.parse({
      ...summary,
      tracks: await Promise.all(
        entries.map(async ({ generation, creator }) => ({
          ...(await playableTrack(generation, deps.audioLinks)),
          creator,
        })),
      ),
    });
  const owner = (user: User | undefined) => (user as User).id;

  return {
    createPlaylist: async (event, ctx) => {
      const request = readJson(event, createPlaylistSchema);
      return json(201, await answer(await createPlaylist(deps, owner(ctx.user), request)));
    },
    listMyPlaylists: async (_event, ctx) =>
      json(200, playlistListSchema.parse({ playlists: await listMyPlaylists(deps, owner(ctx.user)) })),
    // Public: a visitor sees a public playlist; a private one is its owner's alone, else 404.
    getPlaylist: async (event, ctx) => {
      const viewer = await deps.viewer(event);
      const withCookies = (result: ReturnType<typeof json>) =>
        viewer.cookies.length
          ? { ...result, cookies: [...(result.cookies ?? []), ...viewer.cookies] }
          : result;
      try {
        return withCookies(
          json(200, await answer(await getPlaylist(deps, viewer.user, ctx.params.id ?? ''))),
        );
      } catch (error) {
        return withCookies(errorToResponse(error));
      }
    },
    updatePlaylist: async (event, ctx) => {
      const request = readJson(event, updatePlaylistSchema);
      return json(
        200,
        await answer(await updatePlaylist(deps, owner(ctx.user), ctx.params.id ?? '', request)),
      );
    },
    deletePlaylist: async (_event, ctx) => {
      await deletePlaylist(deps, owner(ctx.user), ctx.params.id ?? '');
      return { statusCode: 204, headers: { 'cache-control': 'no-store' } };
    },
    setPlaylistTracks: async (event, ctx) => {
      const { trackIds } = readJson(event, setPlaylistTracksSchema);
      return json(
        200,
        await answer(await setPlaylistTracks(deps, owner(ctx.user), ctx.params.id ?? '', trackIds)),
      );
    },
  };
}

import {
  createPlaylistSchema,
  type Playlist,
  playlistListSchema,
  playlistSchema,
  setPlaylistTracksSchema,
  type UpdatePlaylistRequest,
  updatePlaylistSchema,
} from '@tunesmith/shared/community';
import type { User } from '../../domain/accounts/user';
import {
  changeSharedPlaylist,
  type PlaylistShareDeps,
  refreshPlaylistSharePage,
} from '../../domain/community/playlist-share-page';
import {
  createPlaylist,
  deletePlaylist,
  getOwnPlaylist,
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
import { logger } from '../logger';
import { readJson } from '../request';
import { json } from '../responses';
import type { ViewerLookup } from './catalog';

export interface PlaylistRouteDeps extends PlaylistDeps {
  /** Signs the audio and peaks of the tracks the viewer may see. */
  audioLinks: AudioLinker;
  /** Who opens a playlist: it is a public page, so a visitor is fine. */
  viewer: ViewerLookup;
  /** Public playlists' share documents, brought in line after every change (loaded on the first change). */
  sharing: () => PlaylistShareDeps;
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
  const onRefreshFailure = (playlistId: string, error: unknown) =>
    logger.warn('the share page of a changed playlist was not brought in line', { playlistId, error });
  /** Runs a change to the user's own playlist (checked first, so nobody takes down another's page), then its page. */
  // The body is read after the ownership check: another's playlist is a 404 whatever is sent.
  const changeOwn = async <T>(userId: string, id: string, hides: () => boolean, change: () => Promise<T>) => {
    const current = await getOwnPlaylist(deps, userId, id);
    // Only a public playlist has a document to take down first.
    const first = current.visibility === 'public' && hides();
    return changeSharedPlaylist(deps.sharing(), id, { hides: first, onRefreshFailure }, change);
  };

  return {
    createPlaylist: async (event, ctx) => {
      const request = readJson(event, createPlaylistSchema);
      const made = await createPlaylist(deps, owner(ctx.user), request);
      await refreshPlaylistSharePage(deps.sharing(), made.summary.id).catch((error: unknown) =>
        onRefreshFailure(made.summary.id, error),
      );
      return json(201, await answer(made));
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
      const [userId, id] = [owner(ctx.user), ctx.params.id ?? ''];
      let request: UpdatePlaylistRequest | undefined;
      const body = () => {
        request ??= readJson(event, updatePlaylistSchema);
        return request;
      };
      const changed = await changeOwn(
        userId,
        id,
        () => body().visibility === 'private',
        () => updatePlaylist(deps, userId, id, body()),
      );
      return json(200, await answer(changed));
    },
    deletePlaylist: async (_event, ctx) => {
      const [userId, id] = [owner(ctx.user), ctx.params.id ?? ''];
      await changeOwn(
        userId,
        id,
        () => true,
        () => deletePlaylist(deps, userId, id),
      );
      return { statusCode: 204, headers: { 'cache-control': 'no-store' } };
    },
    setPlaylistTracks: async (event, ctx) => {
      const [userId, id] = [owner(ctx.user), ctx.params.id ?? ''];
      // The first track's audio is in the preview: the document follows the order.
      const set = await changeOwn(
        userId,
        id,
        () => false,
        () => setPlaylistTracks(deps, userId, id, readJson(event, setPlaylistTracksSchema).trackIds),
      );
      return json(200, await answer(set));
    },
  };
}

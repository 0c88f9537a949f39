import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import * as communityCalls from '@tunesmith/shared/calls/community';
import {
  type CreatePlaylistRequest,
  type Playlist,
  type PlaylistCard,
  playlistListSchema,
  playlistSchema,
  type UpdatePlaylistRequest,
} from '@tunesmith/shared/community';
import { apiRequest } from '@/lib/api-client';

/** Everything about playlists is under this key: a change refreshes the lists and the pages. */
export const playlistsQueryKey = ['playlists'] as const;
export const myPlaylistsQueryKey = ['playlists', 'mine'] as const;
export const playlistQueryKey = (id: string) => ['playlists', 'one', id] as const;

/** The signed-in user's playlists, newest first (`GET /api/playlists`). */
export async function listMyPlaylists(): Promise<PlaylistCard[]> {
  return playlistListSchema.parse(await apiRequest(communityCalls.listMyPlaylists)).playlists;
}

export const myPlaylistsQueryOptions = () =>
  queryOptions({ queryKey: myPlaylistsQueryKey, queryFn: listMyPlaylists });

export function useMyPlaylists(enabled = true) {
  return useQuery({ ...myPlaylistsQueryOptions(), enabled });
}

/** A playlist as the viewer may see it (`GET /api/playlists/{id}`; 404 when it is not theirs to see). */
export async function getPlaylist(id: string): Promise<Playlist> {
  return playlistSchema.parse(await apiRequest(communityCalls.getPlaylist, { params: { id } }));
}

export const playlistQueryOptions = (id: string) =>
  queryOptions({
    queryKey: playlistQueryKey(id),
    queryFn: () => getPlaylist(id),
    // A failure the page already waited for (usePageData) is shown, not asked again on mount.
    retryOnMount: false,
  });

export function usePlaylist(id: string) {
  return useQuery(playlistQueryOptions(id));
}

/** Keeps what the server answered for one playlist, and reads the lists again. */
function useSettle() {
  const queryClient = useQueryClient();
  return (playlist?: Playlist) => {
    if (playlist) queryClient.setQueryData(playlistQueryKey(playlist.id), playlist);
    return queryClient.invalidateQueries({ queryKey: myPlaylistsQueryKey });
  };
}

/** Makes a playlist (`POST /api/playlists`, 201). */
export async function createPlaylist(input: CreatePlaylistRequest): Promise<Playlist> {
  return playlistSchema.parse(await apiRequest(communityCalls.createPlaylist, { body: input }));
}

export function useCreatePlaylist() {
  const settle = useSettle();
  return useMutation({ mutationFn: createPlaylist, onSuccess: (playlist) => settle(playlist) });
}

/** Renames, describes or changes the visibility of one's own playlist (`PATCH /api/playlists/{id}`). */
export async function updatePlaylist(id: string, input: UpdatePlaylistRequest): Promise<Playlist> {
  return playlistSchema.parse(
    await apiRequest(communityCalls.updatePlaylist, { params: { id }, body: input }),
  );
}

export function useUpdatePlaylist() {
  const settle = useSettle();
  return useMutation({
    mutationFn: ({ id, input }: { id: string; input: UpdatePlaylistRequest }) => updatePlaylist(id, input),
    onSuccess: (playlist) => settle(playlist),
  });
}

/** Sets the whole order of one's own playlist (`PUT /api/playlists/{id}/tracks`). */
export async function setPlaylistTracks(id: string, trackIds: string[]): Promise<Playlist> {
  return playlistSchema.parse(
    await apiRequest(communityCalls.setPlaylistTracks, { params: { id }, body: { trackIds } }),
  );
}

export function useSetPlaylistTracks() {
  const settle = useSettle();
  return useMutation({
    mutationFn: ({ id, trackIds }: { id: string; trackIds: string[] }) => setPlaylistTracks(id, trackIds),
    onSuccess: (playlist) => settle(playlist),
  });
}

/**
 * Adds a track at the end of one of the user's playlists: the playlist as it is now, then the whole
 * order with the track appended (the call sets the order). A track already there stays where it is.
 */
export async function addTrackToPlaylist(
  id: string,
  trackId: string,
): Promise<{ playlist: Playlist; added: boolean }> {
  const current = await getPlaylist(id);
  const ids = current.tracks.map((track) => track.id);
  if (ids.includes(trackId)) return { playlist: current, added: false };
  return { playlist: await setPlaylistTracks(id, [...ids, trackId]), added: true };
}

export function useAddTrackToPlaylist() {
  const settle = useSettle();
  return useMutation({
    mutationFn: ({ id, trackId }: { id: string; trackId: string }) => addTrackToPlaylist(id, trackId),
    onSuccess: ({ playlist }) => settle(playlist),
  });
}

/** Deletes one's own playlist (`DELETE /api/playlists/{id}`, 204). */
export async function deletePlaylist(id: string): Promise<void> {
  await apiRequest(communityCalls.deletePlaylist, { params: { id } });
}

export function useDeletePlaylist() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deletePlaylist,
    onSuccess: (_answer, id) => {
      queryClient.setQueryData<PlaylistCard[]>(myPlaylistsQueryKey, (list) =>
        list?.filter((playlist) => playlist.id !== id),
      );
      queryClient.removeQueries({ queryKey: playlistQueryKey(id) });
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: myPlaylistsQueryKey }),
  });
}

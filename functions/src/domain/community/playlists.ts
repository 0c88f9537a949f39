/**
 * Playlists (decision 058): a user's ordered lists of tracks, private or public. The order is kept
 * as written; what a viewer gets is decided when they read it, so a track made private, hidden or
 * deleted after it was added leaves everyone's view at once but its owner's.
 */
import {
  type CreatePlaylistRequest,
  PLAYLIST_TRACKS_MAX,
  PLAYLISTS_MAX,
  type PlaylistCard,
  type PlaylistSummary,
  playlistMessages,
  type UpdatePlaylistRequest,
} from '@tunesmith/shared/community';
import type { CreatorRef, Visibility } from '@tunesmith/shared/tracks';
import type { Clock } from '../accounts/ports';
import { conflict, notFound, validationError } from '../errors';
import { type Generation, isGalleryVisible } from '../tracks/track';
import type { CreatorNames, PublicPlaylists } from './ports';

/** A playlist as stored: its owner and its tracks' ids, in order. */
export interface StoredPlaylist {
  id: string;
  userId: string;
  title: string;
  description: string | null;
  visibility: Visibility;
  trackIds: string[];
  createdAt: string;
  updatedAt: string;
}

/** A playlist as stored, without its tracks: what a list of cards reads. */
export type StoredPlaylistHead = Omit<StoredPlaylist, 'trackIds'>;

/** What a change writes: the fields that change, and when. */
export type PlaylistChange = Partial<
  Pick<StoredPlaylist, 'title' | 'description' | 'visibility' | 'trackIds'>
> & {
  updatedAt: string;
};

/** Storage port for playlists. */
export interface PlaylistStore {
  /** Stores a new playlist unless its owner already keeps `max` (also when creates race); false when at the cap. */
  create(playlist: StoredPlaylist, max: number): Promise<boolean>;
  get(id: string): Promise<StoredPlaylist | undefined>;
  /** A user's playlists (or only those of one visibility), newest first, without their tracks' ids. */
  headsByOwner(userId: string, only?: Visibility): Promise<StoredPlaylistHead[]>;
  /** Changes the playlist only if `userId` owns it; undefined when it does not exist or is another's. */
  update(id: string, userId: string, change: PlaylistChange): Promise<StoredPlaylist | undefined>;
  /** Deletes the playlist only if `userId` owns it; false when it does not exist or is another's. */
  delete(id: string, userId: string): Promise<boolean>;
  /** Every playlist of the user, and their count (account deletion); safe to run again. */
  removeAll(userId: string): Promise<void>;
}

/** Reads tracks by id for playlists: the ones that exist. */
export interface PlaylistTracks {
  many(ids: readonly string[]): Promise<Map<string, Generation>>;
}

export interface PlaylistDeps {
  playlists: PlaylistStore;
  tracks: PlaylistTracks;
  /** Public names of owners and creators; a user without a public profile stays anonymous. */
  creators: CreatorNames;
  clock: Clock;
  newId: () => string;
}

type Viewer = { id: string } | undefined;

/**
 * Whether a viewer sees a track in a playlist: their own finished track whatever its visibility,
 * anyone else's only while it is listed (public, finished, shown in the gallery, not hidden).
 */
export const seesInPlaylist = (g: Generation, viewer: Viewer): boolean =>
  g.status === 'completed' && (g.userId === viewer?.id || isGalleryVisible(g));

/** Whether a viewer may open the playlist at all: a public one anyone, a private one its owner. */
const mayOpen = (p: StoredPlaylist, viewer: Viewer): boolean =>
  p.visibility === 'public' || p.userId === viewer?.id;

/** A track in a playlist as the viewer gets it, with its creator's public name (null: anonymous). */
export interface PlaylistEntry {
  generation: Generation;
  creator: CreatorRef | null;
}

/** A playlist as the viewer gets it; the handler turns the entries into playable tracks. */
export interface PlaylistView {
  summary: PlaylistSummary;
  entries: PlaylistEntry[];
}

const cardOf = (p: StoredPlaylistHead, viewer: Viewer, owner: CreatorRef | null): PlaylistCard => ({
  id: p.id,
  title: p.title,
  description: p.description,
  visibility: p.visibility,
  owner,
  ownedByMe: p.userId === viewer?.id,
  createdAt: p.createdAt,
  updatedAt: p.updatedAt,
});

const summaryOf = (
  p: StoredPlaylist,
  viewer: Viewer,
  trackCount: number,
  owner: CreatorRef | null,
): PlaylistSummary => ({ ...cardOf(p, viewer, owner), trackCount });

const unique = (ids: readonly string[]): string[] => [...new Set(ids)];

/** What reading a playlist needs. */
export type PlaylistReadDeps = Pick<PlaylistDeps, 'playlists' | 'tracks' | 'creators'>;

async function view(deps: PlaylistReadDeps, p: StoredPlaylist, viewer: Viewer): Promise<PlaylistView> {
  const tracks = await deps.tracks.many(p.trackIds);
  const seen = p.trackIds.flatMap((id) => {
    const g = tracks.get(id);
    return g && seesInPlaylist(g, viewer) ? [g] : [];
  });
  const names = await deps.creators.names(unique([p.userId, ...seen.map((g) => g.userId)]));
  return {
    summary: summaryOf(p, viewer, seen.length, names.get(p.userId) ?? null),
    entries: seen.map((generation) => ({ generation, creator: names.get(generation.userId) ?? null })),
  };
}

/** Makes an empty playlist for the user; refused (409) once they keep {@link PLAYLISTS_MAX}. */
export async function createPlaylist(
  deps: PlaylistDeps,
  userId: string,
  request: CreatePlaylistRequest,
): Promise<PlaylistView> {
  const at = deps.clock.now().toISOString();
  const playlist: StoredPlaylist = {
    id: deps.newId(),
    userId,
    title: request.title,
    description: request.description || null,
    visibility: request.visibility,
    trackIds: [],
    createdAt: at,
    updatedAt: at,
  };
  if (!(await deps.playlists.create(playlist, PLAYLISTS_MAX))) throw conflict(playlistMessages.tooMany);
  return view(deps, playlist, { id: userId });
}

/**
 * The user's own playlists, newest first, as cards (decision 062): one read of the playlists
 * without their tracks, and one of the user's public name.
 */
export async function listMyPlaylists(
  deps: Pick<PlaylistDeps, 'playlists' | 'creators'>,
  userId: string,
): Promise<PlaylistCard[]> {
  const heads = await deps.playlists.headsByOwner(userId);
  if (heads.length === 0) return [];
  const owner = (await deps.creators.names([userId])).get(userId) ?? null;
  return heads.map((p) => cardOf(p, { id: userId }, owner));
}

/** A playlist for whoever may open it (a private one only its owner), else 404. */
export async function getPlaylist(deps: PlaylistReadDeps, viewer: Viewer, id: string): Promise<PlaylistView> {
  const playlist = await deps.playlists.get(id);
  if (!playlist || !mayOpen(playlist, viewer)) throw notFound(playlistMessages.notFound);
  return view(deps, playlist, viewer);
}

/** The user's own playlist as stored; another's, or none, is a 404 (checked before any change touches it). */
export async function getOwnPlaylist(
  deps: Pick<PlaylistDeps, 'playlists'>,
  userId: string,
  id: string,
): Promise<StoredPlaylist> {
  const found = await deps.playlists.get(id);
  if (!found || found.userId !== userId) throw notFound(playlistMessages.notFound);
  return found;
}

/** Renames, describes or changes the visibility of the user's own playlist; another's is a 404. */
export async function updatePlaylist(
  deps: PlaylistDeps,
  userId: string,
  id: string,
  request: UpdatePlaylistRequest,
): Promise<PlaylistView> {
  const change: PlaylistChange = { updatedAt: deps.clock.now().toISOString() };
  if (request.title !== undefined) change.title = request.title;
  if (request.description !== undefined) change.description = request.description || null;
  if (request.visibility !== undefined) change.visibility = request.visibility;
  if (Object.keys(change).length === 1) throw validationError(playlistMessages.nothingToChange);
  const updated = await deps.playlists.update(id, userId, change);
  if (!updated) throw notFound(playlistMessages.notFound);
  return view(deps, updated, { id: userId });
}

/** Deletes the user's own playlist; another's is a 404. */
export async function deletePlaylist(deps: PlaylistDeps, userId: string, id: string): Promise<void> {
  if (!(await deps.playlists.delete(id, userId))) throw notFound(playlistMessages.notFound);
}

/**
 * Sets the whole order of the user's own playlist. A repeated id is kept once, where it first
 * appears. Every id must be a track the owner sees in a playlist (their own finished tracks, anyone's
 * listed ones): otherwise nothing is written and the answer (400) names the ones refused. A track
 * the owner no longer sees is dropped by the next order they send, since they cannot send it.
 */
export async function setPlaylistTracks(
  deps: PlaylistDeps,
  userId: string,
  id: string,
  trackIds: readonly string[],
): Promise<PlaylistView> {
  const ids = unique(trackIds);
  if (ids.length > PLAYLIST_TRACKS_MAX) {
    throw validationError(`A playlist holds at most ${PLAYLIST_TRACKS_MAX} tracks.`);
  }
  await getOwnPlaylist(deps, userId, id);
  const tracks = await deps.tracks.many(ids);
  const refused = ids.filter((trackId) => {
    const g = tracks.get(trackId);
    return !g || !seesInPlaylist(g, { id: userId });
  });
  if (refused.length > 0) {
    throw validationError(playlistMessages.tracksNotAllowed(refused), { trackIds: refused });
  }
  const updated = await deps.playlists.update(id, userId, {
    trackIds: ids,
    updatedAt: deps.clock.now().toISOString(),
  });
  if (!updated) throw notFound(playlistMessages.notFound);
  return view(deps, updated, { id: userId });
}

/**
 * A user's public playlists as anyone else sees them (their creator page), newest first: one read
 * of the playlists without their tracks (decision 062). A count of what a visitor may see in each
 * would read every track of every playlist (up to {@link PLAYLISTS_MAX} × {@link PLAYLIST_TRACKS_MAX})
 * on every visit; the playlist's own page counts them.
 */
export function publicPlaylists(deps: Pick<PlaylistDeps, 'playlists'>): PublicPlaylists {
  return {
    async ofOwner(userId, owner) {
      return (await deps.playlists.headsByOwner(userId, 'public')).map((p) => cardOf(p, undefined, owner));
    },
  };
}

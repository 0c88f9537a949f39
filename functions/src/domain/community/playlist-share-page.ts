/**
 * A public playlist's link previews in chat apps as a track's does (decisions 024 and 058): a
 * document per public playlist, the site's shell with the playlist's tags in its head (its title,
 * description, owner's public name, the site image, and its first listed track's audio through the
 * redirecting audio route), written when the playlist changes and removed when it stops being public
 * or is deleted. The edge serves it to visitors for `/playlist/{id}`.
 */
import {
  clip,
  DESCRIPTION_MAX,
  previewTags,
  SHARE_IMAGE,
  type SharePages,
  shareAudioUrl,
  withPreviewHead,
} from '../tracks/share-page';
import { audioMediaType, playbackAudio } from '../tracks/track';
import { getPlaylist, type PlaylistDeps, type PlaylistReadDeps, type PlaylistView } from './playlists';

/** The site bucket's area of playlists' share documents (beside the tracks' `share/track/`). */
export const PLAYLIST_SHARE_AREA = 'share/playlist/';

/** Where a playlist's document is kept. */
export const playlistSharePageKey = (id: string) => `${PLAYLIST_SHARE_AREA}${id}.html`;

/** The edge's key for a playlist that has a document (tracks' keys are their bare ids). */
export const playlistShareKey = (id: string) => `playlist/${id}`;

/** What the playlist's preview says, before escaping. */
export function playlistSharePreview(view: PlaylistView, site: { origin: string; name: string }) {
  const { summary } = view;
  const by = summary.owner ? ` by ${summary.owner.displayName}` : '';
  const about = summary.description?.trim() || `A playlist${by} on ${site.name}.`;
  const first = view.entries.find(({ generation }) => playbackAudio(generation));
  const audio = first ? playbackAudio(first.generation) : null;
  return {
    title: summary.title,
    documentTitle: `${summary.title} | ${site.name}`,
    description: clip(about, DESCRIPTION_MAX),
    url: `${site.origin}/playlist/${encodeURIComponent(summary.id)}`,
    image: `${site.origin}${SHARE_IMAGE.path}`,
    imageAlt: `${site.name}: ${summary.title}`,
    owner: summary.owner,
    audio:
      first && audio
        ? { url: shareAudioUrl(site.origin, first.generation.id), type: audioMediaType(audio) }
        : undefined,
  };
}

/** The tags that go in the head of a playlist's share document, escaped. */
export function playlistShareTags(view: PlaylistView, site: { origin: string; name: string }): string {
  const p = playlistSharePreview(view, site);
  return previewTags(p, site.name, 'music.playlist', p.owner ? [['music:creator', p.owner.displayName]] : []);
}

/** The shell with its title and description replaced by the playlist's, and the preview tags in its head. */
export function renderPlaylistSharePage(
  template: string,
  view: PlaylistView,
  site: { origin: string; name: string },
): string {
  return withPreviewHead(template, playlistShareTags(view, site));
}

/** What writing playlists' documents needs. */
export interface PlaylistShareDeps {
  playlist: PlaylistReadDeps;
  pages: SharePages;
  /** The site's shell (`index.html`): the playlist page has no prerendered frame of its own. */
  template(): Promise<string>;
  site: { readonly origin: string; name(): Promise<string> };
}

/** The playlist as a visitor sees it, or undefined when a visitor may not open it (private, gone). */
async function asVisitor(deps: PlaylistShareDeps, id: string): Promise<PlaylistView | undefined> {
  try {
    return await getPlaylist(deps.playlist, undefined, id);
  } catch (error) {
    if ((error as { kind?: string }).kind === 'not-found') return undefined;
    throw error;
  }
}

/**
 * Brings a playlist's document in line with the playlist as stored: written when a visitor may open
 * it, removed otherwise. After a write the playlist is read again, and the document removed if it
 * was made private or deleted meanwhile, so a change that raced this one never leaves it served.
 */
export async function refreshPlaylistSharePage(
  deps: PlaylistShareDeps,
  id: string,
): Promise<'published' | 'removed'> {
  const view = await asVisitor(deps, id);
  if (view) {
    const html = renderPlaylistSharePage(await deps.template(), view, {
      origin: deps.site.origin,
      name: await deps.site.name(),
    });
    await deps.pages.publish(id, html);
    if (await asVisitor(deps, id)) return 'published';
  }
  await deps.pages.remove(id);
  return 'removed';
}

/**
 * Runs a change to a playlist, then brings its document in line. A change that may hide the
 * playlist (made private, deleted) removes the document first, and is not made if that fails.
 * A refresh that fails after the change is reported, not thrown: the change stands.
 */
export async function changeSharedPlaylist<T>(
  deps: PlaylistShareDeps,
  id: string,
  options: { hides: boolean; onRefreshFailure?: (id: string, error: unknown) => void },
  change: () => Promise<T>,
): Promise<T> {
  if (options.hides) await deps.pages.remove(id);
  try {
    return await change();
  } finally {
    await refreshPlaylistSharePage(deps, id).catch((error: unknown) => options.onRefreshFailure?.(id, error));
  }
}

/**
 * The documents of every playlist of a user, brought in line: for a change that alters what they
 * show beyond the playlists themselves (the owner's public profile made, renamed or withdrawn).
 */
export async function refreshPlaylistSharePagesOf(deps: PlaylistShareDeps, userId: string): Promise<void> {
  for (const playlist of await deps.playlist.playlists.headsByOwner(userId)) {
    await refreshPlaylistSharePage(deps, playlist.id);
  }
}

/**
 * The `share-pages` job's part for playlists (a deploy's new shell): every playlist document there is,
 * written again from the current shell, or removed if its playlist is no longer public.
 */
export async function rewriteAllPlaylistSharePages(
  deps: PlaylistShareDeps,
  /** The ids of the playlists that have a document now. */
  documents: () => Promise<string[]>,
): Promise<{ written: number; removed: number }> {
  // One shell and one site name for the whole run.
  const template = await deps.template();
  const name = await deps.site.name();
  const run: PlaylistShareDeps = {
    ...deps,
    template: async () => template,
    site: { origin: deps.site.origin, name: async () => name },
  };
  const counts = { written: 0, removed: 0 };
  for (const id of await documents()) {
    if ((await refreshPlaylistSharePage(run, id)) === 'published') counts.written += 1;
    else counts.removed += 1;
  }
  return counts;
}

/**
 * Account deletion's step: each public playlist's document (a private one has none: making it private
 * removed it first), then the playlist, then the count. Safe to run again.
 */
export async function removeUserPlaylists(
  deps: { playlists: PlaylistDeps['playlists']; pages: Pick<SharePages, 'remove'> },
  userId: string,
): Promise<void> {
  for (const playlist of await deps.playlists.headsByOwner(userId)) {
    if (playlist.visibility === 'public') await deps.pages.remove(playlist.id);
    await deps.playlists.delete(playlist.id, userId);
  }
  await deps.playlists.removeAll(userId);
}

import {
  type AdminTrack,
  type AdminTrackList,
  type AdminTrackListQuery,
  adminMessages,
} from '@tunesmith/shared/admin';
import { removeTrackAudio } from '../accounts/account-deletion';
import type { AdminUser } from '../accounts/admin';
import { conflict, notFound } from '../errors';
import { downloadFilename, downloadMessages } from '../generations/download';
import { changeSharedTrack } from '../tracks/share-page';
import { type Generation, isDownloadReady, playbackAudio, toTrack } from '../tracks/track';
import { audit } from './audit';
import type { AdminDeps } from './ports';

const TITLE_IN_SUMMARY = 60;

async function toAdminTrack(deps: Pick<AdminDeps, 'audioLinks'>, g: Generation): Promise<AdminTrack> {
  const [audioUrl, peaksUrl] = await Promise.all([
    deps.audioLinks(playbackAudio(g)),
    deps.audioLinks(g.peaksUrl ?? null),
  ]);
  return { ...toTrack(g), audioUrl, peaksUrl, userId: g.userId };
}

const named = (g: Pick<Generation, 'title' | 'id'>) =>
  `"${(g.title ?? 'Untitled Track').slice(0, TITLE_IN_SUMMARY)}"`;

/** Every track (private ones too), newest first, filtered on the server, with the site's track counters. */
export async function listTracks(
  deps: Pick<AdminDeps, 'tracks' | 'counters' | 'audioLinks'>,
  query: AdminTrackListQuery,
): Promise<AdminTrackList> {
  const [page, totals] = await Promise.all([
    deps.tracks.list(
      {
        ...(query.q ? { q: query.q } : {}),
        ...(query.status ? { status: query.status } : {}),
        ...(query.visibility ? { visibility: query.visibility } : {}),
      },
      { limit: query.limit, ...(query.cursor ? { cursor: query.cursor } : {}) },
    ),
    deps.counters.totals(),
  ]);
  return {
    tracks: await Promise.all(page.items.map((g) => toAdminTrack(deps, g))),
    counts: {
      total: totals.tracks,
      public: totals.publicTracks,
      galleryVisible: totals.publicTracks - totals.hiddenPublicTracks,
      hiddenFromGallery: totals.hiddenPublicTracks,
    },
    nextCursor: page.cursor ?? null,
  };
}

async function changeTrack(
  deps: Pick<AdminDeps, 'generations' | 'audioLinks'>,
  id: string,
  change: (g: Generation) => Generation | undefined,
): Promise<{ before: Generation; after: AdminTrack }> {
  const result = await deps.generations.update(id, change);
  if (!result) throw notFound(adminMessages.trackNotFound);
  return { before: result.before, after: await toAdminTrack(deps, result.after ?? result.before) };
}

/** Shows or hides a public, completed track in the gallery. */
export async function setGalleryVisibility(
  deps: AdminDeps,
  admin: Pick<AdminUser, 'username'>,
  id: string,
  showInGallery: boolean,
): Promise<AdminTrack> {
  const stamp = deps.clock.now().toISOString();
  const { before, after } = await changeTrack(deps, id, (g) => {
    if (g.visibility !== 'public' || g.status !== 'completed')
      throw conflict(adminMessages.galleryNeedsPublicCompleted);
    return g.showInGallery === showInGallery ? undefined : { ...g, showInGallery, updatedAt: stamp };
  });
  if (before.showInGallery !== showInGallery) {
    await audit(
      deps,
      admin,
      showInGallery ? 'track.show' : 'track.hide',
      id,
      `${showInGallery ? 'Showed' : 'Hid'} ${named(before)} ${showInGallery ? 'in' : 'from'} the gallery`,
    );
  }
  return after;
}

export async function renameTrack(
  deps: AdminDeps,
  admin: Pick<AdminUser, 'username'>,
  id: string,
  title: string,
): Promise<AdminTrack> {
  const stamp = deps.clock.now().toISOString();
  // The share page shows the new title (a rename hides nothing).
  const { before, after } = await changeSharedTrack(
    deps.sharePages,
    id,
    { hides: false, ...(deps.onShareRefreshFailure ? { onRefreshFailure: deps.onShareRefreshFailure } : {}) },
    () => changeTrack(deps, id, (g) => (g.title === title ? undefined : { ...g, title, updatedAt: stamp })),
  );
  if (before.title !== title)
    await audit(deps, admin, 'track.rename', id, `Renamed ${named(before)} to ${named({ id, title })}`);
  return after;
}

/** Deletes a track with its audio. */
export async function deleteTrack(
  deps: AdminDeps,
  admin: Pick<AdminUser, 'username'>,
  id: string,
): Promise<void> {
  const generation = await deps.generations.get(id);
  if (!generation) throw notFound(adminMessages.trackNotFound);
  // Its share page goes first: if it cannot, the track stays.
  await changeSharedTrack(
    deps.sharePages,
    id,
    { hides: true, ...(deps.onShareRefreshFailure ? { onRefreshFailure: deps.onShareRefreshFailure } : {}) },
    async () => {
      await removeTrackAudio(deps, generation);
      await deps.generations.delete(id, generation.userId);
    },
  );
  await audit(deps, admin, 'track.delete', id, `Deleted ${named(generation)}`);
}

/** A download link for any completed track with audio, once its download is prepared (decision 040). */
export async function adminDownload(
  deps: Pick<AdminDeps, 'generations' | 'trackAudio'>,
  id: string,
): Promise<{ url: string; filename: string }> {
  const generation = await deps.generations.get(id);
  if (!generation) throw notFound(adminMessages.trackNotFound);
  if (generation.status !== 'completed' || !generation.audioUrl) throw conflict(adminMessages.trackNotReady);
  if (!isDownloadReady(generation)) throw conflict(downloadMessages.preparing);
  const filename = downloadFilename(generation.title);
  return { url: await deps.trackAudio.downloadLink(generation.audioUrl, filename), filename };
}

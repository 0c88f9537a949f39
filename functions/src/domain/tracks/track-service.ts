import { PUBLIC_TRACKS_PAGE_SIZE } from '@tunesmith/shared/constants';
import type { Track } from '@tunesmith/shared/tracks';
import { type Generation, type GenerationRepository, isGalleryVisible, toTrack } from './track';

/**
 * The first page of the community gallery, newest first. It names no parents:
 * a parent may be private, and the track page tells those who may see it.
 */
export async function listPublicTracks(generations: GenerationRepository): Promise<Track[]> {
  return (await listPublicGenerations(generations)).map((g) => ({ ...toTrack(g), parentId: null }));
}

/** The gallery's first page as stored, for reads that add to each track (its creator, `likedByMe`). */
export async function listPublicGenerations(generations: GenerationRepository): Promise<Generation[]> {
  const page = await generations.listGallery(PUBLIC_TRACKS_PAGE_SIZE);
  return page.items.filter(isGalleryVisible);
}

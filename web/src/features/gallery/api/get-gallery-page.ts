import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import * as catalogCalls from '@tunesmith/shared/calls/catalog';
import type { GallerySort, TrackPage } from '@tunesmith/shared/community';
import { apiRequest } from '@/lib/api-client';

export const GALLERY_PAGE_SIZE = 24;

/** One page of the gallery in a sort, from `cursor` (the first page without one). */
export function getGalleryPage(sort: GallerySort, cursor?: string): Promise<TrackPage> {
  return apiRequest<TrackPage>(catalogCalls.listPublicTracks, {
    query: { sort, limit: String(GALLERY_PAGE_SIZE), cursor },
  });
}

export const galleryPageQueryOptions = (sort: GallerySort) =>
  infiniteQueryOptions({
    queryKey: ['public-tracks', 'sorted', sort],
    queryFn: ({ pageParam }) => getGalleryPage(sort, pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });

export function useGalleryPages(sort: GallerySort) {
  return useInfiniteQuery(galleryPageQueryOptions(sort));
}

import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import * as communityCalls from '@tunesmith/shared/calls/community';
import type { TrackPage } from '@tunesmith/shared/community';
import { LIKED_QUERY_KEY } from '@/components/tracks/community-track-card';
import { apiRequest } from '@/lib/api-client';

/** One page of the tracks the user liked, newest like first. */
export function getLikedTracks(cursor?: string): Promise<TrackPage> {
  return apiRequest<TrackPage>(communityCalls.listLikedTracks, { query: { cursor } });
}

export const likedTracksQueryOptions = () =>
  infiniteQueryOptions({
    queryKey: LIKED_QUERY_KEY,
    queryFn: ({ pageParam }) => getLikedTracks(pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });

export function useLikedTracks() {
  return useInfiniteQuery(likedTracksQueryOptions());
}

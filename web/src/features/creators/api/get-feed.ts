import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import * as communityCalls from '@tunesmith/shared/calls/community';
import type { TrackPage } from '@tunesmith/shared/community';
import { apiRequest } from '@/lib/api-client';

export const feedKey = ['feed'] as const;

/** New tracks of the creators the user follows, newest first, a page at a time. */
export function getFeed(cursor?: string): Promise<TrackPage> {
  return apiRequest<TrackPage>(communityCalls.getFeed, { query: { cursor } });
}

export const feedQueryOptions = () =>
  infiniteQueryOptions({
    queryKey: feedKey,
    queryFn: ({ pageParam }) => getFeed(pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });

export function useFeed(enabled = true) {
  return useInfiniteQuery({ ...feedQueryOptions(), enabled });
}

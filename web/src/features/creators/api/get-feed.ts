import { queryOptions, useQuery } from '@tanstack/react-query';
import * as communityCalls from '@tunesmith/shared/calls/community';
import type { TrackPage } from '@tunesmith/shared/community';
import { apiRequest } from '@/lib/api-client';

export const feedKey = ['feed'] as const;

/** New tracks of the creators the user follows, newest first; `cursor` asks for the next page. */
export function getFeed(cursor?: string): Promise<TrackPage> {
  return apiRequest<TrackPage>(communityCalls.getFeed, { query: { cursor } });
}

export const feedQueryOptions = () => queryOptions({ queryKey: feedKey, queryFn: () => getFeed() });

export function useFeed() {
  return useQuery(feedQueryOptions());
}

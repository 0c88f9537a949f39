import { queryOptions, useQuery } from '@tanstack/react-query';
import * as catalogCalls from '@tunesmith/shared/calls/catalog';
import type { Track } from '@tunesmith/shared/tracks';
import { apiRequest } from '@/lib/api-client';

/** The community gallery: public, completed tracks, newest first. */
export function getPublicTracks(): Promise<Track[]> {
  return apiRequest<Track[]>(catalogCalls.listPublicTracks);
}

export const publicTracksQueryOptions = () =>
  queryOptions({
    queryKey: ['public-tracks'],
    queryFn: getPublicTracks,
  });

export function usePublicTracks() {
  return useQuery(publicTracksQueryOptions());
}

import { queryOptions, useQuery } from '@tanstack/react-query';
import { STATUS_POLL_INTERVAL_MS } from '@tunesmith/shared/constants';
import type { Track } from '@tunesmith/shared/tracks';
import { apiRequest } from '@/lib/api-client';
import { trackQueryKey } from '@/lib/query-keys';

/** One track by its share link; a private track is not found for anyone but its owner. */
export function getTrack(id: string): Promise<Track> {
  return apiRequest<Track>('getTrack', { params: { id } });
}

const stillGenerating = (track: Track | undefined) => {
  const status: string | undefined = track?.status;
  return status === 'pending' || status === 'generating' || status === 'processing';
};

/** The track; while it is still generating it is checked again every {@link STATUS_POLL_INTERVAL_MS}. */
export const trackQueryOptions = (id: string) =>
  queryOptions({
    queryKey: trackQueryKey(id),
    queryFn: () => getTrack(id),
    // A failure the route loader already met is shown, not asked again on mount.
    retryOnMount: false,
    refetchInterval: (query) => (stillGenerating(query.state.data) ? STATUS_POLL_INTERVAL_MS : false),
  });

export function useTrack(id: string) {
  return useQuery(trackQueryOptions(id));
}

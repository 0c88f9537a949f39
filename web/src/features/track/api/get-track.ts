import { queryOptions, useQuery } from '@tanstack/react-query';
import * as catalogCalls from '@tunesmith/shared/calls/catalog';
import { STATUS_POLL_INTERVAL_MS } from '@tunesmith/shared/constants';
import { isDownloadPreparing, isInProgress, type Track } from '@tunesmith/shared/tracks';
import { apiRequest, isNotFoundError } from '@/lib/api-client';
import { trackQueryKey } from '@/lib/query-keys';

/** One track by its share link; a private track is not found for anyone but its owner. */
export function getTrack(id: string): Promise<Track> {
  return apiRequest<Track>(catalogCalls.getTrack, { params: { id } });
}

/**
 * The track; while it is still generating, or its download is being prepared, it is checked
 * again every {@link STATUS_POLL_INTERVAL_MS}.
 */
export const trackQueryOptions = (id: string) =>
  queryOptions({
    queryKey: trackQueryKey(id),
    queryFn: () => getTrack(id),
    // A failure the page already waited for (usePageData) is shown, not asked again on mount.
    retryOnMount: false,
    // A track that is gone (deleted, or made private) stays gone: checking again is pointless.
    refetchInterval: (query) =>
      query.state.data &&
      (isInProgress(query.state.data.status) || isDownloadPreparing(query.state.data)) &&
      !isNotFoundError(query.state.error)
        ? STATUS_POLL_INTERVAL_MS
        : false,
  });

export function useTrack(id: string) {
  return useQuery(trackQueryOptions(id));
}

import { queryOptions, useQuery } from '@tanstack/react-query';
import * as generationCalls from '@tunesmith/shared/calls/generation';
import { STATUS_POLL_INTERVAL_MS } from '@tunesmith/shared/constants';
import { isDownloadPreparing, isInProgress, type Track } from '@tunesmith/shared/tracks';
import { apiRequest } from '@/lib/api-client';
import { myGenerationsQueryKey } from '@/lib/query-keys';

/** The signed-in user's tracks, newest first. */
export function getMyGenerations(): Promise<Track[]> {
  return apiRequest<Track[]>(generationCalls.listMyGenerations);
}

/**
 * The library list. It refreshes every {@link STATUS_POLL_INTERVAL_MS} while a
 * track is pending or generating, or its download is being prepared, and not
 * at all otherwise.
 */
export const myGenerationsQueryOptions = () =>
  queryOptions({
    queryKey: myGenerationsQueryKey,
    queryFn: getMyGenerations,
    // A failure the page already waited for (usePageData) is shown, not asked again on mount.
    retryOnMount: false,
    refetchInterval: (query) =>
      query.state.data?.some((track) => isInProgress(track.status) || isDownloadPreparing(track))
        ? STATUS_POLL_INTERVAL_MS
        : false,
  });

export function useMyGenerations(enabled = true) {
  return useQuery({ ...myGenerationsQueryOptions(), enabled });
}

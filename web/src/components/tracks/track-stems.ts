import { queryOptions, useQuery } from '@tanstack/react-query';
import {
  downloadStems as downloadStemsCall,
  getTrackStems as getTrackStemsCall,
} from '@tunesmith/shared/calls/stems';
import { STATUS_POLL_INTERVAL_MS } from '@tunesmith/shared/constants';
import type { TrackStems } from '@tunesmith/shared/stems';
import { apiRequest } from '@/lib/api-client';

/**
 * A track's stems: asking for them (the studio) refreshes what the track page shows of them. Kept here, not
 * in `lib/query-keys.ts`, which every page's first code carries.
 */
export const trackStemsQueryKey = (id: string) => ['track', id, 'stems'] as const;

/** A track's stems and how far their separation is; whoever may see the track may see them. */
export function getTrackStems(id: string): Promise<TrackStems> {
  return apiRequest<TrackStems>(getTrackStemsCall, { params: { id } });
}

/** The stems; while they are being separated they are checked again every {@link STATUS_POLL_INTERVAL_MS}. */
export const trackStemsQueryOptions = (id: string) =>
  queryOptions({
    queryKey: trackStemsQueryKey(id),
    queryFn: () => getTrackStems(id),
    // No stems is an answer of its own (`none`); a refusal (a server without stems) is not asked again.
    retry: false,
    refetchInterval: (query) => (query.state.data?.status === 'processing' ? STATUS_POLL_INTERVAL_MS : false),
  });

export function useTrackStems(id: string, enabled = true) {
  return useQuery({ ...trackStemsQueryOptions(id), enabled });
}

/**
 * A short-lived link to the stems as one zip (plans with downloads). The one place that knows the
 * zip's call and its answer, which are the track download's (`{ url, filename }`).
 */
export function downloadStems(id: string): Promise<{ url: string; filename: string }> {
  return apiRequest<{ url: string; filename: string }>(downloadStemsCall, { params: { id } });
}

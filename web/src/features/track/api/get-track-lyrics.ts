import { queryOptions, useQuery } from '@tanstack/react-query';
import { routePath } from '@tunesmith/shared/api-routes';
import * as catalogCalls from '@tunesmith/shared/calls/catalog';
import type { TimedLyrics } from '@tunesmith/shared/lyrics';
import { apiRequest, isNotFoundError } from '@/lib/api-client';
import { trackQueryKey } from '@/lib/query-keys';

/** A track's lyrics in time; not found while it has none (instrumental, or not timed yet). */
export function getTrackLyrics(id: string): Promise<TimedLyrics> {
  return apiRequest<TimedLyrics>(catalogCalls.getTrackLyrics, { params: { id } });
}

/** Where the browser saves the lyrics as an `.lrc` file. */
export const trackLyricsLrcUrl = (id: string) =>
  `${routePath(catalogCalls.getTrackLyrics, { id })}?format=lrc`;

/** How often, and how many times, a track without timed lyrics is asked again: they come soon after it plays. */
const LYRICS_POLL_MS = 5_000;
const LYRICS_POLLS = 24;

export const trackLyricsQueryOptions = (id: string) =>
  queryOptions({
    queryKey: [...trackQueryKey(id), 'lyrics'] as const,
    queryFn: () => getTrackLyrics(id),
    retry: false,
    // Not there yet: asked again for two minutes (a new track's lyrics are timed after it plays).
    refetchInterval: (query) =>
      !query.state.data && isNotFoundError(query.state.error) && query.state.errorUpdateCount < LYRICS_POLLS
        ? LYRICS_POLL_MS
        : false,
  });

export function useTrackLyrics(id: string) {
  return useQuery(trackLyricsQueryOptions(id));
}

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

/** A track finished this recently may still be having its lyrics timed. */
const RECENT_MS = 10 * 60_000;

/**
 * The track's lyrics in time. Not there yet for a track made in the last ten
 * minutes (`createdAt`): asked again every 5 s for two minutes, as a new
 * track's lyrics are timed soon after it plays; an older track's answer stands.
 */
export const trackLyricsQueryOptions = (id: string, createdAt: string, now = Date.now) =>
  queryOptions({
    queryKey: [...trackQueryKey(id), 'lyrics'] as const,
    queryFn: () => getTrackLyrics(id),
    retry: false,
    refetchInterval: (query) =>
      !query.state.data &&
      isNotFoundError(query.state.error) &&
      query.state.errorUpdateCount < LYRICS_POLLS &&
      now() - Date.parse(createdAt) < RECENT_MS
        ? LYRICS_POLL_MS
        : false,
  });

export function useTrackLyrics(id: string, createdAt: string) {
  return useQuery(trackLyricsQueryOptions(id, createdAt));
}

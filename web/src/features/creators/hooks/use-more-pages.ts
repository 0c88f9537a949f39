import type { Track } from '@tunesmith/shared/tracks';
import { useCallback, useEffect, useState } from 'react';

/**
 * The tracks of pages after the first (whose query the caller holds), fetched on "More tracks". Plain
 * state rather than an infinite query: that observer's code would join every page's first load, as
 * the query library's code does (vite.config.ts).
 */
export function useMorePages(
  first: { tracks: Track[]; nextCursor: string | null } | undefined,
  fetchPage: (cursor: string) => Promise<{ tracks: Track[]; nextCursor: string | null }>,
) {
  const [more, setMore] = useState<{ tracks: Track[]; cursor: string | null }>({ tracks: [], cursor: null });
  const [loading, setLoading] = useState(false);
  const [failed, setFailed] = useState(false);
  // A new first page of tracks (refetched, another creator) starts the list again; a change of the
  // rest of the answer (a follow moving the count) keeps the pages loaded.
  const firstTracks = first?.tracks;
  const firstCursor = first?.nextCursor ?? null;
  useEffect(() => {
    if (firstTracks === undefined) return;
    setMore({ tracks: [], cursor: firstCursor });
    setFailed(false);
  }, [firstTracks, firstCursor]);
  const loadMore = useCallback(async () => {
    if (!more.cursor || loading) return;
    setLoading(true);
    setFailed(false);
    try {
      const page = await fetchPage(more.cursor);
      setMore((current) => ({ tracks: [...current.tracks, ...page.tracks], cursor: page.nextCursor }));
    } catch {
      setFailed(true);
    } finally {
      setLoading(false);
    }
  }, [more.cursor, loading, fetchPage]);
  return {
    tracks: [...(first?.tracks ?? []), ...more.tracks],
    hasMore: more.cursor !== null,
    loading,
    failed,
    loadMore,
  };
}

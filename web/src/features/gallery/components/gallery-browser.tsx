import type { GallerySort } from '@tunesmith/shared/community';
import { useEffect, useRef } from 'react';
import { CommunityTrackCard, type TrackMenu } from '@/components/tracks/community-track-card';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { ToggleGroup } from '@/components/ui/toggle-group';
import { useGalleryPages } from '../api/get-gallery-page';

export const GALLERY_SORTS: readonly { value: GallerySort; label: string }[] = [
  { value: 'new', label: 'New' },
  { value: 'top-week', label: 'Top this week' },
  { value: 'most-played', label: 'Most played' },
];

const EMPTY: Record<GallerySort, string> = {
  new: 'No public tracks yet. Tracks shared to the gallery appear here.',
  'top-week': 'No track has been liked this week yet.',
  'most-played': 'No track has been played yet.',
};

/** How far below the screen the next page starts loading. */
const LOAD_AHEAD = '600px';

/**
 * The community gallery in a sort: New, Top this week (likes of the last 7 days) or Most played.
 * More tracks load as one scrolls near the end, or with Load more (keyboard and screen readers).
 */
export default function GalleryBrowser({
  sort,
  onSortChange,
  trackMenu,
}: {
  sort: GallerySort;
  onSortChange: (sort: GallerySort) => void;
  /** Each card's menu (the page gives Add to playlist to a signed-in user). */
  trackMenu?: TrackMenu | undefined;
}) {
  const pages = useGalleryPages(sort);
  const end = useRef<HTMLDivElement>(null);
  const tracks = pages.data?.pages.flatMap((page) => page.tracks) ?? [];
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = pages;

  useEffect(() => {
    const target = end.current;
    if (!target || !hasNextPage || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting) && !isFetchingNextPage) void fetchNextPage();
      },
      { rootMargin: LOAD_AHEAD },
    );
    observer.observe(target);
    return () => observer.disconnect();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);

  return (
    <div className="flex flex-col gap-8">
      <ToggleGroup
        label="Sort the gallery"
        options={GALLERY_SORTS}
        value={sort}
        onChange={onSortChange}
        className="self-center"
      />
      {pages.isPending ? (
        <div aria-busy="true">
          <span role="status" className="sr-only">
            Loading tracks…
          </span>
          <ul aria-hidden="true" className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
            {[0, 1, 2].map((n) => (
              <li key={n}>
                <Card className="flex flex-col gap-4 p-5">
                  <Skeleton className="h-7 w-2/3" />
                  <Skeleton className="h-5 w-1/3" />
                  <Skeleton className="h-16 w-full" />
                </Card>
              </li>
            ))}
          </ul>
        </div>
      ) : pages.isError ? (
        <div role="alert" className="flex flex-col items-center gap-4 text-center text-zinc-300">
          <p>The gallery could not be loaded.</p>
          <Button variant="outline" onClick={() => void pages.refetch()}>
            Try again
          </Button>
        </div>
      ) : tracks.length === 0 ? (
        <p className="text-center text-zinc-300">{EMPTY[sort]}</p>
      ) : (
        <>
          <ul className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
            {tracks.map((track) => (
              <li key={track.id} className="flex flex-col *:flex-1">
                <CommunityTrackCard track={track} menu={trackMenu} />
              </li>
            ))}
          </ul>
          <div ref={end} className="flex flex-col items-center gap-2">
            {hasNextPage ? (
              <Button variant="outline" disabled={isFetchingNextPage} onClick={() => void fetchNextPage()}>
                {isFetchingNextPage ? 'Loading…' : 'Load more'}
              </Button>
            ) : (
              <p className="text-sm text-zinc-400">You have reached the end of the gallery.</p>
            )}
            {pages.isFetchNextPageError ? (
              <p role="alert" className="text-sm text-red-300">
                More tracks could not be loaded. Try again.
              </p>
            ) : null}
          </div>
        </>
      )}
    </div>
  );
}

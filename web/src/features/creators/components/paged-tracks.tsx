import { CommunityTrackCard, type TrackMenu } from '@/components/tracks/community-track-card';
import { Button } from '@/components/ui/button';
import type { useMorePages } from '../hooks/use-more-pages';

/** A page of tracks as cards, with More tracks while there are more, and the refusal if one fails. */
export function PagedTracks({
  pages,
  trackMenu,
}: {
  pages: ReturnType<typeof useMorePages>;
  /** Each card's menu (Add to playlist). */
  trackMenu?: TrackMenu | undefined;
}) {
  return (
    <>
      <ul className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
        {pages.tracks.map((track) => (
          <li key={track.id} className="flex flex-col *:flex-1">
            <CommunityTrackCard track={track} menu={trackMenu} />
          </li>
        ))}
      </ul>
      {pages.failed ? (
        <p role="alert" className="text-center text-red-300">
          More tracks could not be loaded. Try again.
        </p>
      ) : null}
      {pages.hasMore ? (
        <Button
          variant="outline"
          className="justify-self-center"
          disabled={pages.loading}
          onClick={() => void pages.loadMore()}
        >
          {pages.loading ? 'Loading...' : 'More tracks'}
        </Button>
      ) : null}
    </>
  );
}

import { Link } from 'react-router';
import { CommunityTrackCard, type TrackMenu } from '@/components/tracks/community-track-card';
import { Button, buttonClasses } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { useLikedTracks } from '../api/get-liked-tracks';

/** The library's Liked tab: the tracks the user liked that they may still see, newest like first. */
export function LikedTracks({
  headingLevel: Heading = 'h2',
  trackMenu,
}: {
  headingLevel?: 'h1' | 'h2';
  /** Each card's menu (Add to playlist). */
  trackMenu?: TrackMenu | undefined;
}) {
  const liked = useLikedTracks();
  const tracks = liked.data?.pages.flatMap((page) => page.tracks) ?? [];
  return (
    <section aria-labelledby="liked-heading" className="flex flex-col gap-6">
      <Heading id="liked-heading" className="text-2xl font-bold text-white">
        Liked tracks
      </Heading>
      {liked.isPending ? (
        <Spinner label="Loading your liked tracks" />
      ) : liked.isError ? (
        <div role="alert" className="flex flex-col items-start gap-3 text-zinc-300">
          <p>Your liked tracks could not be loaded.</p>
          <Button variant="outline" onClick={() => void liked.refetch()}>
            Try again
          </Button>
        </div>
      ) : tracks.length === 0 ? (
        <div className="flex flex-col items-start gap-4 text-zinc-300">
          <p>No liked tracks yet. Like a track in the gallery and it appears here.</p>
          <Link to="/gallery" className={buttonClasses('outline')}>
            Explore the gallery
          </Link>
        </div>
      ) : (
        <>
          <ul className="grid gap-6 sm:grid-cols-2">
            {tracks.map((track) => (
              <li key={track.id} className="flex flex-col *:flex-1">
                <CommunityTrackCard track={track} menu={trackMenu} />
              </li>
            ))}
          </ul>
          {liked.hasNextPage ? (
            <Button
              variant="outline"
              className="self-center"
              disabled={liked.isFetchingNextPage}
              onClick={() => void liked.fetchNextPage()}
            >
              {liked.isFetchingNextPage ? 'Loading…' : 'Load more'}
            </Button>
          ) : null}
        </>
      )}
    </section>
  );
}

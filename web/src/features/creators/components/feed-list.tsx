import { Link } from 'react-router';
import type { TrackMenu } from '@/components/tracks/community-track-card';
import { buttonClasses } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';
import { getFeed, useFeed } from '../api/get-feed';
import { useMorePages } from '../hooks/use-more-pages';
import { PagedTracks } from './paged-tracks';

/** The Following feed: new tracks of the creators the user follows, newest first. */
export function FeedList({ trackMenu }: { trackMenu?: TrackMenu | undefined } = {}) {
  const feed = useFeed();
  const pages = useMorePages(feed.data, getFeed);
  if (feed.isPending) return <Spinner label="Loading your feed" />;
  if (feed.isError)
    return (
      <p role="alert" className="text-red-300">
        Your feed could not be loaded.{' '}
        <button type="button" className="underline" onClick={() => void feed.refetch()}>
          Try again
        </button>
      </p>
    );
  const tracks = pages.tracks;
  if (tracks.length === 0)
    return (
      <Card className="p-8 text-center">
        <p className="text-lg text-white">Follow creators to see their new tracks here.</p>
        <p className="mt-2 text-zinc-400">
          A creator&apos;s page has a Follow button; find creators in the gallery.
        </p>
        <Link to="/gallery" className={buttonClasses('primary', 'md', 'mt-6')}>
          Browse the gallery
        </Link>
      </Card>
    );
  return (
    <div className="grid gap-6">
      <PagedTracks pages={pages} trackMenu={trackMenu} />
    </div>
  );
}

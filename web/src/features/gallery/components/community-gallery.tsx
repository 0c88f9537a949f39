import { HOME_GALLERY_LIMIT } from '@tunesmith/shared/constants';
import { Link } from 'react-router';
import { TrackCard } from '@/components/tracks/track-card';
import { buttonClasses } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { usePublicTracks } from '../api/get-public-tracks';

/** The home page's gallery of public tracks; absent when there are none. */
export function CommunityGallery() {
  const { data: tracks } = usePublicTracks();
  if (!tracks?.length) return null;
  return (
    <section aria-labelledby="community-gallery" className="mx-auto max-w-7xl px-4 py-16 sm:px-6">
      <div className="mb-8 text-center">
        <h2 id="community-gallery" className="text-3xl font-bold text-white sm:text-4xl">
          Community Gallery
        </h2>
        <p className="mt-3 text-zinc-300">Listen to tracks our community created with Tunesmith.</p>
      </div>
      <ul className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
        {tracks.slice(0, HOME_GALLERY_LIMIT).map((track) => (
          <li key={track.id} className="flex flex-col *:flex-1">
            {/* With the duration known, a card fetches no audio until played: the page asks for less on arrival. */}
            <TrackCard track={track} preload={track.duration ? 'none' : 'metadata'} />
          </li>
        ))}
      </ul>
      {tracks.length > HOME_GALLERY_LIMIT ? (
        <div className="mt-10 text-center">
          <Link to="/auth" className={buttonClasses('outline', 'lg')}>
            Explore More Tracks
          </Link>
        </div>
      ) : null}
    </section>
  );
}

/**
 * The gallery's space while its tracks load: the heading and one row of cards
 * at their final size (one card on a phone, two or three wider), no room for
 * tracks that may never come. It starts below the fold (the hero fills the
 * first screen), so what it becomes moves nothing on screen.
 */
export function GallerySkeleton() {
  return (
    <section aria-busy="true" className="mx-auto max-w-7xl px-4 py-16 sm:px-6">
      <span role="status" className="sr-only">
        Loading…
      </span>
      <div aria-hidden="true" className="mb-8 flex flex-col items-center">
        <Skeleton className="h-9 w-72 max-w-full sm:h-10" />
        <Skeleton className="mt-3 h-6 w-96 max-w-full" />
      </div>
      <ul aria-hidden="true" className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
        {['flex', 'hidden sm:flex', 'hidden lg:flex'].map((shown) => (
          <li key={shown} className={`${shown} flex-col *:flex-1`}>
            <Card className="flex flex-col gap-4 p-5">
              <Skeleton className="h-7 w-2/3" />
              <Skeleton className="h-5 w-1/3" />
              <Skeleton className="h-5 w-full" />
              <Skeleton className="h-16 w-full" />
              <Skeleton className="h-4 w-full" />
            </Card>
          </li>
        ))}
      </ul>
    </section>
  );
}

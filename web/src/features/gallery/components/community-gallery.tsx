import { HOME_GALLERY_LIMIT } from '@tunesmith/shared/constants';
import { Link } from 'react-router';
import { TrackCard } from '@/components/tracks/track-card';
import { buttonClasses } from '@/components/ui/button';
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
            <TrackCard track={track} />
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

import type { Track } from '@tunesmith/shared/tracks';
import { lazy, Suspense } from 'react';
import { AboutTrackSkeleton } from './about-track-skeleton';

// The record's view loads after the page, never with a visitor's first page: its skeleton holds its place.
const About = lazy(() => import('./about-track').then((m) => ({ default: m.AboutTrack })));

/** The track page's "About this track", loaded after the page with a skeleton of its final size. */
export function LazyAboutTrack({
  track,
  owner,
}: {
  track: Pick<Track, 'id' | 'title' | 'status'>;
  owner: boolean;
}) {
  return (
    <Suspense fallback={<AboutTrackSkeleton owner={owner} />}>
      <About track={track} owner={owner} />
    </Suspense>
  );
}

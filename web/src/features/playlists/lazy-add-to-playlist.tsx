import { lazy, Suspense } from 'react';
import type { AddToPlaylistProps } from './components/add-to-playlist-menu';

// The menu, its dialog and the form code load only where a signed-in user sees a finished track.
const Menu = lazy(() =>
  import('./components/add-to-playlist-menu').then((m) => ({ default: m.AddToPlaylistMenu })),
);

/** A track's Add to Playlist menu, loaded on first use. */
export function LazyAddToPlaylist(props: AddToPlaylistProps) {
  return (
    <Suspense fallback={null}>
      <Menu {...props} />
    </Suspense>
  );
}

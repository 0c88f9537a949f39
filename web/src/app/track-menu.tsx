import type { TrackMenu } from '@/components/tracks/community-track-card';
import { trackTitle } from '@/components/tracks/track-title';
import { LazyAddToPlaylist } from '@/features/playlists/lazy-add-to-playlist';
import { useUser } from '@/lib/auth';

const addToPlaylist: TrackMenu = (track, describedBy) => (
  <LazyAddToPlaylist track={{ id: track.id, title: trackTitle(track) }} describedBy={describedBy} />
);

/** The community cards' menu (Add to playlist) for a signed-in user; a visitor's cards have none. */
export function useTrackMenu(): TrackMenu | undefined {
  const { user } = useUser();
  return user ? addToPlaylist : undefined;
}

import { Link, useNavigate, useSearchParams } from 'react-router';
import { trackTitle } from '@/components/tracks/track-title';
import { Tabs } from '@/components/ui/tabs';
import { myGenerationsQueryOptions } from '@/features/library/api/get-my-generations';
import { MusicLibrary } from '@/features/library/components/music-library';
import { LikedTracks } from '@/features/likes/components/liked-tracks';
import { MyPlaylists } from '@/features/playlists/components/my-playlists';
import { LazyAddToPlaylist } from '@/features/playlists/lazy-add-to-playlist';
import { LazyStudioMenu } from '@/features/studio/lazy-studio';
import { userQueryOptions, useUser } from '@/lib/auth';
import { pageTitle } from '@/lib/page-title';
import { usePageData } from '@/lib/use-page-data';
import { useTrackMenu } from '../track-menu';

const libraryTabs = ['tracks', 'liked', 'playlists'] as const;
type LibraryTab = (typeof libraryTabs)[number];

/**
 * The library on its own page; Create First Track goes to the Create page.
 * Shows once the auth state and, for a signed-in user, the library are in.
 * Its Playlists tab (`?tab=playlists`) keeps the user's playlists.
 */
export default function LibraryRoute() {
  usePageData(userQueryOptions());
  const { user } = useUser();
  const trackMenu = useTrackMenu();
  usePageData(...(user ? [myGenerationsQueryOptions()] : []));
  const navigate = useNavigate();
  const [search, setSearch] = useSearchParams();
  const asked = search.get('tab');
  const tab: LibraryTab = user && (asked === 'playlists' || asked === 'liked') ? asked : 'tracks';
  const tracks = (
    <MusicLibrary
      headingLevel="h1"
      onCreateFirst={() => navigate('/')}
      trackActions={(track, describedBy, onStarted) => (
        <>
          {track.status === 'completed' ? (
            <LazyAddToPlaylist track={{ id: track.id, title: trackTitle(track) }} describedBy={describedBy} />
          ) : null}
          <LazyStudioMenu track={track} describedBy={describedBy} onStarted={onStarted} />
        </>
      )}
    />
  );
  return (
    <div className="mx-auto max-w-5xl px-4 py-12 sm:px-6 sm:py-16">
      <title>
        {pageTitle(
          tab === 'playlists' ? 'My Playlists' : tab === 'liked' ? 'Liked tracks' : 'My Music Library',
        )}
      </title>
      <p className="mb-4 text-sm text-zinc-400">
        New from the creators you follow:{' '}
        <Link to="/following" className="text-violet-300 underline hover:text-violet-200">
          Following
        </Link>
      </p>
      {user ? (
        <Tabs
          label="Library"
          value={tab}
          onChange={(next) => setSearch(next === 'tracks' ? {} : { tab: next }, { replace: true })}
          listClassName="mb-2 max-w-sm"
          items={[
            { value: 'tracks', label: 'Tracks', content: tracks },
            {
              value: 'liked',
              label: 'Liked',
              content: <LikedTracks headingLevel="h1" trackMenu={trackMenu} />,
            },
            { value: 'playlists', label: 'Playlists', content: <MyPlaylists headingLevel="h1" /> },
          ]}
        />
      ) : (
        tracks
      )}
    </div>
  );
}

import { useNavigate, useSearchParams } from 'react-router';
import { Tabs } from '@/components/ui/tabs';
import { myGenerationsQueryOptions } from '@/features/library/api/get-my-generations';
import { MusicLibrary } from '@/features/library/components/music-library';
import { LikedTracks } from '@/features/likes/components/liked-tracks';
import { LazyStudioMenu } from '@/features/studio/lazy-studio';
import { userQueryOptions, useUser } from '@/lib/auth';
import { pageTitle } from '@/lib/page-title';
import { usePageData } from '@/lib/use-page-data';

/**
 * The library on its own page; Create First Track goes to the Create page.
 * Shows once the auth state and, for a signed-in user, the library are in.
 */
export default function LibraryRoute() {
  usePageData(userQueryOptions());
  const { user } = useUser();
  usePageData(...(user ? [myGenerationsQueryOptions()] : []));
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const tab = params.get('tab') === 'liked' ? 'liked' : 'tracks';
  const library = (
    <MusicLibrary
      headingLevel="h1"
      onCreateFirst={() => navigate('/')}
      trackActions={(track, describedBy, onStarted) => (
        <LazyStudioMenu track={track} describedBy={describedBy} onStarted={onStarted} />
      )}
    />
  );
  return (
    <div className="mx-auto max-w-5xl px-4 py-12 sm:px-6 sm:py-16">
      <title>{pageTitle(tab === 'liked' ? 'Liked tracks' : 'My Music Library')}</title>
      {user ? (
        // The tab is in the address (`?tab=liked`), so Liked can be linked to and comes back on reload.
        <Tabs
          label="Library"
          value={tab}
          onChange={(next) => setParams(next === 'liked' ? { tab: 'liked' } : {}, { replace: true })}
          listClassName="mb-8 max-w-sm"
          items={[
            { value: 'tracks', label: 'My tracks', content: library },
            { value: 'liked', label: 'Liked', content: <LikedTracks headingLevel="h1" /> },
          ]}
        />
      ) : (
        library
      )}
    </div>
  );
}

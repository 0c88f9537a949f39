import { Link, useNavigate } from 'react-router';
import { myGenerationsQueryOptions } from '@/features/library/api/get-my-generations';
import { MusicLibrary } from '@/features/library/components/music-library';
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
  return (
    <div className="mx-auto max-w-5xl px-4 py-12 sm:px-6 sm:py-16">
      <title>{pageTitle('My Music Library')}</title>
      <p className="mb-4 text-sm text-zinc-400">
        New from the creators you follow:{' '}
        <Link to="/following" className="text-violet-300 underline hover:text-violet-200">
          Following
        </Link>
      </p>
      <MusicLibrary
        headingLevel="h1"
        onCreateFirst={() => navigate('/')}
        trackActions={(track, describedBy, onStarted) => (
          <LazyStudioMenu track={track} describedBy={describedBy} onStarted={onStarted} />
        )}
      />
    </div>
  );
}

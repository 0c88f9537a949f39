import type { QueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { myGenerationsQueryOptions } from '@/features/library/api/get-my-generations';
import { MusicLibrary } from '@/features/library/components/music-library';
import { LazyStudioMenu } from '@/features/studio/lazy-studio';
import { userQueryOptions } from '@/lib/auth';
import { pageTitle } from '@/lib/page-title';

/** Loads the auth state and, for a signed-in user, the library before the page shows. */
export const clientLoader = (queryClient: QueryClient) => async () => {
  const user = await queryClient.ensureQueryData(userQueryOptions());
  if (user) await queryClient.ensureQueryData(myGenerationsQueryOptions()).catch(() => undefined);
  return null;
};

/** The library on its own page; Create First Track goes to the Create page. */
export default function LibraryRoute() {
  const navigate = useNavigate();
  return (
    <div className="mx-auto max-w-5xl px-4 py-12 sm:px-6 sm:py-16">
      <title>{pageTitle('My Music Library')}</title>
      <MusicLibrary
        headingLevel="h1"
        onCreateFirst={() => navigate('/')}
        trackActions={(track, describedBy) => <LazyStudioMenu track={track} describedBy={describedBy} />}
      />
    </div>
  );
}

import type { QueryClient } from '@tanstack/react-query';
import { CreatePage } from '@/features/create/components/create-page';
import { publicTracksQueryOptions } from '@/features/gallery/api/get-public-tracks';
import { CommunityGallery } from '@/features/gallery/components/community-gallery';
import { FeatureCards } from '@/features/home/components/feature-cards';
import { Hero } from '@/features/home/components/hero';
import { MusicLibrary } from '@/features/library/components/music-library';
import { LazyStudioMenu } from '@/features/studio/lazy-studio';
import { userQueryOptions, useUser } from '@/lib/auth';
import { pageTitle } from '@/lib/page-title';

/**
 * Learns who is visiting before the page shows. Visitors get the landing page
 * with the gallery loaded (a failure only hides the gallery); signed-in users
 * get the Create page, which needs no gallery.
 */
export const clientLoader = (queryClient: QueryClient) => async () => {
  const user = await queryClient.ensureQueryData(userQueryOptions());
  if (!user) await queryClient.ensureQueryData(publicTracksQueryOptions()).catch(() => undefined);
  return null;
};

function Landing() {
  return (
    <>
      <title>{pageTitle()}</title>
      <Hero />
      <CommunityGallery />
      <FeatureCards />
    </>
  );
}

/** `/`: the landing page for visitors, the Create page for signed-in users. */
export default function HomeRoute() {
  const { user } = useUser();
  if (!user) return <Landing />;
  return (
    <>
      <title>{pageTitle('Create')}</title>
      <CreatePage
        library={({ createFirst }) => (
          <MusicLibrary
            onCreateFirst={createFirst}
            trackActions={(track, describedBy) => <LazyStudioMenu track={track} describedBy={describedBy} />}
          />
        )}
      />
    </>
  );
}

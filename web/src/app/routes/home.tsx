import type { QueryClient } from '@tanstack/react-query';
import { type ComponentType, lazy, Suspense } from 'react';
import { PageFallback } from '@/components/layout/page-fallback';
import { publicTracksQueryOptions } from '@/features/gallery/api/get-public-tracks';
import { CommunityGallery } from '@/features/gallery/components/community-gallery';
import { FeatureCards } from '@/features/home/components/feature-cards';
import { Hero } from '@/features/home/components/hero';
import { userQueryOptions, useUser } from '@/lib/auth';
import { pageTitle } from '@/lib/page-title';

const loadCreate = () => import('./home-create');
/** The signed-in page, once its chunk is here (the loader fetches it before the page shows). */
let LoadedCreate: ComponentType | undefined;
/** The same page when the user signs in while `/` is already showing. */
const LazyCreate = lazy(loadCreate);

/**
 * Learns who is visiting before the page shows. Visitors get the landing page
 * with the gallery loaded (a failure only hides the gallery); signed-in users
 * get the Create page, whose code loads beside nothing else.
 */
export const clientLoader = (queryClient: QueryClient) => async () => {
  const user = await queryClient.ensureQueryData(userQueryOptions());
  if (user) LoadedCreate = (await loadCreate()).default;
  else await queryClient.ensureQueryData(publicTracksQueryOptions()).catch(() => undefined);
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
  if (LoadedCreate) return <LoadedCreate />;
  return (
    <Suspense fallback={<PageFallback />}>
      <LazyCreate />
    </Suspense>
  );
}

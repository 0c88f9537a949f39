import type { QueryClient } from '@tanstack/react-query';
import { publicTracksQueryOptions } from '@/features/gallery/api/get-public-tracks';
import { CommunityGallery } from '@/features/gallery/components/community-gallery';
import { FeatureCards } from '@/features/home/components/feature-cards';
import { Hero } from '@/features/home/components/hero';
import { pageTitle } from '@/lib/page-title';

/** Loads the gallery before the page shows; a failure only hides the gallery. */
export const clientLoader = (queryClient: QueryClient) => async () => {
  await queryClient.ensureQueryData(publicTracksQueryOptions()).catch(() => undefined);
  return null;
};

export default function HomeRoute() {
  return (
    <>
      <title>{pageTitle()}</title>
      <Hero />
      <CommunityGallery />
      <FeatureCards />
    </>
  );
}

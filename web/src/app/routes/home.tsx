import { lazy } from 'react';
import { publicTracksQueryOptions } from '@/features/gallery/api/get-public-tracks';
import { CommunityGallery } from '@/features/gallery/components/community-gallery';
import { FeatureCards } from '@/features/home/components/feature-cards';
import { Hero } from '@/features/home/components/hero';
import { userQueryOptions, useUser } from '@/lib/auth';
import { pageTitle } from '@/lib/page-title';
import { usePageData } from '@/lib/use-page-data';

/** The signed-in page: a chunk of its own, which a visitor never loads. */
const Create = lazy(() => import('./home-create'));

/** The landing page, shown once the gallery has answered (a failure only hides the gallery), so nothing jumps. */
function Landing() {
  usePageData(publicTracksQueryOptions());
  return (
    <>
      <title>{pageTitle()}</title>
      <Hero />
      <CommunityGallery />
      <FeatureCards />
    </>
  );
}

/**
 * `/`: the landing page for visitors, the Create page for signed-in users.
 * Who is visiting is known before either shows, so neither flashes in place
 * of the other; the layout's fallback (or, on a navigation, the previous
 * page) shows meanwhile, and while the Create page's code loads.
 */
export default function HomeRoute() {
  usePageData(userQueryOptions());
  const { user } = useUser();
  return user ? <Create /> : <Landing />;
}

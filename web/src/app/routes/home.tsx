import type { QueryClient } from '@tanstack/react-query';
import { lazy, Suspense } from 'react';
import type { Params } from 'react-router';
import { publicTracksQueryOptions } from '@/features/gallery/api/get-public-tracks';
import { CommunityGallery, GallerySkeleton } from '@/features/gallery/components/community-gallery';
import { FeatureCards } from '@/features/home/components/feature-cards';
import { Hero } from '@/features/home/components/hero';
import { hasSignedInHint, userQueryOptions, useUser } from '@/lib/auth';
import { pageTitle } from '@/lib/page-title';
import { usePageData } from '@/lib/use-page-data';

/** The signed-in page: a chunk of its own, which a visitor never loads. */
const Create = lazy(() => import('./home-create'));

/** Starts a visitor's gallery before the first render asks for it (router.tsx). */
export function prepare(_params: Params, queryClient: QueryClient): void {
  if (!hasSignedInHint()) void queryClient.prefetchQuery(publicTracksQueryOptions());
}

/** The gallery, once it has answered (a failure only hides it). */
function Gallery() {
  usePageData(publicTracksQueryOptions());
  return <CommunityGallery />;
}

/**
 * The landing page: the hero and the feature cards at once, the gallery's
 * space held by a skeleton of its final size until the tracks answer, so
 * nothing below it moves.
 */
function Landing() {
  return (
    <>
      <title>{pageTitle()}</title>
      <Hero />
      <Suspense fallback={<GallerySkeleton />}>
        <Gallery />
      </Suspense>
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

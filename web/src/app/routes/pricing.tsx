import type { QueryClient } from '@tanstack/react-query';
import { lazy, Suspense } from 'react';
import type { Params } from 'react-router';
import { PlansSkeleton } from '@/features/pricing/components/plans-skeleton';
import { userQueryOptions } from '@/lib/auth';
import { loadOnce } from '@/lib/load-once';
import { pageTitle } from '@/lib/page-title';
import { plansQueryOptions } from '@/lib/plans';
import { usePageData } from '@/lib/use-page-data';

/**
 * The plans' code (their cards, checkout and the plan schemas) is not on the
 * way to the page's first paint: the heading paints with this chunk, and the
 * plans' code comes beside their data.
 */
/** Asked once: every render of the plans' part asks for it, and each asking walks its chunks' preloads again. */
const loadPricingPlans = loadOnce(() => import('@/features/pricing/components/pricing-plans'));
const PricingPlans = lazy(() => loadPricingPlans().then((m) => ({ default: m.PricingPlans })));

/** Starts the plans' code and data before the first render asks for them (router.tsx). */
export function prepare(_params: Params, queryClient: QueryClient): void {
  void loadPricingPlans();
  void queryClient.prefetchQuery(plansQueryOptions());
}

/** The plans, once they, their code and the auth state are in; a failure shows the page's error state. */
function Plans() {
  void loadPricingPlans();
  usePageData(plansQueryOptions(), userQueryOptions());
  return <PricingPlans />;
}

/** The page's heading at once; the plans' space is held by a skeleton of their size until they answer. */
export default function PricingRoute() {
  return (
    <div className="mx-auto max-w-7xl px-4 py-16 sm:px-6 sm:py-24">
      <title>{pageTitle('Pricing')}</title>
      <header className="mx-auto mb-12 max-w-2xl text-center">
        <h1 className="text-4xl font-extrabold tracking-tight text-white sm:text-5xl">Choose Your Plan</h1>
        <p className="mt-4 text-lg text-zinc-300">
          Start free and upgrade when you need more songs a week, private tracks and downloads.
        </p>
      </header>
      <Suspense fallback={<PlansSkeleton />}>
        <Plans />
      </Suspense>
    </div>
  );
}

import { lazy } from 'react';
import { Link, useLocation } from 'react-router';
import { buttonClasses } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { pageTitle } from '@/lib/page-title';

// A creator's page (`/@handle`) and the Following feed, in a chunk of their own (decision 059). React
// Router matches whole segments only (`@:handle` does not match), and a route of their own would add
// to every visitor's first load: the catch-all, already loaded lazily, loads them.
const CreatorRoute = lazy(() => import('./creator'));

/** `/@handle` (one segment after the `@`) and `/following`. */
export const isCreatorPath = (pathname: string) =>
  /^\/@[^/]+\/?$/.test(pathname) || /^\/following\/?$/.test(pathname);

export default function NotFoundRoute() {
  const { pathname } = useLocation();
  // While its code loads, the layout's boundary keeps the page before it (or shows its fallback).
  if (isCreatorPath(pathname)) return <CreatorRoute />;
  return (
    <div className="mx-auto grid max-w-xl place-items-center px-4 py-24">
      <title>{pageTitle('Page Not Found')}</title>
      <Card className="w-full p-8 text-center">
        <h1 className="text-3xl font-bold text-white">404 Page Not Found</h1>
        <p className="mt-4 text-sm text-zinc-400">Did you forget to add the page to the router?</p>
        <Link to="/" className={buttonClasses('primary', 'md', 'mt-8')}>
          Go Home
        </Link>
      </Card>
    </div>
  );
}

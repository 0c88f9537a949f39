import type { QueryClient } from '@tanstack/react-query';
import { useEffect, useMemo } from 'react';
import {
  createBrowserRouter,
  type LoaderFunction,
  matchRoutes,
  type RouteObject,
  RouterProvider,
} from 'react-router';
import { PageFallback } from '@/components/layout/page-fallback';
import { AdminRoot } from './routes/admin/root';
import { RootLayout } from './routes/root';
import { RouteError } from './routes/route-error';

interface RouteModule {
  default: React.ComponentType;
  clientLoader?: (queryClient: QueryClient) => LoaderFunction;
}

/** Maps a route module (default component, optional `clientLoader`) to a lazy route. */
const convert =
  (queryClient: QueryClient) =>
  ({ default: Component, clientLoader }: RouteModule) => ({
    Component,
    ...(clientLoader ? { loader: clientLoader(queryClient) } : {}),
  });

/** A lazily loaded page; the fallback shows while it loads on first visit. */
const page = (
  path: string | undefined,
  load: () => Promise<RouteModule>,
  queryClient: QueryClient,
): RouteObject => ({
  ...(path === undefined ? { index: true } : { path }),
  HydrateFallback: PageFallback,
  lazy: () => load().then(convert(queryClient)),
});

/** An admin section; the admin pages share one lazily loaded chunk. */
const adminPage = (path: string | undefined, name: 'Dashboard' | 'Users' | 'Plans' | 'Tracks') =>
  ({
    ...(path === undefined ? { index: true } : { path }),
    HydrateFallback: PageFallback,
    lazy: () => import('./routes/admin/pages').then((m) => ({ Component: m[name] })),
  }) satisfies RouteObject;

/** Every page of the app. The layout stays in place while pages load and when one fails. */
export function createRoutes(queryClient: QueryClient): RouteObject[] {
  return [
    {
      Component: RootLayout,
      children: [
        {
          ErrorBoundary: RouteError,
          children: [
            page(undefined, () => import('./routes/home'), queryClient),
            page('pricing', () => import('./routes/pricing'), queryClient),
            page('contact', () => import('./routes/contact'), queryClient),
            page('privacy', () => import('./routes/privacy'), queryClient),
            page('terms', () => import('./routes/terms'), queryClient),
            page('auth', () => import('./routes/auth'), queryClient),
            page('check-email', () => import('./routes/check-email'), queryClient),
            page('verify-email/:token', () => import('./routes/verify-email'), queryClient),
            page('reset-password/:token', () => import('./routes/reset-password'), queryClient),
            page('profile', () => import('./routes/profile'), queryClient),
            page('library', () => import('./routes/library'), queryClient),
            page('track/:id', () => import('./routes/track'), queryClient),
            page('*', () => import('./routes/not-found'), queryClient),
          ],
        },
      ],
    },
    {
      // The admin area has its own frame, without the public header and footer.
      path: 'admin',
      Component: AdminRoot,
      children: [
        {
          ErrorBoundary: RouteError,
          children: [
            page('login', () => import('./routes/admin/login'), queryClient),
            {
              HydrateFallback: PageFallback,
              lazy: () => import('./routes/admin/area').then(convert(queryClient)),
              children: [
                adminPage(undefined, 'Dashboard'),
                adminPage('users', 'Users'),
                adminPage('plans', 'Plans'),
                adminPage('tracks', 'Tracks'),
                page('settings', () => import('./routes/admin/settings'), queryClient),
                // Any other admin path shows the dashboard (spec 2).
                adminPage('*', 'Dashboard'),
              ],
            },
          ],
        },
      ],
    },
  ];
}

/**
 * Fetches the code of the pages a link leads to, as soon as the pointer is on
 * the link, a finger touches it or the keyboard focuses it: by the click the
 * page's chunks are usually here, and only its data is left to load. Each
 * page is asked for once; a failure is left for the navigation to report.
 */
export function preloadPagesOnIntent(routes: RouteObject[], target: Document = document): () => void {
  const asked = new Set<string>();
  const preload = (event: Event) => {
    const link = event.target instanceof Element ? event.target.closest('a[href]') : null;
    if (!(link instanceof HTMLAnchorElement) || link.origin !== window.location.origin) return;
    if (asked.has(link.pathname)) return;
    asked.add(link.pathname);
    for (const { route } of matchRoutes(routes, link.pathname) ?? []) {
      if (typeof route.lazy === 'function') void Promise.resolve(route.lazy()).catch(() => undefined);
    }
  };
  const events = ['pointerover', 'touchstart', 'focusin'] as const;
  for (const name of events) target.addEventListener(name, preload, { passive: true });
  return () => {
    for (const name of events) target.removeEventListener(name, preload);
  };
}

export function AppRouter({ queryClient }: { queryClient: QueryClient }) {
  const routes = useMemo(() => createRoutes(queryClient), [queryClient]);
  const router = useMemo(() => createBrowserRouter(routes), [routes]);
  useEffect(() => preloadPagesOnIntent(routes), [routes]);
  return <RouterProvider router={router} />;
}

import type { QueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import { createBrowserRouter, type LoaderFunction, type RouteObject, RouterProvider } from 'react-router';
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

export function AppRouter({ queryClient }: { queryClient: QueryClient }) {
  const router = useMemo(() => createBrowserRouter(createRoutes(queryClient)), [queryClient]);
  return <RouterProvider router={router} />;
}

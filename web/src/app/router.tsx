import type { QueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import { createBrowserRouter, type LoaderFunction, type RouteObject, RouterProvider } from 'react-router';
import { PageFallback } from '@/components/layout/page-fallback';
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

const placeholder = (
  path: string,
  name: 'Auth' | 'CheckEmail' | 'VerifyEmail' | 'ResetPassword' | 'Track' | 'Profile' | 'Admin',
) =>
  ({
    path,
    HydrateFallback: PageFallback,
    lazy: () => import('./routes/coming-soon').then((m) => ({ Component: m[name] })),
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
            placeholder('auth', 'Auth'),
            placeholder('check-email', 'CheckEmail'),
            placeholder('verify-email/:token', 'VerifyEmail'),
            placeholder('reset-password/:token', 'ResetPassword'),
            placeholder('track/:id', 'Track'),
            placeholder('profile', 'Profile'),
            placeholder('admin/*', 'Admin'),
            page('*', () => import('./routes/not-found'), queryClient),
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

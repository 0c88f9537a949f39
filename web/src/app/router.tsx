import { type ComponentType, lazy, useEffect, useState } from 'react';
import { matchRoutes, type RouteObject, UNSAFE_createBrowserHistory, useRoutes } from 'react-router';
import { AdminRoot } from './routes/admin/root';
import { RootLayout } from './routes/root';
import { type AppHistory, TransitionRouter } from './transition-router';

/** What a route keeps beside its element: how to fetch its page's code ahead of a visit. */
interface PageHandle {
  preload: () => Promise<unknown>;
}

/**
 * A page whose code loads on first visit (React.lazy): the layout's boundary
 * shows the fallback meanwhile, or keeps the previous page during a navigation.
 */
function lazyElement(load: () => Promise<{ default: ComponentType }>) {
  const Page = lazy(load);
  const handle: PageHandle = { preload: load };
  return { element: <Page />, handle };
}

/** A lazily loaded page at `path` (the index page without one). */
const page = (path: string | undefined, load: () => Promise<{ default: ComponentType }>): RouteObject => ({
  ...(path === undefined ? { index: true } : { path }),
  ...lazyElement(load),
});

/** An admin section; the admin pages share one lazily loaded chunk. */
const adminPage = (path: string | undefined, name: 'Dashboard' | 'Users' | 'Plans' | 'Tracks') =>
  page(path, () => import('./routes/admin/pages').then((m) => ({ default: m[name] })));

/** Every page of the app. The layout stays in place while pages load and when one fails. */
export function createRoutes(): RouteObject[] {
  return [
    {
      element: <RootLayout />,
      children: [
        page(undefined, () => import('./routes/home')),
        page('pricing', () => import('./routes/pricing')),
        page('contact', () => import('./routes/contact')),
        page('privacy', () => import('./routes/privacy')),
        page('terms', () => import('./routes/terms')),
        page('auth', () => import('./routes/auth')),
        page('check-email', () => import('./routes/check-email')),
        page('verify-email/:token', () => import('./routes/verify-email')),
        page('reset-password/:token', () => import('./routes/reset-password')),
        page('profile', () => import('./routes/profile')),
        page('library', () => import('./routes/library')),
        page('track/:id', () => import('./routes/track')),
        page('*', () => import('./routes/not-found')),
      ],
    },
    {
      // The admin area has its own frame, without the public header and footer.
      path: 'admin',
      element: <AdminRoot />,
      children: [
        page('login', () => import('./routes/admin/login')),
        {
          // The guard, whose code loads with the first admin page.
          ...lazyElement(() => import('./routes/admin/area')),
          children: [
            adminPage(undefined, 'Dashboard'),
            adminPage('users', 'Users'),
            adminPage('plans', 'Plans'),
            adminPage('tracks', 'Tracks'),
            page('settings', () => import('./routes/admin/settings')),
            // Any other admin path shows the dashboard (spec 2).
            adminPage('*', 'Dashboard'),
          ],
        },
      ],
    },
  ];
}

/** Starts fetching the code of every lazily loaded route that `pathname` shows (a layout and its page alike). */
function preloadPages(routes: RouteObject[], pathname: string) {
  for (const { route } of matchRoutes(routes, pathname) ?? []) {
    const handle = route.handle as PageHandle | undefined;
    if (handle) void handle.preload().catch(() => undefined);
  }
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
    preloadPages(routes, link.pathname);
  };
  const events = ['pointerover', 'touchstart', 'focusin'] as const;
  for (const name of events) target.addEventListener(name, preload, { passive: true });
  return () => {
    for (const name of events) target.removeEventListener(name, preload);
  };
}

/** The page for the current address, in its layout. */
export function AppRoutes({ routes }: { routes: RouteObject[] }) {
  return useRoutes(routes);
}

/**
 * The app's pages at `history`'s address. The first page's chunks (a nested
 * page's and its layout's) are fetched side by side from the start, and
 * links fetch theirs on intent.
 */
export function AppPages({ history }: { history: AppHistory }) {
  const [routes] = useState(() => {
    const table = createRoutes();
    preloadPages(table, history.location.pathname);
    return table;
  });
  useEffect(() => preloadPagesOnIntent(routes), [routes]);
  return (
    <TransitionRouter history={history}>
      <AppRoutes routes={routes} />
    </TransitionRouter>
  );
}

/** The app in the browser, at the address bar's address. */
export function AppRouter() {
  const [history] = useState<AppHistory>(() => UNSAFE_createBrowserHistory({ v5Compat: true }));
  return <AppPages history={history} />;
}

import type { FetchQueryOptions, QueryClient, QueryKey } from '@tanstack/react-query';
import { type ComponentType, createElement, use, useEffect, useState } from 'react';
import {
  matchRoutes,
  type Params,
  type RouteMatch,
  type RouteObject,
  UNSAFE_createBrowserHistory,
  useRoutes,
} from 'react-router';
import { nextTask } from '@/lib/next-task';
import { AdminRoot } from './routes/admin/root';
import { RootLayout } from './routes/root';
import { type AppHistory, TransitionRouter } from './transition-router';

/** What a route keeps beside its element: how to fetch its page's code, and then its data, ahead of a visit. */
interface PageHandle {
  preload: () => Promise<unknown>;
  /** The queries the page waits for at `params`, once its code is here. */
  pageData: (params: Params) => readonly PageQuery[];
  /** Starts what the page's parts ask for as they first render, once its code is here. */
  prepare: (params: Params, queryClient: QueryClient) => void;
}

/** A query a page waits for (its `queryOptions`), as usePageData takes it. */
type PageQuery = { queryKey: QueryKey };

/** A page's module: the page, and the queries it waits for before it shows (optional). */
type PageModule = {
  default: ComponentType;
  pageData?: (params: Params) => readonly PageQuery[];
  /**
   * Starts, without waiting, the code and data that parts of the page ask for as they first
   * render (parts that a prerendered frame leaves to the app): that render then finds them
   * on the way rather than asking for them itself (optional).
   */
  prepare?: (params: Params, queryClient: QueryClient) => void;
};

/**
 * A page whose code loads on first visit: the layout's boundary shows the
 * fallback meanwhile, or keeps the previous page during a navigation. Unlike
 * React.lazy, a page whose code is already here renders at once, without
 * suspending: the first page, fetched before the app's first render, takes
 * the place of its prerendered frame with nothing in between. One loader per
 * page for the whole app, so whatever fetched the code, every route table sees it.
 */
const pageLoaders = new Map<() => Promise<PageModule>, ReturnType<typeof pageLoader>>();

function pageLoader(load: () => Promise<PageModule>) {
  let loaded: PageModule | undefined;
  // Marked fulfilled as React marks the promises it has read, so that use() returns the page at
  // once, without suspending, when its code is already here.
  type Loading = Promise<ComponentType> & { status?: 'fulfilled'; value?: ComponentType };
  let pending: Loading | undefined;
  const preload = (): Promise<ComponentType> => {
    if (pending) return pending;
    const asked: Loading = load().then(
      (module) => {
        loaded = module;
        asked.status = 'fulfilled';
        asked.value = module.default;
        return module.default;
      },
      (error: unknown) => {
        // Asked again on the next visit.
        pending = undefined;
        throw error;
      },
    );
    pending = asked;
    return asked;
  };
  // use() on every render, the first page's too: React refuses a component that suspended in
  // use() and then, once the code came, rendered without calling it.
  function Page() {
    return createElement(use(preload()));
  }
  return {
    Page,
    preload,
    pageData: (params: Params) => loaded?.pageData?.(params) ?? [],
    prepare: (params: Params, queryClient: QueryClient) => loaded?.prepare?.(params, queryClient),
  };
}

function lazyElement(load: () => Promise<PageModule>) {
  let loader = pageLoaders.get(load);
  if (!loader) {
    loader = pageLoader(load);
    pageLoaders.set(load, loader);
  }
  // The loader is the handle (its Page aside).
  const handle: PageHandle = loader;
  return { element: <loader.Page />, handle };
}

/** Each page's code, loaded on demand; module-level, so the loaders above are the same in every route table. */
const load = {
  home: () => import('./routes/home'),
  pricing: () => import('./routes/pricing'),
  contact: () => import('./routes/contact'),
  privacy: () => import('./routes/privacy'),
  terms: () => import('./routes/terms'),
  auth: () => import('./routes/auth'),
  checkEmail: () => import('./routes/check-email'),
  verifyEmail: () => import('./routes/verify-email'),
  resetPassword: () => import('./routes/reset-password'),
  profile: () => import('./routes/profile'),
  library: () => import('./routes/library'),
  gallery: () => import('./routes/gallery'),
  track: () => import('./routes/track'),
  playlist: () => import('./routes/playlist'),
  developers: () => import('./routes/developers'),
  notFound: () => import('./routes/not-found'),
  adminLogin: () => import('./routes/admin/login'),
  adminArea: () => import('./routes/admin/area'),
  adminSettings: () => import('./routes/admin/settings'),
} satisfies Record<string, () => Promise<PageModule>>;

const adminPageNames = ['Dashboard', 'Users', 'Plans', 'Tracks', 'Reports', 'Models'] as const;

/** The admin pages' loaders, one per page (made once, as `load`'s), all from one chunk. */
const adminPages = Object.fromEntries(
  adminPageNames.map((name) => [
    name,
    () => import('./routes/admin/pages').then((m) => ({ default: m[name] })),
  ]),
) as Record<(typeof adminPageNames)[number], () => Promise<PageModule>>;

/** A lazily loaded page at `path` (the index page without one). */
const page = (path: string | undefined, load: () => Promise<PageModule>): RouteObject => ({
  ...(path === undefined ? { index: true } : { path }),
  ...lazyElement(load),
});

/** An admin section; the admin pages share one lazily loaded chunk. */
const adminPage = (path: string | undefined, name: keyof typeof adminPages) => page(path, adminPages[name]);

/** Every page of the app. The layout stays in place while pages load and when one fails. */
export function createRoutes(): RouteObject[] {
  return [
    {
      element: <RootLayout />,
      children: [
        page(undefined, load.home),
        page('pricing', load.pricing),
        page('contact', load.contact),
        page('privacy', load.privacy),
        page('terms', load.terms),
        page('auth', load.auth),
        page('check-email', load.checkEmail),
        page('verify-email/:token', load.verifyEmail),
        page('reset-password/:token', load.resetPassword),
        page('profile', load.profile),
        page('library', load.library),
        page('gallery', load.gallery),
        page('track/:id', load.track),
        page('playlist/:id', load.playlist),
        page('developers', load.developers),
        // Also `/@handle` and `/following` (decision 059): the catch-all loads their page, so the first
        // load carries no route of theirs.
        page('*', load.notFound),
      ],
    },
    {
      // The admin area has its own frame, without the public header and footer.
      path: 'admin',
      element: <AdminRoot />,
      children: [
        page('login', load.adminLogin),
        {
          // The guard, whose code loads with the first admin page.
          ...lazyElement(load.adminArea),
          children: [
            adminPage(undefined, 'Dashboard'),
            adminPage('users', 'Users'),
            adminPage('plans', 'Plans'),
            adminPage('tracks', 'Tracks'),
            adminPage('reports', 'Reports'),
            adminPage('models', 'Models'),
            page('settings', load.adminSettings),
            // Any other admin path shows the dashboard (spec 2).
            adminPage('*', 'Dashboard'),
          ],
        },
      ],
    },
  ];
}

/**
 * Starts fetching the code of every lazily loaded route that `pathname` shows
 * (a layout and its page alike); settles once all of it is here or has failed.
 * Given `queryClient`, it then starts, in a task of its own and without waiting
 * for any of it, what the pages' parts ask for as they first render (each
 * page's `prepare`), and settles after that.
 */
export function preloadPages(
  routes: RouteObject[],
  pathname: string,
  queryClient?: QueryClient,
): Promise<void> {
  return preloadMatches(matchRoutes(routes, pathname) ?? [], queryClient);
}

/** preloadPages for routes already matched (matching ranks every route of the app: done once). */
function preloadMatches(matches: RouteMatch[], queryClient?: QueryClient): Promise<void> {
  const asked = matches.flatMap(({ route }) => {
    const handle = route.handle as PageHandle | undefined;
    return handle ? [handle.preload().catch(() => undefined)] : [];
  });
  return Promise.all(asked).then(async () => {
    if (!queryClient) return;
    await nextTask();
    for (const { route, params } of matches)
      (route.handle as PageHandle | undefined)?.prepare(params, queryClient);
  });
}

/**
 * Fetches the code of every page `pathname` shows, then the data those pages
 * wait for; settles once all of it is here or has failed (a failure is the
 * page's to show).
 */
export async function preloadPagesWithData(
  routes: RouteObject[],
  pathname: string,
  queryClient: QueryClient,
): Promise<void> {
  const matches = matchRoutes(routes, pathname) ?? [];
  await preloadMatches(matches);
  const asked = matches.flatMap(({ route, params }) => {
    const handle = route.handle as PageHandle | undefined;
    return (handle?.pageData(params) ?? []).map((options) =>
      queryClient.prefetchQuery(options as FetchQueryOptions),
    );
  });
  await Promise.all(asked);
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
    void preloadPages(routes, link.pathname);
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
    void preloadPages(table, history.location.pathname);
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

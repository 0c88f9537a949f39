// First: zod must not probe for eval under our CSP (see the module).
import './lib/zod-jitless';
import './start-react';
import { StrictMode, startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { App } from './app';
import { createRoutes, preloadPages, preloadPagesWithData } from './app/router';
import { userQueryOptions } from './lib/auth';
import { nextTask } from './lib/next-task';
import { createQueryClient } from './lib/query-client';
import { siteQueryOptions } from './lib/site';
import { FRAME_DIGEST } from './lib/use-page-data';
import './index.css';

const queryClient = createQueryClient();

// index.html has it, and the build refuses a shell without it (web/build/prerender.ts).
const root = document.getElementById('root') as HTMLElement;

const app = (
  <StrictMode>
    <App queryClient={queryClient} />
  </StrictMode>
);

// In a transition, the first render yields to the browser while it works, and
// waits for the page's code rather than showing a fallback.
const render = () => startTransition(() => createRoot(root).render(app));

// A frame built with the app (web/build/prerender.ts) is hydrated: the app
// takes over the elements on screen rather than drawing them again, and
// renders the parts the frame left to it (their data is in now). Where the
// app's first render differs (an operator changed the site's texts), React
// renders the page afresh, and says so here rather than as an error.
const hydrate = () =>
  startTransition(() => {
    hydrateRoot(root, app, {
      onRecoverableError: (error) => {
        if ((error as { digest?: string }).digest === FRAME_DIGEST) return;
        console.warn('The page was rendered afresh:', error);
      },
    });
  });

// A prerendered page is already on screen: the app takes it over once it can
// show the same (the page's code and what every page waits for), so nothing
// on screen goes back to a loading state. A frame marked "replace" (a track's
// page, filled in with its values) is not the app's first render: the app
// replaces it once the page's own data is here too, so the page goes from the
// frame straight to the same page, live.
const frame = root.getAttribute('data-prerendered');
const { pathname } = window.location;

// What every page waits for is asked at once, beside the page's code. Each request, and each
// step after, is a task of its own: on a phone none of them then holds the main thread long
// enough to keep a tap waiting.
async function start(): Promise<void> {
  const user = queryClient.prefetchQuery(userQueryOptions());
  await nextTask();
  const site = queryClient.prefetchQuery(siteQueryOptions());
  if (frame === null) return render();
  await nextTask();
  const routes = createRoutes();
  // A hydrated frame's parts left to the app (the gallery, the plans) are asked for, not waited for.
  const page =
    frame === 'replace'
      ? preloadPagesWithData(routes, pathname, queryClient)
      : preloadPages(routes, pathname, queryClient);
  await Promise.all([user, site, page]);
  // In a task of its own, after what the page's parts asked for.
  await nextTask();
  (frame === 'replace' ? render : hydrate)();
}
void start();

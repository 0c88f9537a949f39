// First: zod must not probe for eval under our CSP (see the module).
import './lib/zod-jitless';
import './start-react';
import { StrictMode, startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { App } from './app';
import { createRoutes, preloadPages, preloadPagesWithData } from './app/router';
import { userQueryOptions } from './lib/auth';
import { createQueryClient } from './lib/query-client';
import { siteQueryOptions } from './lib/site';
import { FRAME_DIGEST } from './lib/use-page-data';
import './index.css';

const queryClient = createQueryClient();
// What every page waits for is asked at once, beside the page's code.
const asked = Promise.all([
  queryClient.prefetchQuery(userQueryOptions()),
  queryClient.prefetchQuery(siteQueryOptions()),
]);

const root = document.getElementById('root');
if (!root) throw new Error('Missing #root element');

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
if (frame === null) render();
else if (frame === 'replace')
  void Promise.all([asked, preloadPagesWithData(createRoutes(), pathname, queryClient)]).then(render);
else void Promise.all([asked, preloadPages(createRoutes(), pathname)]).then(hydrate);

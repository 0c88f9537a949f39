// First: zod must not probe for eval under our CSP (see the module).
import './lib/zod-jitless';
import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app';
import { createRoutes, preloadPages } from './app/router';
import { userQueryOptions } from './lib/auth';
import { createQueryClient } from './lib/query-client';
import { siteQueryOptions } from './lib/site';
import './index.css';

const queryClient = createQueryClient();
// What every page waits for is asked at once, beside the page's code.
const asked = Promise.all([
  queryClient.prefetchQuery(userQueryOptions()),
  queryClient.prefetchQuery(siteQueryOptions()),
]);

const root = document.getElementById('root');
if (!root) throw new Error('Missing #root element');

// In a transition, the first render yields to the browser while it works, and
// waits for the page's code rather than showing a fallback.
const render = () =>
  startTransition(() =>
    createRoot(root).render(
      <StrictMode>
        <App queryClient={queryClient} />
      </StrictMode>,
    ),
  );

// A prerendered page (web/build/prerender.ts) is already on screen: the app
// takes its place once it can show the same, so nothing on screen goes back
// to a loading state.
if (root.hasAttribute('data-prerendered'))
  void Promise.all([asked, preloadPages(createRoutes(), window.location.pathname)]).then(render);
else render();

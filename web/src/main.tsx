// First: zod must not probe for eval under our CSP (see the module).
import './lib/zod-jitless';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app';
import { userQueryOptions } from './lib/auth';
import { createQueryClient } from './lib/query-client';
import { siteQueryOptions } from './lib/site';
import './index.css';

const queryClient = createQueryClient();
// What every page waits for is asked at once, beside the page's code.
void queryClient.prefetchQuery(userQueryOptions());
void queryClient.prefetchQuery(siteQueryOptions());

const root = document.getElementById('root');
if (!root) throw new Error('Missing #root element');

createRoot(root).render(
  <StrictMode>
    <App queryClient={queryClient} />
  </StrictMode>,
);

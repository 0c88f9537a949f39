import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app';
import { userQueryOptions } from './lib/auth';
import { createQueryClient } from './lib/query-client';
import './index.css';

const queryClient = createQueryClient();
void queryClient.prefetchQuery(userQueryOptions());

const root = document.getElementById('root');
if (!root) throw new Error('Missing #root element');

createRoot(root).render(
  <StrictMode>
    <App queryClient={queryClient} />
  </StrictMode>,
);

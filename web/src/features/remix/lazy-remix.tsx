import { lazy, Suspense } from 'react';
import type { RemixPanelProps } from './components/remix-panel';

// Remixes load with the track page's own data, never with a visitor's first page.
const Panel = lazy(() => import('./components/remix-panel'));

/** A track's remix credit, permission, Remix button and remixes (decision 060), loaded on the track page. */
export function LazyRemixPanel(props: RemixPanelProps) {
  return (
    <Suspense fallback={null}>
      <Panel {...props} />
    </Suspense>
  );
}

import { lazy, Suspense } from 'react';
import type { StemsPanelProps } from './components/stems-panel';

// The stems load after the track page's own code: a name in the page's list of chunks would sit in the
// first code every visitor loads (the route table's), and most tracks have no stems.
const Panel = lazy(() => import('./components/stems-panel').then((m) => ({ default: m.StemsPanel })));

/** A track's stems under its player, loaded with the page. */
export function LazyStemsPanel(props: StemsPanelProps) {
  return (
    <Suspense fallback={null}>
      <Panel {...props} />
    </Suspense>
  );
}

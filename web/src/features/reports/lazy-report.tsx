import { lazy, Suspense } from 'react';
import type { TrackReportMenuProps } from './components/track-report-menu';

// Reporting loads only where a signed-in user looks at someone else's track, never with a visitor's first page.
const Menu = lazy(() =>
  import('./components/track-report-menu').then((m) => ({ default: m.TrackReportMenu })),
);

/** The More menu of someone else's track (Report track), loaded on first use. */
export function LazyTrackReportMenu(props: TrackReportMenuProps) {
  return (
    <Suspense fallback={null}>
      <Menu {...props} />
    </Suspense>
  );
}

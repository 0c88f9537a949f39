import { lazy, Suspense } from 'react';
import type { ReportProfileButtonProps } from './components/report-profile-button';
import type { TrackReportMenuProps } from './components/track-report-menu';

// Reporting loads only where a signed-in user looks at someone else's track, never with a visitor's first page.
const Menu = lazy(() =>
  import('./components/track-report-menu').then((m) => ({ default: m.TrackReportMenu })),
);

const ProfileButton = lazy(() =>
  import('./components/report-profile-button').then((m) => ({ default: m.ReportProfileButton })),
);

/** The More menu of someone else's track (Report track), loaded on first use. */
export function LazyTrackReportMenu(props: TrackReportMenuProps) {
  return (
    <Suspense fallback={null}>
      <Menu {...props} />
    </Suspense>
  );
}

/** Report profile on a creator's page (for a signed-in user who is not its owner), loaded on first use. */
export function LazyReportProfileButton(props: ReportProfileButtonProps) {
  return (
    <Suspense fallback={null}>
      <ProfileButton {...props} />
    </Suspense>
  );
}

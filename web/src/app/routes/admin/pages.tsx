/** The admin area's pages, in one lazily loaded chunk: a visitor's first load carries none of them. */
import { lazy } from 'react';

export { Dashboard } from '@/features/admin-dashboard/components/dashboard';
export { SubscriptionPlans as Plans } from '@/features/admin-plans/components/subscription-plans';
export { MusicTracks as Tracks } from '@/features/admin-tracks/components/music-tracks';
export { UserManagement as Users } from '@/features/admin-users/components/user-management';

/**
 * Models loads apart from the other pages: the calls and chunks it needs stay
 * out of the list of chunks the app's first code names for this chunk.
 */
export const Models = lazy(() =>
  import('@/features/admin-models/components/model-settings').then((m) => ({ default: m.ModelSettings })),
);

/** Reports loads apart too, for the same reason: its schemas are shared with the report dialog's chunk. */
export const Reports = lazy(() =>
  import('@/features/admin-reports/components/reports').then((m) => ({ default: m.Reports })),
);

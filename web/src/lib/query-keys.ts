/**
 * Query keys that more than one feature touches: the create forms refresh the
 * library when a generation starts or completes, and library changes refresh
 * the track page.
 */
export const myGenerationsQueryKey = ['my-generations'] as const;

/** One track as its share page shows it. */
export const trackQueryKey = (id: string) => ['track', id] as const;

/** The public plan list (Pricing); admin plan changes refresh it. */
export const plansQueryKey = ['plans'] as const;

/** The admin area's data; everything under `admin` is forgotten on Sign Out. */
export const adminQueryKeys = {
  all: ['admin'] as const,
  stats: ['admin', 'stats'] as const,
  users: ['admin', 'users'] as const,
  plans: ['admin', 'plans'] as const,
  tracks: ['admin', 'tracks'] as const,
  settings: ['admin', 'settings'] as const,
  models: ['admin', 'models'] as const,
  reports: ['admin', 'reports'] as const,
};

/**
 * Query keys that more than one feature touches: the create forms refresh the
 * library when a generation starts or completes, and library changes refresh
 * the track page.
 */
export const myGenerationsQueryKey = ['my-generations'] as const;

/** One track as its share page shows it. */
export const trackQueryKey = (id: string) => ['track', id] as const;

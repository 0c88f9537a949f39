import type { QueryClient, QueryKey } from '@tanstack/react-query';

/**
 * Refreshes the queries under each key after a change on the server.
 *
 * `invalidateQueries` alone restarts a fetch in flight only when its query
 * already has data: a first fetch (a search typed a moment before) that the
 * server answered before the change would then land as fresh and, with data
 * that never goes stale, stay on screen. Cancelling first makes every active
 * query fetch again after the change.
 */
export async function refreshQueries(queryClient: QueryClient, ...keys: QueryKey[]): Promise<void> {
  await Promise.all(keys.map((queryKey) => queryClient.cancelQueries({ queryKey })));
  await Promise.all(keys.map((queryKey) => queryClient.invalidateQueries({ queryKey })));
}

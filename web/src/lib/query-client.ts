import { QueryClient } from '@tanstack/react-query';

/**
 * Data fetching per the spec: cached data never goes stale, no refetch on
 * window focus, no polling, no retries.
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: Number.POSITIVE_INFINITY,
        refetchOnWindowFocus: false,
        retry: false,
      },
      mutations: { retry: false },
    },
  });
}

import { type QueryClient, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import * as generationCalls from '@tunesmith/shared/calls/generation';
import type { UserExport } from '@tunesmith/shared/ownership';
import { apiRequest } from '@/lib/api-client';

/** While an export is being prepared, the profile asks how far it got this often. */
export const EXPORT_POLL_MS = 2000;

export const latestExportQueryKey = ['user-export', 'latest'] as const;

/** The user's newest export, or null: the profile picks a running export up after a reload. */
export async function getLatestExport(): Promise<UserExport | null> {
  const answer = await apiRequest<{ export: UserExport | null }>(generationCalls.getLatestExport);
  return answer?.export ?? null;
}

/** One export of the user's (`GET /api/user/export/{exportId}`). */
export function getExport(exportId: string): Promise<UserExport> {
  return apiRequest<UserExport>(generationCalls.getExport, { params: { exportId } });
}

/**
 * The export the profile shows: the latest, and once one is preparing that
 * very export, read by its id until it ends (a read by id always sees the
 * newest state; the latest may lag a moment behind a start).
 */
export const latestExportQueryOptions = (queryClient: QueryClient) =>
  queryOptions({
    queryKey: latestExportQueryKey,
    queryFn: async (): Promise<UserExport | null> => {
      const shown = queryClient.getQueryData<UserExport | null>(latestExportQueryKey);
      return shown?.status === 'preparing' ? getExport(shown.exportId) : getLatestExport();
    },
    // Followed while it is being prepared; a ready or failed export changes no more.
    refetchInterval: (query) => (query.state.data?.status === 'preparing' ? EXPORT_POLL_MS : false),
  });

export function useLatestExport() {
  return useQuery(latestExportQueryOptions(useQueryClient()));
}

/** Starts an export of every finished track (`POST /api/user/export`, 202). */
export function startExport(): Promise<{ exportId: string }> {
  return apiRequest<{ exportId: string }>(generationCalls.startExport, { body: {} });
}

/** Starts an export, then follows it as the latest one. */
export function useStartExport(options: { onError?: (error: Error) => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: startExport,
    onSuccess: ({ exportId }) => {
      // Shown as preparing at once; the next read brings the real progress.
      const started: UserExport = {
        exportId,
        status: 'preparing',
        createdAt: new Date().toISOString(),
        tracksDone: 0,
        tracksTotal: null,
      };
      queryClient.setQueryData(latestExportQueryKey, started);
      return queryClient.invalidateQueries({ queryKey: latestExportQueryKey });
    },
    onError: options.onError,
  });
}

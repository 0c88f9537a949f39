import {
  type InfiniteData,
  keepPreviousData,
  useInfiniteQuery,
  useMutation,
  useQueryClient,
} from '@tanstack/react-query';
import {
  type AdminTrack,
  type AdminTrackList,
  adminDownloadSchema,
  adminTrackListSchema,
  adminTrackSchema,
} from '@tunesmith/shared/admin';
import * as adminCalls from '@tunesmith/shared/calls/admin';
import type { TrackStatus, Visibility } from '@tunesmith/shared/tracks';
import { apiRequest } from '@/lib/api-client';
import { adminQueryKeys } from '@/lib/query-keys';
import { refreshQueries } from '@/lib/refresh-queries';

export interface TrackFilters {
  q: string;
  status: TrackStatus | 'all';
  visibility: Visibility | 'all';
}

export function useAdminTracks(filters: TrackFilters) {
  return useInfiniteQuery({
    queryKey: [...adminQueryKeys.tracks, filters],
    queryFn: async ({ pageParam }) =>
      adminTrackListSchema.parse(
        await apiRequest(adminCalls.adminListTracks, {
          query: {
            q: filters.q || undefined,
            status: filters.status === 'all' ? undefined : filters.status,
            visibility: filters.visibility === 'all' ? undefined : filters.visibility,
            cursor: pageParam,
          },
        }),
      ),
    initialPageParam: undefined as string | undefined,
    // The rows on screen stay while a new search loads (and keep their pending actions).
    placeholderData: keepPreviousData,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
}

/** Writes a changed track into every cached page, then refreshes the counters. */
function useTrackMutation<V>(call: (variables: V) => Promise<unknown>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (variables: V) => adminTrackSchema.parse(await call(variables)),
    onSuccess: (track: AdminTrack) => {
      queryClient.setQueriesData<InfiniteData<AdminTrackList>>({ queryKey: adminQueryKeys.tracks }, (data) =>
        data
          ? {
              ...data,
              pages: data.pages.map((page) => ({
                ...page,
                tracks: page.tracks.map((t) => (t.id === track.id ? { ...track, audioUrl: t.audioUrl } : t)),
              })),
            }
          : data,
      );
      void queryClient.invalidateQueries({ queryKey: adminQueryKeys.stats });
    },
  });
}

export const useGalleryVisibility = () =>
  useTrackMutation(({ id, showInGallery }: { id: string; showInGallery: boolean }) =>
    apiRequest(adminCalls.adminSetGalleryVisibility, { params: { trackId: id }, body: { showInGallery } }),
  );

export const useRenameTrack = () =>
  useTrackMutation(({ id, title }: { id: string; title: string }) =>
    apiRequest(adminCalls.adminRenameTrack, { params: { trackId: id }, body: { title } }),
  );

export function useDeleteTrack() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiRequest(adminCalls.adminDeleteTrack, { params: { trackId: id } }),
    onSuccess: () => void refreshQueries(queryClient, adminQueryKeys.tracks, adminQueryKeys.stats),
  });
}

export const downloadLink = async (id: string) =>
  adminDownloadSchema.parse(await apiRequest(adminCalls.adminDownloadTrack, { params: { trackId: id } }));

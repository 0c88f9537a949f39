import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import * as communityCalls from '@tunesmith/shared/calls/community';
import type { Track } from '@tunesmith/shared/tracks';
import { apiRequest } from '@/lib/api-client';
import { trackQueryKey } from '@/lib/query-keys';

export interface RemixList {
  remixes: Track[];
  privateCount?: number;
}

// Under the track's own key: whatever invalidates the track (a remix started from it) reads its remixes again.
const remixesQueryKey = (id: string) => ['track', id, 'remixes'] as const;

/** The remixes of a track the viewer may see, newest first; its owner also learns how many are private. */
export const remixesQueryOptions = (id: string) =>
  queryOptions({
    queryKey: remixesQueryKey(id),
    queryFn: () => apiRequest<RemixList>(communityCalls.listRemixes, { params: { id } }),
  });

export function useRemixes(id: string) {
  return useQuery(remixesQueryOptions(id));
}

/** Lets others remix the owner's public track, or stops them; the track page shows the answer. */
export function useSetRemixable(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (remixable: boolean) =>
      apiRequest<Track>(communityCalls.setRemixable, { params: { id }, body: { remixable } }),
    onSuccess: (track) =>
      queryClient.setQueryData<Track>(trackQueryKey(id), (old) =>
        old ? { ...old, remixable: track.remixable } : old,
      ),
  });
}

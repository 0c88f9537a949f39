import { useMutation, useQueryClient } from '@tanstack/react-query';
import * as generationCalls from '@tunesmith/shared/calls/generation';
import type { UpdateGenerationRequest } from '@tunesmith/shared/generations';
import type { Track } from '@tunesmith/shared/tracks';
import { apiRequest } from '@/lib/api-client';
import { myGenerationsQueryKey, trackQueryKey } from '@/lib/query-keys';

/**
 * Sets a track's title and visibility. Both fields always travel together:
 * a rename sends the current visibility, a visibility change the current title.
 * The input is checked with `updateGenerationSchema` from `@tunesmith/shared/generations`.
 */
export function updateGeneration(id: string, input: UpdateGenerationRequest): Promise<Track> {
  return apiRequest<Track>(generationCalls.updateGeneration, { params: { id }, body: input });
}

export function useUpdateGeneration() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, input }: { id: string; input: UpdateGenerationRequest }) =>
      updateGeneration(id, input),
    onSuccess: (track, { id }) => {
      queryClient.setQueryData<Track[]>(myGenerationsQueryKey, (tracks) =>
        tracks?.map((existing) => (existing.id === id ? { ...existing, ...track } : existing)),
      );
      void queryClient.invalidateQueries({ queryKey: trackQueryKey(id) });
    },
  });
}

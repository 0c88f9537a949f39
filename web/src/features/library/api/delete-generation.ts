import { useMutation, useQueryClient } from '@tanstack/react-query';
import * as generationCalls from '@tunesmith/shared/calls/generation';
import type { Track } from '@tunesmith/shared/tracks';
import { apiRequest } from '@/lib/api-client';
import { myGenerationsQueryKey, trackQueryKey } from '@/lib/query-keys';

/** Deletes a track and its audio for good. */
export function deleteGeneration(id: string): Promise<void> {
  return apiRequest<void>(generationCalls.deleteGeneration, { params: { id } });
}

export function useDeleteGeneration() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteGeneration,
    onSuccess: (_answer, id) => {
      queryClient.setQueryData<Track[]>(myGenerationsQueryKey, (tracks) =>
        tracks?.filter((track) => track.id !== id),
      );
      queryClient.removeQueries({ queryKey: trackQueryKey(id) });
    },
  });
}

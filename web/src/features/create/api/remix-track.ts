import { useMutation } from '@tanstack/react-query';
import * as communityCalls from '@tunesmith/shared/calls/community';
import type { RemixRequest } from '@tunesmith/shared/community';
import type { GenerationStarted } from '@tunesmith/shared/generations';
import { apiRequest } from '@/lib/api-client';

/** Starts a remix of another user's track (decision 060): restyle's fields, the source's audio. */
export function useRemixTrack(id: string) {
  return useMutation({
    mutationFn: (body: RemixRequest) =>
      apiRequest<GenerationStarted>(communityCalls.remixTrack, { params: { id }, body }),
  });
}

import { useMutation } from '@tanstack/react-query';
import { requestStems as requestStemsCall } from '@tunesmith/shared/calls/stems';
import type { StemSet, StemsStarted } from '@tunesmith/shared/stems';
import { apiRequest } from '@/lib/api-client';

/**
 * `POST /api/generation/{id}/stems`: separates the track into a set of stems (one of the week's
 * generations; asking again for a set that exists or is being made costs nothing).
 */
export function requestStems({ id, set }: { id: string; set: StemSet }): Promise<StemsStarted> {
  return apiRequest<StemsStarted>(requestStemsCall, { params: { id }, body: { set } });
}

export function useRequestStems() {
  return useMutation({ mutationFn: requestStems });
}

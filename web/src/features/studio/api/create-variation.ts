import { useMutation } from '@tanstack/react-query';
import * as generationCalls from '@tunesmith/shared/calls/generation';
import type { StudioStarted } from '@tunesmith/shared/generations';
import { apiRequest } from '@/lib/api-client';

/** `POST /api/generation/{id}/variation`: another take of the track, with a new seed. */
export function createVariation(id: string): Promise<StudioStarted> {
  return apiRequest<StudioStarted>(generationCalls.createVariation, { params: { id }, body: {} });
}

export function useCreateVariation() {
  return useMutation({ mutationFn: (id: string) => createVariation(id) });
}

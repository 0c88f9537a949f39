import { useMutation } from '@tanstack/react-query';
import * as generationCalls from '@tunesmith/shared/calls/generation';
import type { ExtendInput, StudioStarted } from '@tunesmith/shared/generations';
import { apiRequest } from '@/lib/api-client';

/** `POST /api/generation/{id}/extend`: the whole song, `seconds` longer at its start or end. */
export function extendGeneration(id: string, input: ExtendInput): Promise<StudioStarted> {
  return apiRequest<StudioStarted>(generationCalls.extendGeneration, { params: { id }, body: input });
}

export function useExtendGeneration() {
  return useMutation({
    mutationFn: ({ id, input }: { id: string; input: ExtendInput }) => extendGeneration(id, input),
  });
}

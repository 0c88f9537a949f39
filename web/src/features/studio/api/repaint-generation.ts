import { useMutation } from '@tanstack/react-query';
import * as generationCalls from '@tunesmith/shared/calls/generation';
import type { RepaintInput, StudioStarted } from '@tunesmith/shared/generations';
import { apiRequest } from '@/lib/api-client';

/** `POST /api/generation/{id}/repaint`: the song again, with one section made anew. */
export function repaintGeneration(id: string, input: RepaintInput): Promise<StudioStarted> {
  return apiRequest<StudioStarted>(generationCalls.repaintGeneration, { params: { id }, body: input });
}

export function useRepaintGeneration() {
  return useMutation({
    mutationFn: ({ id, input }: { id: string; input: RepaintInput }) => repaintGeneration(id, input),
  });
}

import { useMutation } from '@tanstack/react-query';
import * as generationCalls from '@tunesmith/shared/calls/generation';
import type { GenerationStarted, TextToMusicRequest } from '@tunesmith/shared/generations';
import { apiRequest } from '@/lib/api-client';

/** Starts a generation from tags, lyrics, duration, title and visibility. */
export function generateTextToMusic(input: TextToMusicRequest): Promise<GenerationStarted> {
  return apiRequest<GenerationStarted>(generationCalls.generateTextToMusic, { body: input });
}

export function useGenerateTextToMusic() {
  return useMutation({ mutationFn: generateTextToMusic });
}

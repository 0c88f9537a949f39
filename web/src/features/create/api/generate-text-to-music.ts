import { useMutation } from '@tanstack/react-query';
import * as generationCalls from '@tunesmith/shared/calls/generation';
import type { GenerationStarted, TextToMusicRequest } from '@tunesmith/shared/generations';
import { apiRequest } from '@/lib/api-client';

/** What the form sends: the schema's fields, its lyrics left out for a model that takes none. */
export type TextToMusicBody = Omit<TextToMusicRequest, 'lyrics'> & { lyrics?: string };

/** Starts a generation from the model, tags, lyrics, duration, title and visibility. */
export function generateTextToMusic(input: TextToMusicBody): Promise<GenerationStarted> {
  return apiRequest<GenerationStarted>(generationCalls.generateTextToMusic, { body: input });
}

export function useGenerateTextToMusic() {
  return useMutation({ mutationFn: generateTextToMusic });
}

import { useMutation } from '@tanstack/react-query';
import * as generationCalls from '@tunesmith/shared/calls/generation';
import type { AudioToMusicRequest, GenerationStarted } from '@tunesmith/shared/generations';
import { apiRequest } from '@/lib/api-client';

/** What the form sends: the schema's fields, its lyrics left out for a model that takes none. */
export type AudioToMusicBody = Omit<AudioToMusicRequest, 'lyrics'> & { lyrics?: string };

/** Restyles an uploaded song (its `objectPath` as `inputAudioUrl`) with the model into the given tags, lyrics and title. */
export function generateAudioToMusic(input: AudioToMusicBody): Promise<GenerationStarted> {
  return apiRequest<GenerationStarted>(generationCalls.generateAudioToMusic, { body: input });
}

export function useGenerateAudioToMusic() {
  return useMutation({ mutationFn: generateAudioToMusic });
}

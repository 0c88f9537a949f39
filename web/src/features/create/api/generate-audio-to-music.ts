import { useMutation } from '@tanstack/react-query';
import * as generationCalls from '@tunesmith/shared/calls/generation';
import type { AudioToMusicRequest, GenerationStarted } from '@tunesmith/shared/generations';
import { apiRequest } from '@/lib/api-client';

/** Restyles an uploaded song (its `objectPath` as `inputAudioUrl`) into the given tags, lyrics and title. */
export function generateAudioToMusic(input: AudioToMusicRequest): Promise<GenerationStarted> {
  return apiRequest<GenerationStarted>(generationCalls.generateAudioToMusic, { body: input });
}

export function useGenerateAudioToMusic() {
  return useMutation({ mutationFn: generateAudioToMusic });
}

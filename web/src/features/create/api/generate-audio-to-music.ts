import { useMutation } from '@tanstack/react-query';
import type { AudioToMusicRequest, GenerationStarted } from '@tunesmith/shared/generations';
import { apiRequest } from '@/lib/api-client';

/** Restyles an uploaded song (its `objectPath` as `inputAudioUrl`) into the given tags, lyrics and title. */
export function generateAudioToMusic(input: AudioToMusicRequest): Promise<GenerationStarted> {
  return apiRequest<GenerationStarted>('generateAudioToMusic', { body: input });
}

export function useGenerateAudioToMusic() {
  return useMutation({ mutationFn: generateAudioToMusic });
}

import { useMutation } from '@tanstack/react-query';
import * as generationCalls from '@tunesmith/shared/calls/generation';
import type { LyricsRequest } from '@tunesmith/shared/generations';
import { apiRequest } from '@/lib/api-client';

/** Writes lyrics about a prompt, sized to a duration. */
export function generateLyrics(input: LyricsRequest): Promise<{ lyrics: string }> {
  return apiRequest<{ lyrics: string }>(generationCalls.generateLyrics, { body: input });
}

export function useGenerateLyrics() {
  return useMutation({ mutationFn: generateLyrics });
}

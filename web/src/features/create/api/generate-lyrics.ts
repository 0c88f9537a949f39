import { useMutation } from '@tanstack/react-query';
import type { LyricsRequest } from '@tunesmith/shared/generations';
import { apiRequest } from '@/lib/api-client';

/** Writes lyrics about a prompt, sized to a duration. */
export function generateLyrics(input: LyricsRequest): Promise<{ lyrics: string }> {
  return apiRequest<{ lyrics: string }>('generateLyrics', { body: input });
}

export function useGenerateLyrics() {
  return useMutation({ mutationFn: generateLyrics });
}

import { useMutation } from '@tanstack/react-query';
import * as generationCalls from '@tunesmith/shared/calls/generation';
import { apiRequest } from '@/lib/api-client';

/** Toast texts of a download, verbatim from the specification (spec 1 section 8). */
export const downloadMessages = {
  failedTitle: 'Download Failed',
  failed: 'Failed to download the track.',
} as const;

export interface DownloadTrackInput {
  id: string;
  /** The file name's stem; without it the server names the file after the title. */
  name?: string;
}

/**
 * A short-lived link that downloads the track as `{name}.wav`, or `{title}.wav`
 * without a name (paid plans; the server decides and makes the name safe).
 */
export function downloadTrack({ id, name }: DownloadTrackInput): Promise<{ url: string; filename: string }> {
  return apiRequest<{ url: string; filename: string }>(generationCalls.downloadGeneration, {
    params: { id },
    query: { name },
  });
}

export function useDownloadTrack() {
  return useMutation({ mutationFn: downloadTrack });
}

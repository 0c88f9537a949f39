import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';

/** A short-lived link that downloads the track as `{title}.wav` (paid plans; the server decides). */
export function downloadGeneration(id: string): Promise<{ url: string; filename: string }> {
  return apiRequest<{ url: string; filename: string }>('downloadGeneration', { params: { id } });
}

export function useDownloadGeneration() {
  return useMutation({ mutationFn: downloadGeneration });
}

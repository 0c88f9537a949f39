import * as uploadsCalls from '@tunesmith/shared/calls/uploads';
import type { CompletedMultipart, MultipartUpload } from '@tunesmith/shared/uploads';
import { apiRequest } from '@/lib/api-client';

/**
 * Has the server join the parts and check the file; the answer's `objectPath`
 * is what a generation takes as `inputAudioUrl`. A file that is too large or
 * not audio is refused (4xx with a message) and nothing of it is kept.
 */
export function completeMultipartUpload(
  { key, uploadId }: MultipartUpload,
  parts: { PartNumber: number; ETag: string }[],
  signal?: AbortSignal,
): Promise<CompletedMultipart> {
  return apiRequest<CompletedMultipart>(uploadsCalls.completeMultipartUpload, {
    params: { uploadId },
    query: { key },
    body: { parts },
    signal,
  });
}

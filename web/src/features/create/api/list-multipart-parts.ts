import * as uploadsCalls from '@tunesmith/shared/calls/uploads';
import type { MultipartUpload, UploadedPart } from '@tunesmith/shared/uploads';
import { apiRequest } from '@/lib/api-client';

/** The parts storage already holds of an upload, to resume it. */
export function listMultipartParts(
  { key, uploadId }: MultipartUpload,
  signal?: AbortSignal,
): Promise<UploadedPart[]> {
  return apiRequest<UploadedPart[]>(uploadsCalls.listMultipartParts, {
    params: { uploadId },
    query: { key },
    signal,
  });
}

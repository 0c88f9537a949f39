import * as uploadsCalls from '@tunesmith/shared/calls/uploads';
import type { MultipartUpload, SignedPart } from '@tunesmith/shared/uploads';
import { apiRequest } from '@/lib/api-client';

/** A short-lived link to PUT one part of `size` bytes to (the link holds that size only). */
export function signMultipartPart(
  { key, uploadId }: MultipartUpload,
  partNumber: number,
  size: number,
  signal?: AbortSignal,
): Promise<SignedPart> {
  return apiRequest<SignedPart>(uploadsCalls.signMultipartPart, {
    params: { uploadId, partNumber: String(partNumber) },
    query: { key, size: String(size) },
    signal,
  });
}

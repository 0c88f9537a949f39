import type { MultipartUpload, SignedPart } from '@tunesmith/shared/uploads';
import { apiRequest } from '@/lib/api-client';

/** A short-lived link to PUT one part's bytes to. */
export function signMultipartPart(
  { key, uploadId }: MultipartUpload,
  partNumber: number,
  signal?: AbortSignal,
): Promise<SignedPart> {
  return apiRequest<SignedPart>('signMultipartPart', {
    params: { uploadId, partNumber: String(partNumber) },
    query: { key },
    signal,
  });
}

import * as uploadsCalls from '@tunesmith/shared/calls/uploads';
import type { CreateMultipartRequest, MultipartUpload } from '@tunesmith/shared/uploads';
import { apiRequest } from '@/lib/api-client';

/** Starts sending a file in parts; the server names the key (the user's own area). */
export function createMultipartUpload(
  file: Pick<CreateMultipartRequest, 'filename' | 'type'>,
  signal?: AbortSignal,
): Promise<MultipartUpload> {
  return apiRequest<MultipartUpload>(uploadsCalls.createMultipartUpload, {
    body: { ...file, metadata: {} },
    signal,
  });
}

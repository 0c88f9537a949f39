import * as uploadsCalls from '@tunesmith/shared/calls/uploads';
import type { MultipartUpload } from '@tunesmith/shared/uploads';
import { apiRequest } from '@/lib/api-client';

/** Drops an upload and the parts sent so far (the dialog's cancel). */
export async function abortMultipartUpload({ key, uploadId }: MultipartUpload): Promise<void> {
  await apiRequest<void>(uploadsCalls.abortMultipartUpload, { params: { uploadId }, query: { key } });
}

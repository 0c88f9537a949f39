import type { MultipartUpload } from '@tunesmith/shared/uploads';
import { apiRequest } from '@/lib/api-client';

/** Drops an upload and the parts sent so far (the dialog's cancel). */
export async function abortMultipartUpload({ key, uploadId }: MultipartUpload): Promise<void> {
  await apiRequest<void>('abortMultipartUpload', { params: { uploadId }, query: { key } });
}

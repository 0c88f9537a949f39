import * as uploadsCalls from '@tunesmith/shared/calls/uploads';
import { apiRequest } from '@/lib/api-client';

/**
 * Has the server check a finished upload and name it: the answer's
 * `objectPath` is what a generation takes as `inputAudioUrl`. A file that is
 * not acceptable audio is refused (4xx with a message) and removed.
 */
export function normalizeUploadPath(uploadURL: string): Promise<{ objectPath: string }> {
  return apiRequest<{ objectPath: string }>(uploadsCalls.normalizeUploadPath, { body: { uploadURL } });
}

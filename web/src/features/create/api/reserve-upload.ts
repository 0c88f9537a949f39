import * as uploadsCalls from '@tunesmith/shared/calls/uploads';
import type { ReserveUploadRequest, UploadReservation } from '@tunesmith/shared/uploads';
import { apiRequest } from '@/lib/api-client';

/**
 * Asks for a presigned address to PUT one file to. Describing the file lets the
 * server refuse a wrong type or size before any byte is sent.
 */
export function reserveUpload(input: ReserveUploadRequest): Promise<UploadReservation> {
  return apiRequest<UploadReservation>(uploadsCalls.reserveUpload, { body: input });
}

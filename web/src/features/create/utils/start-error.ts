import { generationMessages } from '@tunesmith/shared/generations';
import { ApiError, serverMessage } from '@/lib/api-client';

/** The message for a refused start: the server's own for a 4xx (such as the quota), else the spec's. */
export function startErrorMessage(error: unknown): string {
  if (error instanceof ApiError && error.status >= 400 && error.status < 500) {
    return serverMessage(error, generationMessages.startFailed);
  }
  return generationMessages.startFailed;
}

import { useMutation } from '@tanstack/react-query';
import * as authCalls from '@tunesmith/shared/calls/auth';
import { apiRequest } from '@/lib/api-client';

/** Changes the password; this session stays signed in and the others end. */
export function updatePassword(input: {
  currentPassword: string;
  newPassword: string;
}): Promise<{ message?: string }> {
  return apiRequest<{ message?: string }>(authCalls.updatePassword, { body: input });
}

export function useUpdatePassword(options: { onSuccess?: () => void; onError?: (error: Error) => void }) {
  return useMutation({ mutationFn: updatePassword, ...options });
}

import { useMutation } from '@tanstack/react-query';
import * as authCalls from '@tunesmith/shared/calls/auth';
import { apiRequest } from '@/lib/api-client';

/** Sets a new password with the token from the mailed link (single use). */
export function resetPassword(input: { token: string; newPassword: string }): Promise<{ message?: string }> {
  return apiRequest<{ message?: string }>(authCalls.resetPassword, { body: input });
}

export function useResetPassword(options: { onSuccess?: () => void; onError?: (error: Error) => void }) {
  return useMutation({ mutationFn: resetPassword, ...options });
}

import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';

/** Sets a new password with the token from the mailed link (single use). */
export function resetPassword(input: { token: string; newPassword: string }): Promise<{ message?: string }> {
  return apiRequest<{ message?: string }>('resetPassword', { body: input });
}

export function useResetPassword(options: { onSuccess?: () => void; onError?: (error: Error) => void }) {
  return useMutation({ mutationFn: resetPassword, ...options });
}

import { useMutation } from '@tanstack/react-query';
import * as authCalls from '@tunesmith/shared/calls/auth';
import { apiRequest } from '@/lib/api-client';

/** Sends a new verification link (spec 2: POST, with the email). */
export function resendVerification(input: { email: string }): Promise<{ message?: string }> {
  return apiRequest<{ message?: string }>(authCalls.resendVerification, { body: input });
}

export function useResendVerification(options: { onSuccess?: () => void; onError?: (error: Error) => void }) {
  return useMutation({ mutationFn: resendVerification, ...options });
}

import { useMutation } from '@tanstack/react-query';
import * as authCalls from '@tunesmith/shared/calls/auth';
import { apiRequest } from '@/lib/api-client';

/** Asks for a reset link by mail; the answer is the same whether or not the account exists. */
export function requestPasswordReset(input: { email: string }): Promise<{ message?: string }> {
  return apiRequest<{ message?: string }>(authCalls.requestPasswordReset, { body: input });
}

export function useRequestPasswordReset(options: {
  onSuccess?: (answer: { message?: string }) => void;
  onError?: (error: Error) => void;
}) {
  return useMutation({
    mutationFn: requestPasswordReset,
    onSuccess: (answer) => options.onSuccess?.(answer ?? {}),
    onError: options.onError,
  });
}

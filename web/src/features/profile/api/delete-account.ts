import { useMutation } from '@tanstack/react-query';
import * as authCalls from '@tunesmith/shared/calls/auth';
import type { DeleteAccountInput } from '@tunesmith/shared/ownership';
import { apiRequest } from '@/lib/api-client';

/**
 * Deletes the signed-in user's account (the current password proves it is
 * them). The server ends every session and cancels a subscription before it
 * answers; the rest is deleted in the background and a mail confirms it.
 */
export function deleteAccount(input: DeleteAccountInput): Promise<{ message: string }> {
  return apiRequest<{ message: string }>(authCalls.deleteAccount, { body: input });
}

export function useDeleteAccount(options: {
  onSuccess?: (answer: { message: string }) => void;
  onError?: (error: Error) => void;
}) {
  return useMutation({ mutationFn: deleteAccount, ...options });
}

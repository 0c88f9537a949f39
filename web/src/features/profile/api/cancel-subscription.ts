import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { userQueryKey } from '@/lib/auth';

/** Cancels the subscription at the end of the billing period. */
export function cancelSubscription(): Promise<unknown> {
  return apiRequest<unknown>('cancelSubscription');
}

/** Cancels, then reloads the user so the card shows the new status. */
export function useCancelSubscription(options: { onSuccess?: () => void; onError?: (error: Error) => void }) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: cancelSubscription,
    onSuccess: async () => {
      options.onSuccess?.();
      await queryClient.invalidateQueries({ queryKey: userQueryKey });
    },
    onError: options.onError,
  });
}

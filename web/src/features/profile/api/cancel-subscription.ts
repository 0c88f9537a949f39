import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CancelSubscriptionResponse } from '@tunesmith/shared/billing';
import * as billingCalls from '@tunesmith/shared/calls/billing';
import { apiRequest } from '@/lib/api-client';
import { userQueryKey } from '@/lib/auth';

/** Cancels the subscription at the end of the billing period. */
export function cancelSubscription(): Promise<Partial<CancelSubscriptionResponse> | null | undefined> {
  return apiRequest<Partial<CancelSubscriptionResponse> | null | undefined>(billingCalls.cancelSubscription);
}

/**
 * Cancels, then reloads the user. Stripe's webhook records the new status a
 * moment later, so callers keep polling the user until it shows.
 */
export function useCancelSubscription(options: {
  onSuccess?: (answer: Partial<CancelSubscriptionResponse>) => void;
  onError?: (error: Error) => void;
}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: cancelSubscription,
    onSuccess: async (answer) => {
      options.onSuccess?.(answer ?? {});
      await queryClient.invalidateQueries({ queryKey: userQueryKey });
    },
    onError: options.onError,
  });
}

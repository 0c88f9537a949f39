import { useMutation } from '@tanstack/react-query';
import type { BillingCycle } from '@tunesmith/shared/constants';
import { apiRequest } from '@/lib/api-client';

export interface CheckoutInput {
  planId: string;
  billingCycle: BillingCycle;
}

/** Starts a Stripe Checkout session; the browser is then sent to the returned url. */
export function createCheckoutSession(input: CheckoutInput): Promise<{ url?: string | null }> {
  return apiRequest<{ url?: string | null }>('createCheckoutSession', { body: input });
}

export function useCreateCheckoutSession(options: {
  onSuccess?: (result: { url?: string | null }) => void;
  onError?: (error: Error) => void;
}) {
  return useMutation({ mutationFn: createCheckoutSession, ...options });
}

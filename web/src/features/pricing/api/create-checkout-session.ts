import { useMutation } from '@tanstack/react-query';
import type { BillingRedirect, CheckoutRequest } from '@tunesmith/shared/billing';
import { apiRequest } from '@/lib/api-client';

export type CheckoutInput = CheckoutRequest;

/** What the server answers; read defensively, since a missing url is an error the user is told about. */
export type CheckoutAnswer = Partial<BillingRedirect> | null | undefined;

/**
 * Starts a Stripe Checkout session, or, for a user whose subscription still
 * runs, opens the customer portal to change it. Either way the browser is
 * then sent to the returned url.
 */
export function createCheckoutSession(input: CheckoutInput): Promise<CheckoutAnswer> {
  return apiRequest<CheckoutAnswer>('createCheckoutSession', { body: input });
}

export function useCreateCheckoutSession(options: {
  onSuccess?: (answer: CheckoutAnswer) => void;
  onError?: (error: Error, input: CheckoutInput) => void;
}) {
  return useMutation({ mutationFn: createCheckoutSession, ...options });
}

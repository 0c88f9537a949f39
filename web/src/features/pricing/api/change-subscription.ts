import { useMutation } from '@tanstack/react-query';
import type { BillingRedirect, CheckoutRequest, PortalRequest } from '@tunesmith/shared/billing';
import * as billingCalls from '@tunesmith/shared/calls/billing';
import { apiRequest } from '@/lib/api-client';

export type ChangeSubscriptionInput = CheckoutRequest;

/** What the server answers; read defensively, since a missing url is an error the user is told about. */
export type ChangeSubscriptionAnswer = Partial<BillingRedirect> | null | undefined;

/**
 * Opens the customer portal's confirm step for switching the running
 * subscription to a plan and cycle; the browser is then sent to the returned url.
 */
export function changeSubscription(input: ChangeSubscriptionInput): Promise<ChangeSubscriptionAnswer> {
  const body: PortalRequest = { planId: input.planId, billingCycle: input.billingCycle };
  return apiRequest<ChangeSubscriptionAnswer>(billingCalls.createPortalSession, { body });
}

export function useChangeSubscription(options: {
  onSuccess?: (answer: ChangeSubscriptionAnswer) => void;
  onError?: (error: Error, input: ChangeSubscriptionInput) => void;
}) {
  return useMutation({ mutationFn: changeSubscription, ...options });
}

import { useMutation } from '@tanstack/react-query';
import type { BillingRedirect } from '@tunesmith/shared/billing';
import * as billingCalls from '@tunesmith/shared/calls/billing';
import { apiRequest } from '@/lib/api-client';

/** What the server answers; read defensively, since a missing url is an error the user is told about. */
export type PortalAnswer = Partial<BillingRedirect>;

/** Opens Stripe's customer portal; the browser is then sent to the returned url. */
export function createPortalSession(): Promise<PortalAnswer | null | undefined> {
  return apiRequest<PortalAnswer | null | undefined>(billingCalls.createPortalSession);
}

export function useCreatePortalSession(options: {
  onSuccess?: (answer: PortalAnswer) => void;
  onError?: (error: Error) => void;
}) {
  return useMutation({
    mutationFn: createPortalSession,
    onSuccess: (answer) => options.onSuccess?.(answer ?? {}),
    onError: options.onError,
  });
}

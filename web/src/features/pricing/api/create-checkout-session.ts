import { useMutation } from '@tanstack/react-query';
import type { BillingRedirect, CheckoutRequest } from '@tunesmith/shared/billing';
import * as billingCalls from '@tunesmith/shared/calls/billing';
import { MANAGE_BILLING_PATH } from '@tunesmith/shared/constants';
import { ApiError, apiRequest } from '@/lib/api-client';
import { safeReturnPath } from '@/lib/return-path';

export type CheckoutInput = CheckoutRequest;

/** What the server answers; read defensively, since a missing url is an error the user is told about. */
export type CheckoutAnswer = Partial<BillingRedirect> | null | undefined;

/** Starts a Stripe Checkout session for a new subscription; the browser is then sent to the returned url. */
export function createCheckoutSession(input: CheckoutInput): Promise<CheckoutAnswer> {
  return apiRequest<CheckoutAnswer>(billingCalls.createCheckoutSession, { body: input });
}

export function useCreateCheckoutSession(options: {
  onSuccess?: (answer: CheckoutAnswer) => void;
  onError?: (error: Error, input: CheckoutInput) => void;
}) {
  return useMutation({ mutationFn: createCheckoutSession, ...options });
}

/** Checkout refused because the user already has a subscription: what to say and where it is managed. */
export interface AlreadySubscribed {
  message: string;
  manageUrl: string;
}

/** A 409's body with its message, or null for anything else. */
function conflictBody(error: unknown): (Record<string, unknown> & { message: string }) | null {
  if (!(error instanceof ApiError) || error.status !== 409) return null;
  let body: unknown;
  try {
    body = JSON.parse(error.body);
  } catch {
    return null;
  }
  if (!body || typeof body !== 'object' || !('message' in body) || typeof body.message !== 'string') {
    return null;
  }
  return body as Record<string, unknown> & { message: string };
}

/**
 * Reads the 409 that `create-checkout-session` answers to a user who already
 * pays for a plan. The place to manage it must be a path on this site; the
 * profile is where billing is managed otherwise.
 */
export function alreadySubscribedOf(error: unknown): AlreadySubscribed | null {
  const body = conflictBody(error);
  if (!body || 'grantedPlanId' in body) return null;
  const manageUrl = 'manageUrl' in body ? safeReturnPath(body.manageUrl) : null;
  return { message: body.message, manageUrl: manageUrl ?? MANAGE_BILLING_PATH };
}

/** Checkout refused while a plan the site granted is in force: what paying ends, and the grant to agree to end. */
export interface GrantEnds {
  message: string;
  grantedPlanId: string;
  grantedPlanName: string;
}

/** Reads the 409 that `create-checkout-session` answers while a granted plan is in force and was not agreed to end. */
export function grantEndsOf(error: unknown): GrantEnds | null {
  const body = conflictBody(error);
  if (!body || typeof body.grantedPlanId !== 'string') return null;
  return {
    message: body.message,
    grantedPlanId: body.grantedPlanId,
    grantedPlanName: typeof body.grantedPlanName === 'string' ? body.grantedPlanName : body.grantedPlanId,
  };
}

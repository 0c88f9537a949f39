import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { type User, userQueryKey, useUser } from '@/lib/auth';
import { usePollCurrentUser } from './use-poll-current-user';

/** How often the user is reloaded while a payment is confirmed, and for how long. */
export const CHECKOUT_POLL_INTERVAL_MS = 1500;
export const CHECKOUT_POLL_TIMEOUT_MS = 30_000;
/** After the portal: changes made there reach us by webhook within a few seconds. */
export const PORTAL_POLL_INTERVAL_MS = 1500;
export const PORTAL_POLL_TIMEOUT_MS = 6000;

/**
 * Where the browser came back from (see `billingReturnPaths` in
 * @tunesmith/shared/billing), or Pricing's "Switch to Free"
 * (`SWITCH_TO_FREE_PATH`).
 */
type BillingReturn = 'checkout-success' | 'checkout-cancelled' | 'portal' | 'switch-to-free' | null;

export type BillingReturnNotice =
  | { kind: 'confirming' }
  | { kind: 'confirmed'; planName: string | null }
  | { kind: 'timed-out' }
  | { kind: 'checkout-cancelled' }
  | { kind: 'switch-to-free' }
  | null;

function billingReturnOf(params: URLSearchParams): BillingReturn {
  const checkout = params.get('checkout');
  if (checkout === 'success') return 'checkout-success';
  if (checkout === 'cancelled') return 'checkout-cancelled';
  if (params.get('switch') === 'free') return 'switch-to-free';
  return params.get('billing') === 'portal' ? 'portal' : null;
}

/**
 * The user is on the plan the Checkout page was for, through a running
 * subscription: the plan they had before (one the site granted, say) does not
 * count, so the notice never names a plan the payment did not buy. A page
 * made before the return named its plan counts any paid subscription.
 */
const onPaidPlan = (user: User | null, planId: string | null): boolean =>
  user?.planStatus === 'active' &&
  !!user.stripeSubscriptionId &&
  (planId === null || user.subscriptionPlanId === planId);

/**
 * What the profile says after Stripe sends the browser back. After Checkout it
 * waits for the webhook to put the user on the plan paid for (the redirect
 * proves nothing), polling the user, bounded, and then names that plan;
 * after the portal it reloads the user for a few seconds. After Pricing's
 * "Switch to Free" it says how. The query parameters are dropped once they
 * have done their work, so a reload does not repeat them; after a timeout
 * they stay, so a reload waits again.
 */
export function useBillingReturn(): BillingReturnNotice {
  const [params, setParams] = useSearchParams();
  const [returned] = useState(() => billingReturnOf(params));
  const [paidPlanId] = useState(() => params.get('plan'));
  const queryClient = useQueryClient();
  const { user } = useUser();

  // Once confirmed, it stays confirmed on this page, whatever later reloads bring.
  const [confirmed, setConfirmed] = useState<{ planName: string | null } | null>(null);
  const checkout = usePollCurrentUser({
    active: returned === 'checkout-success' && !confirmed,
    until: (current) => onPaidPlan(current, paidPlanId),
    intervalMs: CHECKOUT_POLL_INTERVAL_MS,
    timeoutMs: CHECKOUT_POLL_TIMEOUT_MS,
  });
  usePollCurrentUser({
    active: returned === 'portal',
    until: () => false,
    intervalMs: PORTAL_POLL_INTERVAL_MS,
    timeoutMs: PORTAL_POLL_TIMEOUT_MS,
  });

  useEffect(() => {
    if (returned === 'portal') void queryClient.invalidateQueries({ queryKey: userQueryKey, exact: true });
  }, [returned, queryClient]);

  const planName = user?.planName ?? null;
  useEffect(() => {
    if (checkout === 'done') setConfirmed((current) => current ?? { planName });
  }, [checkout, planName]);

  const settled =
    returned === 'checkout-cancelled' ||
    returned === 'portal' ||
    returned === 'switch-to-free' ||
    confirmed !== null;
  const dropped = useRef(false);
  useEffect(() => {
    if (!settled || dropped.current) return;
    dropped.current = true;
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        for (const name of ['checkout', 'plan', 'billing', 'switch']) next.delete(name);
        return next;
      },
      { replace: true },
    );
  }, [settled, setParams]);

  if (returned === 'checkout-cancelled') return { kind: 'checkout-cancelled' };
  if (returned === 'switch-to-free') return { kind: 'switch-to-free' };
  if (returned !== 'checkout-success') return null;
  if (confirmed) return { kind: 'confirmed', planName: confirmed.planName };
  if (checkout === 'done') return { kind: 'confirmed', planName };
  return checkout === 'timed-out' ? { kind: 'timed-out' } : { kind: 'confirming' };
}

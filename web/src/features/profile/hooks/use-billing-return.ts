import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { userQueryKey, useUser } from '@/lib/auth';
import { usePollCurrentUser } from './use-poll-current-user';

/** How often the user is reloaded while a payment is confirmed, and for how long. */
export const CHECKOUT_POLL_INTERVAL_MS = 1500;
export const CHECKOUT_POLL_TIMEOUT_MS = 30_000;
/** After the portal: changes made there reach us by webhook within a few seconds. */
export const PORTAL_POLL_INTERVAL_MS = 1500;
export const PORTAL_POLL_TIMEOUT_MS = 6000;

/** Where the browser came back from (see `billingReturnPaths` in @tunesmith/shared/billing). */
type BillingReturn = 'checkout-success' | 'checkout-cancelled' | 'portal' | null;

export type BillingReturnNotice =
  | { kind: 'confirming' }
  | { kind: 'confirmed'; planName: string | null }
  | { kind: 'timed-out' }
  | { kind: 'checkout-cancelled' }
  | null;

function billingReturnOf(params: URLSearchParams): BillingReturn {
  const checkout = params.get('checkout');
  if (checkout === 'success') return 'checkout-success';
  if (checkout === 'cancelled') return 'checkout-cancelled';
  return params.get('billing') === 'portal' ? 'portal' : null;
}

/**
 * What the profile says after Stripe sends the browser back. After Checkout it
 * waits for the webhook to make the plan active (the redirect proves nothing),
 * polling the user, bounded; after the portal it reloads the user for a few
 * seconds. The query parameter is dropped once it has done its work, so a
 * reload does not repeat it; after a timeout it stays, so a reload waits again.
 */
export function useBillingReturn(): BillingReturnNotice {
  const [params, setParams] = useSearchParams();
  const [returned] = useState(() => billingReturnOf(params));
  const queryClient = useQueryClient();
  const { user } = useUser();

  // Once confirmed, it stays confirmed on this page, whatever later reloads bring.
  const [confirmed, setConfirmed] = useState<{ planName: string | null } | null>(null);
  const checkout = usePollCurrentUser({
    active: returned === 'checkout-success' && !confirmed,
    until: (current) => current?.planStatus === 'active',
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

  const settled = returned === 'checkout-cancelled' || returned === 'portal' || confirmed !== null;
  const dropped = useRef(false);
  useEffect(() => {
    if (!settled || dropped.current) return;
    dropped.current = true;
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.delete('checkout');
        next.delete('billing');
        return next;
      },
      { replace: true },
    );
  }, [settled, setParams]);

  if (returned === 'checkout-cancelled') return { kind: 'checkout-cancelled' };
  if (returned !== 'checkout-success') return null;
  if (confirmed) return { kind: 'confirmed', planName: confirmed.planName };
  if (checkout === 'done') return { kind: 'confirmed', planName };
  return checkout === 'timed-out' ? { kind: 'timed-out' } : { kind: 'confirming' };
}

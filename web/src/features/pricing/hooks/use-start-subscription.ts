import { useQueryClient } from '@tanstack/react-query';
import type { BillingCycle } from '@tunesmith/shared/constants';
import { messages } from '@tunesmith/shared/messages';
import { useRef, useState } from 'react';
import { refusalMessage, serverMessage } from '@/lib/api-client';
import { userQueryKey } from '@/lib/auth';
import { toast } from '@/lib/toast';
import { useLeavingPage } from '@/lib/use-leaving-page';
import { useUnauthorizedHandler } from '@/lib/use-unauthorized';
import { useChangeSubscription } from '../api/change-subscription';
import {
  type AlreadySubscribed,
  alreadySubscribedOf,
  type CheckoutInput,
  type GrantEnds,
  grantEndsOf,
  useCreateCheckoutSession,
} from '../api/create-checkout-session';

/** Checkout pays for a new subscription; the portal's confirm step switches a running one. */
export type SubscriptionRoute = 'checkout' | 'portal';

const titleFor = (description: string, cycle: BillingCycle, otherwise: string) =>
  description === messages.pricing.configErrorText(cycle) ? messages.pricing.configErrorTitle : otherwise;

export interface StartSubscriptionOptions {
  /**
   * Checkout asks first: a plan the site granted is in force (granted since
   * the page was read, or another one than the person agreed to end).
   */
  onGrantEnds?: (refusal: GrantEnds, input: CheckoutInput) => void;
}

/**
 * Sends the browser to Stripe for a plan and cycle: Checkout for someone
 * without a running subscription, the portal's confirm step for someone
 * switching theirs. Starts at most one session at a time, and none once the
 * page is being left; says why when the server refuses.
 */
export function useStartSubscription({ onGrantEnds }: StartSubscriptionOptions = {}) {
  const { leaving, leave } = useLeavingPage();
  // Set before the request, so presses before the next render cannot start a second session.
  const starting = useRef(false);
  const [chosen, setChosen] = useState<CheckoutInput | null>(null);
  const [alreadySubscribed, setAlreadySubscribed] = useState<AlreadySubscribed | null>(null);
  const handleUnauthorized = useUnauthorizedHandler();
  const queryClient = useQueryClient();
  // The page's picture of the subscription was out of date: read the user again.
  const refreshUser = () => void queryClient.invalidateQueries({ queryKey: userQueryKey, exact: true });

  const follow = (url: string | undefined, failure: { title: string; description?: string }) => {
    starting.current = false;
    if (url) {
      leave(url);
      return;
    }
    toast({ ...failure, variant: 'destructive' });
  };

  const checkout = useCreateCheckoutSession({
    onSuccess: (answer) =>
      follow(answer?.url, { title: 'Checkout failed', description: 'No checkout URL received from server' }),
    onError: (error, input) => {
      starting.current = false;
      if (handleUnauthorized(error)) return;
      const refusal = alreadySubscribedOf(error);
      if (refusal) {
        setAlreadySubscribed(refusal);
        refreshUser();
        return;
      }
      const grant = grantEndsOf(error);
      if (grant && onGrantEnds) {
        refreshUser();
        onGrantEnds(grant, input);
        return;
      }
      const description = serverMessage(error, 'Failed to create checkout session');
      toast({
        title: titleFor(description, input.billingCycle, 'Checkout failed'),
        description,
        variant: 'destructive',
      });
    },
  });

  const portal = useChangeSubscription({
    onSuccess: (answer) => follow(answer?.url, { title: 'Failed to open customer portal' }),
    onError: (error, input) => {
      starting.current = false;
      if (handleUnauthorized(error)) return;
      const description = refusalMessage(error, '');
      toast({
        title: titleFor(description, input.billingCycle, 'Failed to open customer portal'),
        ...(description ? { description } : {}),
        variant: 'destructive',
      });
      // No subscription to change, or already on that plan: the server knows better than this page.
      if (description) refreshUser();
    },
  });

  const busy = checkout.isPending || portal.isPending || leaving;

  const start = (input: CheckoutInput, route: SubscriptionRoute) => {
    if (starting.current || busy) return;
    starting.current = true;
    setChosen(input);
    setAlreadySubscribed(null);
    if (route === 'portal') portal.mutate(input);
    else checkout.mutate(input);
  };

  return {
    start,
    /** A session is being made, or the browser is on its way to it. */
    busy,
    /** The plan the session is for while busy. */
    busyPlanId: busy ? chosen?.planId : undefined,
    /** Checkout's refusal of a user who already has a subscription, until the next choice. */
    alreadySubscribed,
  };
}

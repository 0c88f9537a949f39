import { BILLING_CYCLES, type BillingCycle } from '@tunesmith/shared/constants';
import { messages } from '@tunesmith/shared/messages';
import { isFreePlan, type Plan, planPriceId } from '@tunesmith/shared/plans';
import { useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { ToggleGroup, type ToggleOption } from '@/components/ui/toggle-group';
import { serverMessage } from '@/lib/api-client';
import { type User, useUser } from '@/lib/auth';
import { toast } from '@/lib/toast';
import { useLeavingPage } from '@/lib/use-leaving-page';
import { useUnauthorizedHandler } from '@/lib/use-unauthorized';
import { useCreateCheckoutSession } from '../api/create-checkout-session';
import { usePlans } from '../api/get-plans';
import { PlanCard } from './plan-card';

const cycleLabels: Record<BillingCycle, string> = { weekly: 'Weekly', monthly: 'Monthly', yearly: 'Yearly' };
const cycleOptions: ToggleOption<BillingCycle>[] = BILLING_CYCLES.map((value) => ({
  value,
  label: cycleLabels[value],
}));

/** A subscription that still runs: choosing a plan changes it (through the portal) rather than paying again. */
function hasRunningSubscription(user: User | null): boolean {
  return Boolean(
    user?.stripeSubscriptionId &&
      (user.planStatus === 'active' || user.planStatus === 'cancelled' || user.planStatus === 'inactive'),
  );
}

/**
 * The plan the user is on now: the subscribed plan while it is active or
 * cancelled (paid until the period ends); otherwise (free, expired, or a
 * failed payment) the Free plan.
 */
function currentPlanId(user: User | null, plans: readonly Plan[]): string | undefined {
  if (!user) return undefined;
  if ((user.planStatus === 'active' || user.planStatus === 'cancelled') && user.subscriptionPlanId) {
    return user.subscriptionPlanId;
  }
  return plans.find((plan) => isFreePlan(plan))?.id;
}

function PlansSkeleton() {
  return (
    <div aria-busy="true" className="grid gap-8 md:grid-cols-3">
      <span className="sr-only" role="status">
        Loading plans
      </span>
      {[0, 1, 2].map((i) => (
        <Card key={i} className="flex flex-col gap-4 p-6">
          <Skeleton className="h-7 w-24" />
          <Skeleton className="h-4 w-3/4" />
          <Skeleton className="h-10 w-32" />
          <Skeleton className="h-4 w-full" />
          <Skeleton className="h-4 w-5/6" />
          <Skeleton className="h-4 w-2/3" />
          <Skeleton className="mt-4 h-12 w-full" />
        </Card>
      ))}
    </div>
  );
}

/** The billing cycle toggle and one card per plan, with what choosing a plan does. */
export function PricingPlans() {
  const plans = usePlans();
  const { user } = useUser();
  const subscribed = hasRunningSubscription(user);
  // A subscriber first sees the cycle they pay by, so their plan reads Current Plan.
  const [cycle, setCycle] = useState<BillingCycle>(() =>
    subscribed && user?.billingCycle ? user.billingCycle : 'monthly',
  );
  // Once the server has given an address the page is being left, so nothing may start again.
  const { leaving, leave } = useLeavingPage();
  const starting = useRef(false);
  const navigate = useNavigate();
  const handleUnauthorized = useUnauthorizedHandler();

  const checkout = useCreateCheckoutSession({
    onSuccess: (answer) => {
      // Checkout for a new subscription, the portal for a running one: the browser goes to either.
      if (answer?.url) {
        starting.current = false;
        leave(answer.url);
        return;
      }
      starting.current = false;
      toast({
        title: 'Checkout failed',
        description: 'No checkout URL received from server',
        variant: 'destructive',
      });
    },
    onError: (error, input) => {
      starting.current = false;
      if (handleUnauthorized(error)) return;
      const description = serverMessage(error, 'Failed to create checkout session');
      toast({
        title:
          description === messages.pricing.configErrorText(input.billingCycle)
            ? messages.pricing.configErrorTitle
            : 'Checkout failed',
        description,
        variant: 'destructive',
      });
    },
  });

  const current = currentPlanId(user, plans.data ?? []);
  const isCurrent = (plan: Plan) =>
    plan.id === current && (isFreePlan(plan) || !user?.billingCycle || user.billingCycle === cycle);
  const busy = checkout.isPending || leaving;

  const choose = (plan: Plan) => {
    if (!user) {
      navigate('/auth');
      return;
    }
    if (isCurrent(plan) || starting.current || busy) return;
    if (isFreePlan(plan)) {
      // Leaving a paid plan is a cancellation, which the profile offers.
      navigate(current && current !== plan.id ? '/profile' : '/');
      return;
    }
    if (!planPriceId(plan, cycle)) {
      toast({
        title: messages.pricing.configErrorTitle,
        description: messages.pricing.configErrorText(cycle),
        variant: 'destructive',
      });
      return;
    }
    starting.current = true;
    checkout.mutate({ planId: plan.id, billingCycle: cycle });
  };

  const actionLabel = (plan: Plan) => {
    if (isCurrent(plan)) return 'Current Plan';
    if (busy && checkout.variables?.planId === plan.id) return 'Redirecting...';
    if (isFreePlan(plan)) return user && current !== plan.id ? 'Switch to Free' : 'Start for Free';
    if (!subscribed) return `Choose ${plan.name}`;
    if (plan.id === user?.subscriptionPlanId) {
      // Their own plan: a failed payment to put right, or another billing cycle.
      return user?.planStatus === 'inactive' ? `Reactivate ${plan.name}` : `Switch to ${cycleLabels[cycle]}`;
    }
    return `Switch to ${plan.name}`;
  };

  return (
    <div className="flex flex-col items-center gap-12">
      <ToggleGroup label="Billing cycle" options={cycleOptions} value={cycle} onChange={setCycle} />
      <div className="w-full">
        {plans.isPending ? (
          <PlansSkeleton />
        ) : plans.isError ? (
          <div role="alert" className="mx-auto flex max-w-md flex-col items-center gap-4 text-center">
            <p className="text-lg font-semibold text-white">We couldn't load the plans.</p>
            <p className="text-zinc-300">Please check your connection and try again.</p>
            <Button variant="outline" onClick={() => plans.refetch()}>
              Try again
            </Button>
          </div>
        ) : plans.data.length === 0 ? (
          <p className="text-center text-zinc-300">
            No plans are available right now. Please check back soon.
          </p>
        ) : (
          <ul className="grid gap-8 md:grid-cols-3">
            {plans.data.map((plan) => (
              <li key={plan.id}>
                <PlanCard
                  plan={plan}
                  cycle={cycle}
                  actionLabel={actionLabel(plan)}
                  actionDisabled={isCurrent(plan) || busy}
                  actionBusy={busy && checkout.variables?.planId === plan.id}
                  onChoose={choose}
                />
              </li>
            ))}
          </ul>
        )}
      </div>
    </div>
  );
}

import { BILLING_CYCLES, type BillingCycle } from '@tunesmith/shared/constants';
import { messages } from '@tunesmith/shared/messages';
import { isFreePlan, type Plan, planPriceId } from '@tunesmith/shared/plans';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { ToggleGroup, type ToggleOption } from '@/components/ui/toggle-group';
import { serverMessage } from '@/lib/api-client';
import { type User, useUser } from '@/lib/auth';
import { toast } from '@/lib/toast';
import { useUnauthorizedHandler } from '@/lib/use-unauthorized';
import { useCreateCheckoutSession } from '../api/create-checkout-session';
import { usePlans } from '../api/get-plans';
import { PlanCard } from './plan-card';

const cycleLabels: Record<BillingCycle, string> = { weekly: 'Weekly', monthly: 'Monthly', yearly: 'Yearly' };
const cycleOptions: ToggleOption<BillingCycle>[] = BILLING_CYCLES.map((value) => ({
  value,
  label: cycleLabels[value],
}));

function isCurrentPlan(user: User | null, plan: Plan) {
  return Boolean(user && user.planStatus === 'active' && user.subscriptionPlanId === plan.id);
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
  const [cycle, setCycle] = useState<BillingCycle>('monthly');
  const plans = usePlans();
  const { user } = useUser();
  const navigate = useNavigate();
  const handleUnauthorized = useUnauthorizedHandler();

  const checkout = useCreateCheckoutSession({
    onSuccess: ({ url }) => {
      if (url) window.location.assign(url);
      else
        toast({
          title: 'Checkout failed',
          description: 'No checkout URL received from server',
          variant: 'destructive',
        });
    },
    onError: (error) => {
      if (handleUnauthorized(error)) return;
      toast({
        title: 'Checkout failed',
        description: serverMessage(error, 'Failed to create checkout session'),
        variant: 'destructive',
      });
    },
  });

  const choose = (plan: Plan) => {
    if (!user) {
      navigate('/auth');
      return;
    }
    if (isFreePlan(plan)) {
      navigate('/');
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
    checkout.mutate({ planId: plan.id, billingCycle: cycle });
  };

  const actionLabel = (plan: Plan) => {
    if (isCurrentPlan(user, plan)) return 'Current Plan';
    if (checkout.isPending && checkout.variables?.planId === plan.id) return 'Redirecting...';
    return isFreePlan(plan) ? 'Start for Free' : `Choose ${plan.name}`;
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
                  actionDisabled={isCurrentPlan(user, plan) || checkout.isPending}
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

import { useQuery } from '@tanstack/react-query';
import type { BillingCycle } from '@tunesmith/shared/constants';
import { isFreePlan, planPrice } from '@tunesmith/shared/plan-values';
import { formatPrice } from '@/lib/format';
import { plansQueryOptions } from '@/lib/plans';
import { subscribeIntentOf } from '@/lib/subscribe-intent';

const cycleUnit: Record<BillingCycle, string> = { weekly: 'week', monthly: 'month', yearly: 'year' };

/**
 * What the visitor was subscribing to when Pricing sent them here: the plan,
 * the cycle and its price, from the plan list. Nothing when `next` is not a
 * plan chosen on Pricing, or names no paid plan.
 */
export function SubscribeIntentLine({ next }: { next: string | null | undefined }) {
  const intent = subscribeIntentOf(next);
  const plans = useQuery({ ...plansQueryOptions(), enabled: intent !== null });
  const plan = intent ? plans.data?.find((candidate) => candidate.id === intent.planId) : undefined;
  if (!intent || !plan || isFreePlan(plan)) return null;
  const price = `${formatPrice(planPrice(plan, intent.cycle))}/${cycleUnit[intent.cycle]}`;
  return (
    <p className="mt-4 rounded-xl border border-fuchsia-400/40 bg-fuchsia-500/10 px-4 py-3 text-sm text-fuchsia-50">
      Sign in or create an account to subscribe to {plan.name}, billed {intent.cycle} ({price}).
    </p>
  );
}

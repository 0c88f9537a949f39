import type { BillingCycle } from '@tunesmith/shared/constants';
import {
  isFreePlan,
  isPopularPlan,
  planCardFeatures,
  planPrice,
  planSavingsPercent,
  planTagline,
} from '@tunesmith/shared/plan-values';
import type { Plan } from '@tunesmith/shared/plans';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardFooter, CardHeader } from '@/components/ui/card';
import { Icon } from '@/components/ui/icon';
import { cn } from '@/lib/cn';
import { formatPrice } from '@/lib/format';

const cycleUnit: Record<BillingCycle, string> = { weekly: 'week', monthly: 'month', yearly: 'year' };
const cycleLabels: Record<BillingCycle, string> = { weekly: 'Weekly', monthly: 'Monthly', yearly: 'Yearly' };

export interface PlanCardProps {
  plan: Plan;
  cycle: BillingCycle;
  /**
   * Whether the plan can be chosen on this cycle. A paid plan without a Stripe
   * price for it says it is not offered, with no button that would fail.
   * @default true
   */
  offered?: boolean;
  /** A cycle the plan is offered on, shown to the reader when this one is not. */
  otherCycle?: BillingCycle;
  onShowCycle?: (cycle: BillingCycle) => void;
  actionLabel: string;
  /** Said instead of the action when there is nothing to do on this plan (a granted plan has nothing to cancel). */
  actionNote?: string;
  actionDisabled?: boolean;
  /** The action has started (the browser is about to leave for Stripe). */
  actionBusy?: boolean;
  onChoose: (plan: Plan) => void;
}

export function PlanCard({
  plan,
  cycle,
  offered = true,
  otherCycle,
  onShowCycle,
  actionLabel,
  actionNote,
  actionDisabled,
  actionBusy,
  onChoose,
}: PlanCardProps) {
  const free = isFreePlan(plan);
  const popular = isPopularPlan(plan);
  const savings = free || !offered ? null : planSavingsPercent(plan, cycle);
  const tagline = planTagline(plan.description);
  const features = planCardFeatures(plan);
  const headingId = `plan-${plan.id}`;

  return (
    <article aria-labelledby={headingId} className="h-full">
      <Card
        className={cn(
          'relative flex h-full flex-col',
          popular && 'border-fuchsia-500/70 ring-1 ring-fuchsia-500/50',
        )}
      >
        {popular ? (
          <Badge className="absolute -top-3 left-1/2 -translate-x-1/2 shadow-lg">Most Popular</Badge>
        ) : null}
        <CardHeader>
          <h2 id={headingId} className="text-2xl font-bold text-white">
            {plan.name}
          </h2>
          {tagline ? <p className="text-sm text-zinc-300">{tagline}</p> : null}
        </CardHeader>
        <CardContent className="flex flex-col gap-6">
          <div>
            <p className="flex items-baseline gap-1">
              {free ? (
                <span className="text-4xl font-extrabold text-white">Free</span>
              ) : !offered ? (
                <span className="text-lg font-semibold text-zinc-300">Not offered on {cycle} billing</span>
              ) : (
                <>
                  <span className="text-4xl font-extrabold text-white">
                    {formatPrice(planPrice(plan, cycle))}
                  </span>
                  <span className="text-zinc-400">/{cycleUnit[cycle]}</span>
                </>
              )}
            </p>
            <p className="mt-2 min-h-6 text-sm">
              {savings ? (
                <span className="rounded-full bg-emerald-500/15 px-2.5 py-0.5 font-medium text-emerald-300">
                  Save {savings}%
                </span>
              ) : null}
            </p>
          </div>
          <ul className="grid gap-3" aria-label={`${plan.name} features`}>
            {features.map((feature) => (
              <li key={feature} className="flex items-start gap-2 text-sm text-zinc-200">
                <Icon
                  className="mt-0.5 size-4 shrink-0 text-fuchsia-400"
                  strokeWidth="3"
                  d="M5 13l4 4L19 7"
                />
                {feature}
              </li>
            ))}
          </ul>
        </CardContent>
        <CardFooter>
          {actionNote ? (
            <p className="w-full text-center text-sm text-zinc-300">{actionNote}</p>
          ) : offered ? (
            <Button
              className="w-full"
              size="lg"
              variant={popular ? 'primary' : 'secondary'}
              disabled={actionDisabled}
              aria-busy={actionBusy || undefined}
              aria-describedby={headingId}
              onClick={() => onChoose(plan)}
            >
              {actionLabel}
            </Button>
          ) : otherCycle && onShowCycle ? (
            <Button
              className="w-full"
              size="lg"
              variant="outline"
              aria-describedby={headingId}
              onClick={() => onShowCycle(otherCycle)}
            >
              See {cycleLabels[otherCycle]} Prices
            </Button>
          ) : null}
        </CardFooter>
      </Card>
    </article>
  );
}

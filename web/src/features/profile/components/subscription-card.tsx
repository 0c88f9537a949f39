import { isFreePlan, type Plan } from '@tunesmith/shared/plans';
import { useId, useState } from 'react';
import { Link } from 'react-router';
import { Button, buttonClasses } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { Dialog } from '@/components/ui/dialog';
import { Skeleton } from '@/components/ui/skeleton';
import { serverMessage } from '@/lib/api-client';
import type { User } from '@/lib/auth';
import { cn } from '@/lib/cn';
import { formatDate } from '@/lib/format';
import { toast } from '@/lib/toast';
import { useUnauthorizedHandler } from '@/lib/use-unauthorized';
import { useCancelSubscription } from '../api/cancel-subscription';
import { useCreatePortalSession } from '../api/create-portal-session';

/** Plan quota when the plan list is unavailable: the Free plan's 5 a week. */
const DEFAULT_MAX_GENERATIONS = 5;

export type SubscriptionStatus = 'Active' | 'Cancelled' | 'Inactive';

/**
 * The status badge (spec 1 section 4): a paid plan is Active when planStatus
 * is active and the plan is not Free; Cancelled when cancelled; otherwise Inactive.
 */
export function subscriptionStatus(user: User, plan: Plan | undefined): SubscriptionStatus {
  if (user.planStatus === 'active' && plan && !isFreePlan(plan)) return 'Active';
  if (user.planStatus === 'cancelled') return 'Cancelled';
  return 'Inactive';
}

const badgeClasses: Record<SubscriptionStatus, string> = {
  Active: 'bg-emerald-500/15 text-emerald-300 ring-emerald-400/40',
  Cancelled: 'bg-amber-500/15 text-amber-300 ring-amber-400/40',
  Inactive: 'bg-zinc-500/15 text-zinc-300 ring-zinc-400/40',
};

export interface SubscriptionCardProps {
  user: User;
  plans: Plan[] | undefined;
  plansLoading: boolean;
}

/** The current plan, its status, this week's usage and the billing actions. */
export function SubscriptionCard({ user, plans, plansLoading }: SubscriptionCardProps) {
  const [confirmOpen, setConfirmOpen] = useState(false);
  const usageLabelId = useId();
  const handleUnauthorized = useUnauthorizedHandler();
  const plan = plans?.find((p) => p.id === user.subscriptionPlanId);
  const freePlan = plans?.find((p) => isFreePlan(p));
  const status = subscriptionStatus(user, plan);
  const planName = plan?.name ?? 'Free';
  const used = user.generationsUsedThisMonth ?? 0;
  const max = plan?.maxGenerations ?? freePlan?.maxGenerations ?? DEFAULT_MAX_GENERATIONS;
  const hasSubscription = Boolean(user.stripeSubscriptionId);
  const endDate = user.planEndDate ? formatDate(user.planEndDate) : '';

  const portal = useCreatePortalSession({
    onSuccess: ({ url }) => {
      if (url) window.location.assign(url);
      else toast({ title: 'Failed to open customer portal', variant: 'destructive' });
    },
    onError: (error) => {
      if (handleUnauthorized(error)) return;
      toast({
        title: 'Failed to open customer portal',
        description: serverMessage(error, 'Please try again.'),
        variant: 'destructive',
      });
    },
  });

  const cancel = useCancelSubscription({
    onSuccess: () => {
      setConfirmOpen(false);
      toast({
        title: 'Subscription Cancelled',
        description: 'Your plan stays active until the end of the current billing period.',
      });
    },
    onError: (error) => {
      setConfirmOpen(false);
      if (handleUnauthorized(error)) return;
      toast({
        title: 'Failed to cancel subscription',
        description: serverMessage(error, 'Please try again.'),
        variant: 'destructive',
      });
    },
  });

  return (
    <Card>
      <div className="flex items-start justify-between gap-4 p-6">
        <div>
          <h2 className="text-xl font-semibold text-white">Current Subscription</h2>
          <p className="text-sm text-zinc-400">Your plan and this week's usage.</p>
        </div>
        <span
          className={cn(
            'inline-flex items-center rounded-full px-3 py-1 text-xs font-semibold ring-1',
            badgeClasses[status],
          )}
        >
          {status}
        </span>
      </div>
      <CardContent className="grid gap-5">
        {plansLoading ? (
          <div className="grid gap-3" aria-busy="true">
            <Skeleton className="h-6 w-32" />
            <Skeleton className="h-3 w-full" />
          </div>
        ) : (
          <>
            <dl className="grid gap-1">
              <dt className="text-sm text-zinc-400">Plan</dt>
              <dd className="text-2xl font-bold text-white">{planName}</dd>
              {status === 'Cancelled' && endDate ? (
                <dd className="text-sm text-amber-200">Access until {endDate}</dd>
              ) : null}
            </dl>
            <div className="grid gap-2">
              <div className="flex items-baseline justify-between gap-2 text-sm">
                <span id={usageLabelId} className="text-zinc-300">
                  Generations used this week
                </span>
                <span className="font-semibold text-white">
                  {used} / {max}
                </span>
              </div>
              <div
                role="progressbar"
                aria-labelledby={usageLabelId}
                aria-valuemin={0}
                aria-valuemax={max}
                aria-valuenow={Math.min(used, max)}
                aria-valuetext={`${used} of ${max}`}
                className="h-2 overflow-hidden rounded-full bg-white/10"
              >
                <div
                  className="h-full rounded-full bg-gradient-to-r from-violet-500 to-fuchsia-500"
                  style={{ width: `${max > 0 ? Math.min(100, (used / max) * 100) : 0}%` }}
                />
              </div>
              <p className="text-xs text-zinc-400">Resets weekly</p>
            </div>
          </>
        )}
        <div className="flex flex-wrap gap-3">
          {hasSubscription ? (
            <>
              <Button variant="outline" disabled={portal.isPending} onClick={() => portal.mutate()}>
                {portal.isPending ? 'Opening...' : 'Manage Billing'}
              </Button>
              {user.planStatus !== 'cancelled' ? (
                <Button variant="destructive" onClick={() => setConfirmOpen(true)}>
                  Cancel Subscription
                </Button>
              ) : null}
            </>
          ) : (
            <Link to="/pricing" className={buttonClasses('primary')}>
              Upgrade Plan
            </Link>
          )}
        </div>
      </CardContent>
      <Dialog
        open={confirmOpen}
        onClose={() => setConfirmOpen(false)}
        role="alertdialog"
        title="Cancel your subscription?"
        description="Your plan stays active until the end of the current billing period. After that your account returns to the Free plan."
      >
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <Button variant="outline" onClick={() => setConfirmOpen(false)}>
            Keep Subscription
          </Button>
          <Button variant="destructive" disabled={cancel.isPending} onClick={() => cancel.mutate()}>
            {cancel.isPending ? 'Cancelling...' : 'Yes, Cancel Subscription'}
          </Button>
        </div>
      </Dialog>
    </Card>
  );
}

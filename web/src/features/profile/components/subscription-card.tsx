import type { BillingCycle } from '@tunesmith/shared/constants';
import { useEffect, useId, useRef, useState } from 'react';
import { Link } from 'react-router';
import { Button, buttonClasses } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { Dialog } from '@/components/ui/dialog';
import { Skeleton } from '@/components/ui/skeleton';
import { serverMessage } from '@/lib/api-client';
import type { User } from '@/lib/auth';
import { cn } from '@/lib/cn';
import { formatDate, formatWeekdayDate } from '@/lib/format';
import { toast } from '@/lib/toast';
import { useLeavingPage } from '@/lib/use-leaving-page';
import { useUnauthorizedHandler } from '@/lib/use-unauthorized';
import { useCancelSubscription } from '../api/cancel-subscription';
import { useCreatePortalSession } from '../api/create-portal-session';
import { usePollCurrentUser } from '../hooks/use-poll-current-user';

/** The Free plan's weekly quota (the Terms), when the server has not said. */
const FREE_WEEKLY_LIMIT = 5;
/** After a cancel, Stripe's webhook records it within moments: reload the user until it shows. */
export const CANCEL_POLL_INTERVAL_MS = 1000;
export const CANCEL_POLL_TIMEOUT_MS = 10_000;

export type SubscriptionBadge = 'Active' | 'Cancelled' | 'Inactive' | 'Free';

/**
 * The status badge (spec 1 section 4): Active for a paid plan in force,
 * Cancelled when it ends at the period's end, Inactive when a payment failed;
 * a user on the free plan (never subscribed, or whose paid plan ended) is Free.
 */
export function subscriptionBadge(user: Pick<User, 'planStatus' | 'entitlements'>): SubscriptionBadge {
  switch (user.planStatus) {
    case 'active':
      return user.entitlements?.paid ? 'Active' : 'Free';
    case 'cancelled':
      return 'Cancelled';
    case 'inactive':
      return 'Inactive';
    default:
      return 'Free';
  }
}

const badgeClasses: Record<SubscriptionBadge, string> = {
  Active: 'bg-emerald-500/15 text-emerald-300 ring-emerald-400/40',
  Cancelled: 'bg-amber-500/15 text-amber-300 ring-amber-400/40',
  Inactive: 'bg-red-500/15 text-red-300 ring-red-400/40',
  Free: 'bg-zinc-500/15 text-zinc-300 ring-zinc-400/40',
};

const billedLabel: Record<BillingCycle, string> = {
  weekly: 'Billed weekly',
  monthly: 'Billed monthly',
  yearly: 'Billed yearly',
};

/** Said of a plan an administrator gave: there is no subscription to manage or cancel. */
export const GRANTED_BY_SITE = 'Granted by the site: nothing is billed for this plan.';
/** What paying does to it (decision 037): Pricing asks before it ends. */
export const GRANT_ENDS_WHEN_PAID = 'Paying for a plan on Pricing ends this grant.';
/** What Billing History is for, beside its button: there is no subscription left to manage. */
export const BILLING_HISTORY_NOTE = 'Billing History lists the invoices of your earlier subscription.';

/** The lines under the plan name that say where the subscription stands. */
function periodLines(user: User, planName: string): string[] {
  const endDate = user.planEndDate ? formatDate(user.planEndDate) : '';
  if (user.planGrantedBySite && user.entitlements?.paid !== false) {
    return [GRANTED_BY_SITE, ...(endDate ? [`Ends on ${endDate}`] : []), GRANT_ENDS_WHEN_PAID];
  }
  switch (user.planStatus) {
    case 'active':
      return endDate ? [`Renews on ${endDate}`] : [];
    case 'cancelled':
      if (user.entitlements?.paid === false) {
        return [
          endDate ? `Ended on ${endDate}` : 'Your paid plan has ended.',
          'You are on the Free plan now.',
        ];
      }
      return [
        endDate ? `Ends on ${endDate}` : 'Ends at the end of the billing period',
        `You keep ${planName} until then. After that your account returns to the Free plan.`,
      ];
    case 'inactive':
      return [
        `Your last payment failed, so your account has the Free plan's limits for now. Update your card in Manage Billing to restore ${planName}.`,
      ];
    case 'expired':
      return [
        endDate
          ? `Your paid plan ended on ${endDate}. You are on the Free plan.`
          : 'Your paid plan has ended. You are on the Free plan.',
      ];
    default:
      return [];
  }
}

export interface SubscriptionCardProps {
  user: User;
  /**
   * The plan is being confirmed after Checkout: what the server has now may be
   * out of date (still Free), so the card waits instead of showing it.
   */
  confirming?: boolean;
}

/** The current plan, its status, this week's usage and the billing actions. */
export function SubscriptionCard({ user, confirming = false }: SubscriptionCardProps) {
  const [confirmOpen, setConfirmOpen] = useState(false);
  const [cancelRequested, setCancelRequested] = useState(false);
  const { leaving, leave } = useLeavingPage();
  const usageLabelId = useId();
  const headingId = useId();
  const historyNoteId = useId();
  const keepButton = useRef<HTMLButtonElement>(null);
  const handleUnauthorized = useUnauthorizedHandler();

  const status = user.planStatus ?? 'free';
  const badge = subscriptionBadge(user);
  const planName = user.planName ?? 'Free';
  const used = user.generationsUsedThisMonth ?? 0;
  const limit = user.entitlements?.weeklyLimit ?? FREE_WEEKLY_LIMIT;
  const subscribed = status === 'active' || status === 'cancelled' || status === 'inactive';
  const billed =
    subscribed && user.billingCycle && !user.planGrantedBySite ? billedLabel[user.billingCycle] : null;
  const endDate = user.planEndDate ? formatDate(user.planEndDate) : '';
  const resetsOn = user.quotaResetsAt ? formatWeekdayDate(user.quotaResetsAt) : '';
  // Manage Billing is for a running subscription; without one the portal has only past invoices to show,
  // so it is offered as Billing History, and only to someone who had a subscription (a plan granted by the
  // site, or a Checkout left unpaid, leaves nothing there).
  const manages = Boolean(user.stripeSubscriptionId) && subscribed;
  const history = !manages && user.hasBillingHistory === true;
  const canCancel = Boolean(user.stripeSubscriptionId) && (status === 'active' || status === 'inactive');
  const onFreePlan = status === 'free' || status === 'expired';
  const granted = user.planGrantedBySite === true && user.entitlements?.paid !== false;

  const cancelPoll = usePollCurrentUser({
    active: cancelRequested,
    // Cancelled at the period end, or (an unpaid subscription) ended at once.
    until: (current) => current?.planStatus === 'cancelled' || current?.planStatus === 'expired',
    intervalMs: CANCEL_POLL_INTERVAL_MS,
    timeoutMs: CANCEL_POLL_TIMEOUT_MS,
  });
  const awaitingCancel = cancelPoll === 'polling';
  useEffect(() => {
    // Shown, or given up on: a later change of status starts no new wait.
    if (cancelPoll === 'done' || cancelPoll === 'timed-out') setCancelRequested(false);
  }, [cancelPoll]);

  const portal = useCreatePortalSession({
    onSuccess: ({ url }) => {
      if (url) {
        leave(url);
      } else {
        toast({ title: 'Failed to open customer portal', variant: 'destructive' });
      }
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
    onSuccess: (answer) => {
      setConfirmOpen(false);
      setCancelRequested(true);
      toast({
        title: 'Subscription Cancelled',
        description:
          answer.message ||
          `Your plan stays active until ${endDate || 'the end of the current billing period'}.`,
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

  const when = endDate
    ? `on ${endDate}, the end of the current billing period`
    : 'at the end of the current billing period';
  const cancelDescription =
    status === 'inactive'
      ? 'Your last payment failed, so there is no paid period left: your subscription ends now, nothing more is charged, and your account stays on the Free plan.'
      : `Cancellation takes effect ${when}. You keep ${planName} until then; after that your account returns to the Free plan.`;

  return (
    <Card role="region" aria-labelledby={headingId} aria-busy={confirming || undefined}>
      <div className="flex items-start justify-between gap-4 p-6">
        <div>
          <h2 id={headingId} className="text-xl font-semibold text-white">
            Current Subscription
          </h2>
          <p className="text-sm text-zinc-400">Your plan and this week's usage.</p>
        </div>
        {confirming ? (
          <Skeleton className="h-6 w-16 rounded-full" />
        ) : (
          <span
            className={cn(
              'inline-flex items-center rounded-full px-3 py-1 text-xs font-semibold ring-1',
              badgeClasses[badge],
            )}
          >
            {badge}
          </span>
        )}
      </div>
      {confirming ? (
        <CardContent className="grid gap-3">
          <p className="sr-only">Your subscription is being updated.</p>
          <Skeleton className="h-4 w-12" />
          <Skeleton className="h-8 w-32" />
          <Skeleton className="h-4 w-40" />
          <Skeleton className="mt-2 h-3 w-full" />
          <Skeleton className="h-4 w-36" />
        </CardContent>
      ) : (
        <CardContent className="grid gap-5">
          <div className="grid gap-1">
            <p className="text-sm text-zinc-400">Plan</p>
            <p className="text-2xl font-bold text-white">{planName}</p>
            {billed ? <p className="text-sm text-zinc-300">{billed}</p> : null}
            {periodLines(user, planName).map((line) => (
              <p
                key={line}
                className={cn(
                  'text-sm',
                  status === 'active'
                    ? 'text-zinc-300'
                    : status === 'inactive'
                      ? 'text-red-200'
                      : 'text-amber-200',
                )}
              >
                {line}
              </p>
            ))}
          </div>
          <div className="grid gap-2">
            <div className="flex items-baseline justify-between gap-2 text-sm">
              <span id={usageLabelId} className="text-zinc-300">
                Generations used this week
              </span>
              <span className="font-semibold text-white">
                {used} / {limit}
              </span>
            </div>
            <div
              role="progressbar"
              aria-labelledby={usageLabelId}
              aria-valuemin={0}
              aria-valuemax={limit}
              aria-valuenow={Math.min(used, limit)}
              aria-valuetext={`${used} of ${limit}`}
              className="h-2 overflow-hidden rounded-full bg-white/10"
            >
              <div
                className="h-full rounded-full bg-gradient-to-r from-violet-500 to-fuchsia-500"
                style={{ width: `${limit > 0 ? Math.min(100, (used / limit) * 100) : 0}%` }}
              />
            </div>
            <p className="text-xs text-zinc-400">{resetsOn ? `Resets on ${resetsOn}` : 'Resets weekly'}</p>
          </div>
          <div className="flex flex-wrap gap-3">
            {onFreePlan ? (
              <Link to="/pricing" className={buttonClasses('primary')}>
                Upgrade Plan
              </Link>
            ) : null}
            {granted ? (
              <Link to="/pricing" className={buttonClasses('outline')}>
                See Plans
              </Link>
            ) : null}
            {manages || history ? (
              <Button
                variant="outline"
                disabled={portal.isPending || leaving}
                onClick={() => portal.mutate()}
                {...(history ? { 'aria-describedby': historyNoteId } : {})}
              >
                {portal.isPending || leaving ? 'Opening...' : manages ? 'Manage Billing' : 'Billing History'}
              </Button>
            ) : null}
            {canCancel ? (
              <Button variant="destructive" disabled={awaitingCancel} onClick={() => setConfirmOpen(true)}>
                {awaitingCancel ? 'Cancelling...' : 'Cancel Subscription'}
              </Button>
            ) : null}
          </div>
          {history ? (
            <p id={historyNoteId} className="-mt-2 text-xs text-zinc-400">
              {BILLING_HISTORY_NOTE}
            </p>
          ) : null}
        </CardContent>
      )}
      <Dialog
        open={confirmOpen}
        onClose={() => {
          if (!cancel.isPending) setConfirmOpen(false);
        }}
        role="alertdialog"
        title="Cancel your subscription?"
        description={cancelDescription}
        initialFocus={keepButton}
      >
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <Button
            ref={keepButton}
            variant="outline"
            disabled={cancel.isPending}
            onClick={() => setConfirmOpen(false)}
          >
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

import { useEffect, useRef } from 'react';
import type { User } from '@/lib/auth';
import { cn } from '@/lib/cn';
import { formatDate } from '@/lib/format';
import { useSite } from '@/lib/site';
import type { BillingReturnNotice as Notice } from '../hooks/use-billing-return';

/**
 * How to get to the Free plan from where the user is (Pricing's "Switch to
 * Free" brought them here): a subscription is cancelled on this page, a plan
 * the site granted has nothing to cancel.
 */
function switchToFree(user: User, siteName: string): string {
  const plan = user.planName ?? 'your plan';
  const until = user.planEndDate ? formatDate(user.planEndDate) : '';
  const paid = user.entitlements?.paid === true;
  if (user.planGrantedBySite && paid) {
    return `Your ${plan} plan was granted by ${siteName} at no charge: there is nothing to cancel.${until ? ` You return to Free on ${until}.` : ''}`;
  }
  if (!user.stripeSubscriptionId) return 'You are on the Free plan.';
  if (user.planStatus === 'inactive') {
    return 'To switch to Free, cancel your subscription below: it ends now, and nothing more is charged.';
  }
  const keep = `you keep ${plan} until ${until || 'the end of the period you paid for'}, then your account returns to the Free plan.`;
  return user.planStatus === 'cancelled'
    ? `Your subscription is already cancelled: ${keep}`
    : `To switch to Free, cancel your subscription below: ${keep}`;
}

export const billingReturnMessages = {
  confirming: 'Confirming your payment...',
  confirmed: (planName: string | null) => `Payment confirmed. You're on ${planName ?? 'your new plan'}.`,
  timedOut:
    "We haven't received confirmation from Stripe yet. Your payment may still be processing — refresh this page in a minute.",
  checkoutCancelled: 'Checkout cancelled. You have not been charged.',
  switchToFree,
} as const;

const tone = {
  info: 'border-violet-400/40 bg-violet-500/10 text-violet-100',
  success: 'border-emerald-400/40 bg-emerald-500/10 text-emerald-100',
  warning: 'border-amber-400/40 bg-amber-500/10 text-amber-100',
} as const;

const banner = 'mb-6 flex items-center gap-3 rounded-xl border px-4 py-3 text-sm focus:outline-none';

/**
 * What the profile says after Stripe sends the browser back: a live status
 * while the payment is confirmed (the same element, so the change to
 * "confirmed" is announced), an alert when confirmation is late. The notice
 * takes focus when it appears, so the reader starts there and a screen reader
 * reads it.
 */
export function BillingReturnNotice({ notice, user }: { notice: Notice; user: User }) {
  const ref = useRef<HTMLDivElement>(null);
  const { site } = useSite();
  // The status and the alert are different elements: each takes focus as it appears.
  const element = !notice ? null : notice.kind === 'timed-out' ? 'alert' : 'status';
  useEffect(() => {
    if (element) ref.current?.focus();
  }, [element]);

  if (!notice) return null;
  if (notice.kind === 'timed-out') {
    return (
      <div ref={ref} role="alert" tabIndex={-1} className={cn(banner, tone.warning)}>
        {billingReturnMessages.timedOut}
      </div>
    );
  }
  const [text, look] =
    notice.kind === 'confirming'
      ? [billingReturnMessages.confirming, tone.info]
      : notice.kind === 'confirmed'
        ? [billingReturnMessages.confirmed(notice.planName), tone.success]
        : notice.kind === 'switch-to-free'
          ? [billingReturnMessages.switchToFree(user, site.name), tone.info]
          : [billingReturnMessages.checkoutCancelled, tone.info];
  return (
    <div ref={ref} role="status" tabIndex={-1} className={cn(banner, look)}>
      {notice.kind === 'confirming' ? (
        <span
          aria-hidden="true"
          className="size-4 shrink-0 animate-spin rounded-full border-2 border-white/20 border-t-violet-300 motion-reduce:animate-none"
        />
      ) : null}
      <span>{text}</span>
    </div>
  );
}

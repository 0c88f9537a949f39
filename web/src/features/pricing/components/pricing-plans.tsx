import { BILLING_CYCLES, type BillingCycle, SWITCH_TO_FREE_PATH } from '@tunesmith/shared/constants';
import { grantEndsNotice, isFreePlan, type PlanTerms } from '@tunesmith/shared/plan-values';
import type { Plan } from '@tunesmith/shared/plans';
import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { Button, buttonClasses } from '@/components/ui/button';
import { ToggleGroup, type ToggleOption } from '@/components/ui/toggle-group';
import { type User, useUser } from '@/lib/auth';
import { formatDate } from '@/lib/format';
import { signInPath } from '@/lib/return-path';
import { useSite } from '@/lib/site';
import { readSubscribeIntent, subscribeIntentPath, withoutSubscribeIntent } from '@/lib/subscribe-intent';
import type { AlreadySubscribed, CheckoutInput } from '../api/create-checkout-session';
import { usePlans } from '../api/get-plans';
import { useStartSubscription } from '../hooks/use-start-subscription';
import { offeredCycles, planOffersCycle, shownCycle } from '../utils/offered-cycles';
import { GrantEndsDialog, type GrantEndsQuestion } from './grant-ends-dialog';
import { PlanCard } from './plan-card';
import { PlansSkeleton } from './plans-skeleton';

const cycleLabels: Record<BillingCycle, string> = { weekly: 'Weekly', monthly: 'Monthly', yearly: 'Yearly' };

/** A subscription that still runs: choosing a plan changes it (through the portal) rather than paying again. */
function hasRunningSubscription(user: User | null): boolean {
  return Boolean(
    user?.stripeSubscriptionId &&
      (user.planStatus === 'active' || user.planStatus === 'cancelled' || user.planStatus === 'inactive'),
  );
}

/**
 * The plan the user is on now: the subscribed (or granted) plan while it
 * gives its paid use, as the server says (active, or cancelled until the
 * period ends); otherwise (free, expired, a failed payment, or a grant that
 * ended) the Free plan.
 */
function currentPlanId(user: User | null, plans: readonly Plan[]): string | undefined {
  if (!user) return undefined;
  const inForce = user.entitlements
    ? user.entitlements.paid
    : user.planStatus === 'active' || user.planStatus === 'cancelled';
  if (inForce && user.subscriptionPlanId) return user.subscriptionPlanId;
  return plans.find((plan) => isFreePlan(plan))?.id;
}

/** The plan an administrator granted, while it is in force: paying for a plan ends it (decision 037). */
function grantedPlan(user: User | null, plans: readonly Plan[]): Plan | undefined {
  if (!user?.planGrantedBySite || !user.entitlements?.paid) return undefined;
  return plans.find((plan) => plan.id === user.subscriptionPlanId);
}

const termsOf = (plan: Plan): PlanTerms => ({
  name: plan.name,
  weeklyLimit: plan.maxGenerations,
  commercialUse: plan.commercialUse,
});

/** What the Free card says instead of a switch while a granted plan is in force: there is nothing to cancel. */
function grantedFreeNote(granted: Plan, siteName: string, until: string): string {
  const ends = until ? ` You return to Free on ${until}.` : '';
  return `Your ${granted.name} plan was granted by ${siteName} at no charge: there is nothing to cancel.${ends}`;
}

/** Checkout's refusal of a second subscription, with the way to the one that exists. Takes focus. */
function AlreadySubscribedNotice({ refusal }: { refusal: AlreadySubscribed }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    ref.current?.focus();
  }, []);
  return (
    <div
      ref={ref}
      role="alert"
      tabIndex={-1}
      className="mx-auto flex max-w-2xl flex-col items-center gap-3 rounded-xl border border-amber-400/40 bg-amber-500/10 px-4 py-3 text-center text-sm text-amber-100 focus:outline-none sm:flex-row sm:text-left"
    >
      <p className="flex-1">{refusal.message}</p>
      <Link to={refusal.manageUrl} className={buttonClasses('outline', 'sm', 'shrink-0')}>
        Go to Manage Billing
      </Link>
    </div>
  );
}

/** The billing cycle toggle and one card per plan, with what choosing a plan does. */
export function PricingPlans() {
  const plans = usePlans();
  const { user, isLoading: userLoading } = useUser();
  const { site } = useSite();
  const [params, setParams] = useSearchParams();
  const navigate = useNavigate();
  const subscribed = hasRunningSubscription(user);
  // A plan and cycle chosen before signing in, acted on once the person is signed in.
  const intent = readSubscribeIntent(params);
  // The chosen plan's cycle first; a subscriber first sees the cycle they pay by, so their plan reads Current Plan.
  const [wantedCycle, setCycle] = useState<BillingCycle>(
    () => intent?.cycle ?? (subscribed && user?.billingCycle ? user.billingCycle : 'monthly'),
  );
  const offered = offeredCycles(plans.data ?? []);
  const cycle = shownCycle(wantedCycle, offered);
  // Checkout's question before a granted plan ends, from this page or from the server (granted since it was read).
  const [question, setQuestion] = useState<(GrantEndsQuestion & { input: CheckoutInput }) | null>(null);
  const nameOf = (planId: string) => plans.data?.find((plan) => plan.id === planId)?.name ?? planId;
  const subscription = useStartSubscription({
    onGrantEnds: (refusal, input) =>
      setQuestion({
        grantedPlanName: refusal.grantedPlanName,
        chosenName: nameOf(input.planId),
        message: refusal.message,
        input: { ...input, endsGrantedPlan: refusal.grantedPlanId },
      }),
  });
  const { busy, busyPlanId } = subscription;

  const current = currentPlanId(user, plans.data ?? []);
  const granted = grantedPlan(user, plans.data ?? []);
  const grantUntil =
    granted && user?.planStatus === 'cancelled' && user.planEndDate ? formatDate(user.planEndDate) : '';
  const isCurrent = (plan: Plan, on: BillingCycle) =>
    plan.id === current && (isFreePlan(plan) || !user?.billingCycle || user.billingCycle === on);

  const choose = (plan: Plan, on: BillingCycle = cycle) => {
    if (!user) {
      navigate(isFreePlan(plan) ? '/auth' : signInPath(subscribeIntentPath({ planId: plan.id, cycle: on })));
      return;
    }
    if (isCurrent(plan, on) || busy) return;
    if (isFreePlan(plan)) {
      // A granted plan has nothing to cancel; leaving a paid one is a cancellation, which the profile offers.
      if (granted) return;
      navigate(current && current !== plan.id ? SWITCH_TO_FREE_PATH : '/');
      return;
    }
    if (!planOffersCycle(plan, on)) return;
    if (subscribed) {
      subscription.start({ planId: plan.id, billingCycle: on }, 'portal');
      return;
    }
    if (granted) {
      // Paying ends the grant: say what ends and ask before Stripe (the server asks too).
      setQuestion({
        grantedPlanName: granted.name,
        chosenName: plan.name,
        message: grantEndsNotice({
          siteName: site.name,
          granted: termsOf(granted),
          chosen: termsOf(plan),
          until: grantUntil,
        }),
        input: { planId: plan.id, billingCycle: on, endsGrantedPlan: granted.id },
      });
      return;
    }
    subscription.start({ planId: plan.id, billingCycle: on }, 'checkout');
  };

  // Back from signing in with a plan chosen: start it once, and drop it from the address so Back does not.
  const intentHandled = useRef(false);
  useEffect(() => {
    if (!intent || userLoading || !user || !plans.data) return;
    // Dropped again should a late redirect from the sign-in page bring it back.
    setParams((currentParams) => withoutSubscribeIntent(currentParams), { replace: true });
    if (intentHandled.current) return;
    intentHandled.current = true;
    const plan = plans.data.find((candidate) => candidate.id === intent.planId);
    if (plan && !isFreePlan(plan) && planOffersCycle(plan, intent.cycle)) choose(plan, intent.cycle);
  });

  const actionLabel = (plan: Plan) => {
    if (isCurrent(plan, cycle)) return 'Current Plan';
    if (busyPlanId === plan.id) return 'Redirecting...';
    if (isFreePlan(plan)) return user && current !== plan.id ? 'Switch to Free' : 'Start for Free';
    if (!subscribed) return `Choose ${plan.name}`;
    if (plan.id === user?.subscriptionPlanId) {
      // Their own plan: a failed payment to put right, or another billing cycle.
      return user?.planStatus === 'inactive' ? `Reactivate ${plan.name}` : `Switch to ${cycleLabels[cycle]}`;
    }
    return `Switch to ${plan.name}`;
  };

  // Only cycles with a price are offered; with none at all there is nothing to toggle.
  const cycleOptions: ToggleOption<BillingCycle>[] = BILLING_CYCLES.filter((value) =>
    offered.includes(value),
  ).map((value) => ({ value, label: cycleLabels[value] }));

  return (
    <div className="flex flex-col items-center gap-12">
      {plans.data && cycleOptions.length > 0 ? (
        <ToggleGroup label="Billing cycle" options={cycleOptions} value={cycle} onChange={setCycle} />
      ) : null}
      {subscription.alreadySubscribed ? (
        <AlreadySubscribedNotice refusal={subscription.alreadySubscribed} />
      ) : null}
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
                  offered={planOffersCycle(plan, cycle)}
                  otherCycle={offered.find((other) => planOffersCycle(plan, other))}
                  onShowCycle={setCycle}
                  actionLabel={actionLabel(plan)}
                  {...(granted && isFreePlan(plan)
                    ? { actionNote: grantedFreeNote(granted, site.name, grantUntil) }
                    : {})}
                  actionDisabled={isCurrent(plan, cycle) || busy}
                  actionBusy={busyPlanId === plan.id}
                  onChoose={(chosen) => choose(chosen)}
                />
              </li>
            ))}
          </ul>
        )}
      </div>
      <GrantEndsDialog
        question={question}
        onKeep={() => setQuestion(null)}
        onPay={() => {
          if (!question) return;
          setQuestion(null);
          subscription.start(question.input, 'checkout');
        }}
      />
    </div>
  );
}

/**
 * Plans the site granted (decision 006) where they meet billing (decision
 * 037): paying for a plan ends a grant in force, so Checkout asks first.
 */
import type { GrantEndsNotice } from '@tunesmith/shared/plan-values';
import { planGrantedBySite, type User } from '../accounts/user';
import { entitlementsFor } from '../generations/entitlements';
import type { Plan } from '../plans/plan';
import type { BillingAccounts, Payments } from './ports';

type GrantFields = Pick<User, 'planStatus' | 'subscriptionPlanId' | 'stripeSubscriptionId' | 'planEndDate'>;

/**
 * The plan an administrator granted, while it is in force: granted (no
 * subscription behind it) and still giving its paid use at `now`. A grant
 * cancelled to a date that has passed is not in force. `plan` is the plan the
 * user's record names.
 */
export function grantInForce(user: GrantFields, plan: Plan | undefined, now: Date): Plan | undefined {
  if (!plan || !planGrantedBySite(user) || plan.id !== user.subscriptionPlanId) return undefined;
  return entitlementsFor(user, plan, now).paid ? plan : undefined;
}

/** What paying for `chosen` ends of a grant of `granted` (for `grantEndsNotice`). */
export function grantEndsTerms(
  siteName: string,
  granted: Plan,
  chosen: Plan,
  until: string | null,
): GrantEndsNotice {
  const terms = (plan: Plan) => ({
    name: plan.name,
    weeklyLimit: plan.maxGenerations,
    commercialUse: plan.commercialUse,
  });
  return { siteName, granted: terms(granted), chosen: terms(chosen), until };
}

/**
 * Closes the Checkout page recorded as the user's open one, if any: an
 * administrator granted a plan, and a page opened before that would end the
 * grant without asking. Says what the page is now (`complete` when it was
 * paid first: that subscription then replaces the grant when its webhook
 * lands).
 */
export async function closeOpenCheckout(
  deps: {
    accounts: Pick<BillingAccounts, 'checkoutSessionOf'>;
    payments: Pick<Payments, 'expireCheckoutSession'>;
  },
  userId: string,
): Promise<'none' | 'expired' | 'complete'> {
  const page = await deps.accounts.checkoutSessionOf(userId);
  return page ? deps.payments.expireCheckoutSession(page) : 'none';
}

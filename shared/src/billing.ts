import * as z from 'zod/mini';
import { BILLING_CYCLES, type BillingCycle } from './constants';
import { messages } from './messages';
import './schema-messages';

/** Messages of the billing calls and screens; verbatim from the specification where it has them. */
export const billingMessages = {
  planRequired: 'Choose a plan.',
  cycleInvalid: 'Choose weekly, monthly or yearly billing.',
  planNotFound: 'Plan not found',
  freePlanNeedsNoCheckout: 'The Free plan needs no payment: every account starts on it.',
  planInactive: 'This plan is no longer offered. Please choose another plan.',
  /** The spec's 'Configuration Error' text. */
  notConfigured: (cycle: BillingCycle) => messages.pricing.configErrorText(cycle),
  paymentsUnavailable: 'Payments are not available right now. Please try again in a few minutes.',
  noBillingAccount: 'You have no billing account yet. Choose a plan on the Pricing page first.',
  noSubscription: 'You have no subscription to cancel.',
  /** Checkout refused: the user already pays for a plan (409, with `manageUrl`). */
  alreadySubscribed:
    'You already have a subscription. To change or cancel it, open Manage Billing on your profile.',
  /** The portal's plan change asked for by a user with no running subscription (409). */
  noSubscriptionToChange: 'You have no subscription to change. Choose a plan to subscribe.',
  /** The portal's plan change asked for the plan and cycle the user already pays for. */
  alreadyOnPlan: 'You are already on this plan and billing cycle.',
  cancelScheduled: (endDate: string) =>
    `Your subscription is cancelled. You keep your plan until ${endDate}, then your account returns to the Free plan.`,
  cancelledNow:
    'Your subscription is cancelled. Nothing more will be charged, and your account stays on the Free plan.',
  invalidSignature: 'Invalid signature',
  /** An active paid plan saved while no Stripe key works (the plan needs prices to be sold). */
  stripeNeededForPaidPlan:
    'Connect Stripe before offering a paid plan: set the Stripe secret key on Site Settings (Stripe tab), or save the plan as inactive.',
  /** Stripe refused or could not be reached while a plan's prices were made. */
  planPricesUnavailable:
    "Stripe could not create this plan's prices right now, so nothing was saved. Please try again in a few minutes.",
} as const;

/**
 * What the admin's plan form says before a price edit is saved: Stripe
 * prices cannot change, so a new one is made and existing subscribers keep
 * the one they pay until they change plan.
 */
export const priceEditNotice = (changes: readonly string[]) =>
  `New subscribers pay ${changes.join(', ')}. Existing subscribers keep the price they pay now until they change plan.`;

const planIdField = z
  .string({ error: billingMessages.planRequired })
  .check(
    z.trim(),
    z.minLength(1, billingMessages.planRequired),
    z.maxLength(100, billingMessages.planNotFound),
  );

export const checkoutRequestSchema = z.object({
  planId: planIdField,
  billingCycle: z.enum(BILLING_CYCLES, { error: billingMessages.cycleInvalid }),
  /**
   * The plan granted by the site that the person agreed to end by paying
   * (the id Pricing's dialog named). Checkout is refused while a grant is in
   * force and this does not name it.
   */
  endsGrantedPlan: z.optional(planIdField),
});
export type CheckoutRequest = z.infer<typeof checkoutRequestSchema>;

/**
 * The answer of `create-checkout-session` and `create-portal-session`: where to
 * send the browser. `destination` says which page it is: a user who already
 * has a running subscription is sent to the portal instead of paying twice.
 */
export const billingRedirectSchema = z.object({
  url: z.string(),
  destination: z.enum(['checkout', 'portal']),
});
export type BillingRedirect = z.infer<typeof billingRedirectSchema>;

/**
 * The body of `create-portal-session`: empty for the portal's own page, or a
 * plan and cycle to switch the running subscription to, which opens the
 * portal's confirm step for that price (`subscription_update_confirm`).
 */
export const portalRequestSchema = z
  .partial(
    z.object({
      planId: planIdField,
      billingCycle: checkoutRequestSchema.shape.billingCycle,
    }),
  )
  .check(
    z.refine((body) => (body.planId === undefined) === (body.billingCycle === undefined), {
      message: billingMessages.planRequired,
    }),
  );
export type PortalRequest = z.infer<typeof portalRequestSchema>;

export { MANAGE_BILLING_PATH } from './constants';

/** The answer of `cancel-subscription`: cancelled at the end of the period. */
export const cancelSubscriptionResponseSchema = z.object({
  message: z.string(),
  /** When the paid period ends (ISO), as Stripe reported it. */
  planEndDate: z.nullable(z.string()),
});
export type CancelSubscriptionResponse = z.infer<typeof cancelSubscriptionResponseSchema>;

/**
 * Where Stripe sends the browser back to. Both return to the profile, which
 * waits for the webhook to confirm the payment of the plan the page was for
 * (`checkout=success&plan=basic`: the notice names that plan once the user
 * is on it, never the plan they had before) or says that nothing was charged
 * (`checkout=cancelled`); the portal returns with `billing=portal`, so the
 * profile picks up what changed there.
 */
export const billingReturnPaths = {
  checkoutSuccess: (planId: string) => `/profile?checkout=success&plan=${encodeURIComponent(planId)}`,
  checkoutCancelled: '/profile?checkout=cancelled',
  portal: '/profile?billing=portal',
} as const;

/**
 * The events the webhook endpoint handles (spec 2, Webhooks tab, plus
 * `checkout.session.completed`). Any other event is acknowledged and ignored.
 */
export const STRIPE_WEBHOOK_EVENTS = [
  'checkout.session.completed',
  'customer.subscription.created',
  'customer.subscription.updated',
  'customer.subscription.deleted',
  'invoice.payment_succeeded',
  'invoice.payment_failed',
  'payment_intent.succeeded',
] as const;
export type StripeWebhookEvent = (typeof STRIPE_WEBHOOK_EVENTS)[number];

/**
 * The payments port on Stripe, through the official SDK. `STRIPE_API_BASE`
 * (locally: the embedded Stripe of the local cloud) sends the SDK's requests
 * elsewhere than api.stripe.com; the code is the same either way. The SDK
 * is loaded on the first call that needs it: most requests of the groups that
 * bill never do, and it is the largest module they would otherwise load.
 */
import { BILLING_CYCLES, type BillingCycle } from '@tunesmith/shared/constants';
import type Stripe from 'stripe';
import { cycleOfInterval } from '../../domain/billing/plan-prices';
import { type PaymentEvent, type Payments, PaymentsError } from '../../domain/billing/ports';
import type { SubscriptionSnapshot, SubscriptionStatus } from '../../domain/billing/subscription';
import type { StripeKeys } from './stripe-keys';

export interface StripePaymentsOptions {
  /** The current keys (see stripe-keys.ts). */
  keys: () => Promise<StripeKeys>;
  /** `STRIPE_API_BASE`: e.g. `http://127.0.0.1:8606`; unset for api.stripe.com. */
  apiBase?: string;
}

/** The product a plan sells, under an id of ours so that syncing finds it again. */
export const productIdOf = (planId: string) => `tunesmith_${planId}`;

/** SDK options that point it at `apiBase`. */
export function sdkConnection(
  apiBase: string | undefined,
): Pick<Stripe.StripeConfig, 'host' | 'port' | 'protocol'> {
  if (!apiBase) return {};
  const url = new URL(apiBase);
  const protocol = url.protocol === 'http:' ? 'http' : 'https';
  return {
    host: url.hostname,
    port: url.port || (protocol === 'http' ? 80 : 443),
    protocol,
  };
}

const iso = (seconds: number | null | undefined): string | null =>
  typeof seconds === 'number' ? new Date(seconds * 1000).toISOString() : null;

const idOf = (value: string | { id: string } | null | undefined): string | null =>
  typeof value === 'string' ? value : (value?.id ?? null);

const ENDED: readonly string[] = ['canceled', 'incomplete_expired'];

/** Stripe's subscription in our words; its single item carries price and period (API 2025-03-31 on). */
export function toSnapshot(subscription: Stripe.Subscription): SubscriptionSnapshot {
  const item = subscription.items.data[0];
  const price = item?.price;
  const taggedCycle = BILLING_CYCLES.find((cycle) => cycle === price?.metadata?.cycle);
  const cycle: BillingCycle | undefined = taggedCycle ?? cycleOfInterval(price?.recurring?.interval);
  const planId = price?.metadata?.planId;
  const start = iso(item?.current_period_start) ?? (iso(subscription.start_date) as string);
  return {
    id: subscription.id,
    customerId: idOf(subscription.customer) ?? '',
    status: subscription.status as SubscriptionStatus,
    priceId: price?.id ?? null,
    priceTags: { ...(planId ? { planId } : {}), ...(cycle ? { cycle } : {}) },
    cancelScheduled: subscription.cancel_at_period_end || subscription.cancel_at !== null,
    periodStart: start,
    periodEnd: iso(item?.current_period_end) ?? start,
    endedAt: iso(subscription.ended_at),
  };
}

/** What a webhook event is about: its customer, and the user a Checkout session names. */
export function toPaymentEvent(event: Stripe.Event): PaymentEvent {
  const object = event.data.object as { object?: string; customer?: unknown; client_reference_id?: unknown };
  const customer = object.customer as string | { id: string } | null | undefined;
  return {
    id: event.id,
    type: event.type,
    customerId: idOf(customer),
    userId:
      object.object === 'checkout.session' && typeof object.client_reference_id === 'string'
        ? object.client_reference_id
        : null,
  };
}

const sdk = async (): Promise<typeof Stripe> => (await import('stripe')).default;

/** Stripe's errors as the port's failures (by the `type` every Stripe error carries: its class's name). */
export function toPaymentsError(error: unknown): unknown {
  if (error instanceof PaymentsError || !(error instanceof Error)) return error;
  const { type, code, param } = error as Partial<Stripe.errors.StripeError>;
  if (typeof type !== 'string' || !type.startsWith('Stripe')) return error;
  switch (type) {
    case 'StripeSignatureVerificationError':
      return new PaymentsError('signature', error.message);
    case 'StripeAuthenticationError':
    case 'StripePermissionError':
      return new PaymentsError('not-configured', error.message);
    case 'StripeInvalidRequestError':
      return new PaymentsError(
        code === 'resource_missing' ? 'missing' : 'invalid-request',
        error.message,
        param,
      );
    default:
      return new PaymentsError('unavailable', error.message);
  }
}

/** Builds the payments port. The SDK client is made per secret key, so a changed key takes effect. */
export function stripePayments(options: StripePaymentsOptions): Payments {
  let client: { key: string; stripe: Stripe } | undefined;

  const stripe = async (): Promise<Stripe> => {
    const { secretKey } = await options.keys();
    if (!secretKey) throw new PaymentsError('not-configured', 'No Stripe secret key is configured');
    if (client?.key !== secretKey) {
      const Sdk = await sdk();
      client = {
        key: secretKey,
        stripe: new Sdk(secretKey, {
          ...sdkConnection(options.apiBase),
          maxNetworkRetries: 2,
          timeout: 10_000,
          telemetry: false,
          appInfo: { name: 'Tunesmith' },
        }),
      };
    }
    return client.stripe;
  };

  /** Runs a call and turns Stripe's errors into the port's. */
  const call = async <T>(run: (s: Stripe) => Promise<T>): Promise<T> => {
    try {
      return await run(await stripe());
    } catch (error) {
      throw toPaymentsError(error);
    }
  };

  const missingToUndefined = async <T>(promise: Promise<T>): Promise<T | undefined> => {
    try {
      return await promise;
    } catch (error) {
      if (error instanceof PaymentsError && error.failure === 'missing') return undefined;
      throw error;
    }
  };

  return {
    createCustomer: ({ userId, email, name }) =>
      call(async (s) => {
        const customer = await s.customers.create(
          { email, name, metadata: { userId } },
          // Two tabs choosing a plan at once still make one customer.
          { idempotencyKey: `tunesmith-customer-${userId}` },
        );
        return customer.id;
      }),

    createCheckoutSession: (input) =>
      call(async (s) => {
        const metadata = { userId: input.userId, planId: input.planId, cycle: input.cycle };
        const session = await s.checkout.sessions.create({
          mode: 'subscription',
          customer: input.customerId,
          client_reference_id: input.userId,
          line_items: [{ price: input.priceId, quantity: 1 }],
          success_url: input.successUrl,
          cancel_url: input.cancelUrl,
          metadata,
          subscription_data: { metadata },
        });
        if (!session.url) throw new PaymentsError('unavailable', 'Checkout session has no url');
        return session.url;
      }),

    createPortalSession: ({ customerId, returnUrl }) =>
      call(async (s) => {
        const session = await s.billingPortal.sessions.create({
          customer: customerId,
          return_url: returnUrl,
        });
        return session.url;
      }),

    cancelAtPeriodEnd: (subscriptionId) =>
      call(async (s) =>
        toSnapshot(await s.subscriptions.update(subscriptionId, { cancel_at_period_end: true })),
      ),

    cancelNow: (subscriptionId) =>
      call(async (s) => toSnapshot(await s.subscriptions.cancel(subscriptionId))),

    currentSubscription: (customerId) =>
      call(async (s) => {
        const list = await s.subscriptions.list({ customer: customerId, status: 'all', limit: 20 });
        // Newest first: the newest one still running, else the newest that ended.
        const current = list.data.find((sub) => !ENDED.includes(sub.status)) ?? list.data[0];
        return current ? toSnapshot(current) : undefined;
      }),

    async verifyEvent(rawBody, signature) {
      const { webhookSecret } = await options.keys();
      if (!webhookSecret) throw new PaymentsError('not-configured', 'No Stripe webhook secret is configured');
      if (!signature) throw new PaymentsError('signature', 'No Stripe-Signature header');
      try {
        const { webhooks } = await sdk();
        return toPaymentEvent(await webhooks.constructEventAsync(rawBody, signature, webhookSecret));
      } catch (error) {
        const mapped = toPaymentsError(error);
        // A body that is not an event at all is as inauthentic as a wrong signature.
        throw mapped instanceof PaymentsError ? mapped : new PaymentsError('signature', 'Unreadable event');
      }
    },

    findPrice: async (priceId) => {
      const price = await missingToUndefined(call((s) => s.prices.retrieve(priceId)));
      return (
        price && {
          id: price.id,
          active: price.active,
          unitAmount: price.unit_amount ?? 0,
          interval: price.recurring?.interval ?? null,
        }
      );
    },

    ensureProduct: async (plan) => {
      const id = productIdOf(plan.id);
      const found = await missingToUndefined(call((s) => s.products.retrieve(id)));
      if (found && !found.deleted) {
        if (!found.active) await call((s) => s.products.update(id, { active: true }));
        return found.id;
      }
      const description = plan.description?.split('\n')[0]?.trim();
      const created = await call((s) =>
        s.products.create({
          id,
          name: plan.name,
          ...(description ? { description } : {}),
          metadata: { planId: plan.id },
        }),
      );
      return created.id;
    },

    createPrice: ({ productId, planId, cycle, unitAmount, interval }) =>
      call(async (s) => {
        const price = await s.prices.create({
          product: productId,
          currency: 'usd',
          unit_amount: unitAmount,
          recurring: { interval },
          lookup_key: `tunesmith_${planId}_${cycle}`,
          transfer_lookup_key: true,
          nickname: `${planId} ${cycle}`,
          metadata: { planId, cycle },
        });
        return price.id;
      }),
  };
}

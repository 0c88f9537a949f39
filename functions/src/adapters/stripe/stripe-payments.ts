/**
 * The payments port on Stripe, through the official SDK. `STRIPE_API_BASE`
 * (locally: the embedded Stripe of the local cloud) sends the SDK's requests
 * elsewhere than api.stripe.com; the code is the same either way. The SDK
 * is loaded on the first call that needs it: most requests of the groups that
 * bill never do, and it is the largest module they would otherwise load.
 */
import { BILLING_CYCLES, type BillingCycle } from '@tunesmith/shared/constants';
import type Stripe from 'stripe';
import { cycleOfInterval, productIdOf } from '../../domain/billing/plan-prices';
import { type PaymentEvent, type Payments, PaymentsError } from '../../domain/billing/ports';
import type { SubscriptionSnapshot, SubscriptionStatus } from '../../domain/billing/subscription';
import type { StripeKeys } from './stripe-keys';

export interface StripePaymentsOptions {
  /** The current keys (see stripe-keys.ts). */
  keys: () => Promise<StripeKeys>;
  /** `STRIPE_API_BASE`: e.g. `http://127.0.0.1:8606`; unset for api.stripe.com. */
  apiBase?: string;
}

export { productIdOf };

/** The portal configuration this app keeps (found again by its metadata). */
const PORTAL_METADATA = { app: 'tunesmith' } as const;

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
    createdAt: iso(subscription.created) as string,
    status: subscription.status as SubscriptionStatus,
    itemId: item?.id ?? null,
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

  /** This app's portal configuration in the account, looked up once per key. */
  let portal: { key: string; id: string } | undefined;
  const portalConfigurationId = async (s: Stripe): Promise<string | undefined> => {
    const key = client?.key ?? '';
    if (portal?.key === key) return portal.id;
    for await (const configuration of s.billingPortal.configurations.list({ active: true, limit: 100 })) {
      if (configuration.metadata?.app === PORTAL_METADATA.app) {
        portal = { key, id: configuration.id };
        return configuration.id;
      }
    }
    return undefined;
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
        return { id: session.id, url: session.url };
      }),

    expireCheckoutSession: (sessionId) =>
      call(async (s) => {
        try {
          await s.checkout.sessions.expire(sessionId);
          return 'expired' as const;
        } catch (error) {
          // Not in this account (made with keys since replaced): nobody can pay it here.
          if ((error as { code?: string }).code === 'resource_missing') return 'expired' as const;
          // Not open any more: paid, or expired already (by another request, or by time).
          const current = await s.checkout.sessions.retrieve(sessionId);
          if (current.status === 'complete') return 'complete' as const;
          if (current.status === 'expired') return 'expired' as const;
          throw error;
        }
      }),

    createPortalSession: ({ customerId, returnUrl, change }) =>
      call(async (s) => {
        const configuration = await portalConfigurationId(s);
        const session = await s.billingPortal.sessions.create({
          customer: customerId,
          return_url: returnUrl,
          ...(configuration ? { configuration } : {}),
          ...(change
            ? {
                flow_data: {
                  type: 'subscription_update_confirm',
                  subscription_update_confirm: {
                    subscription: change.subscriptionId,
                    items: [{ id: change.itemId, price: change.priceId, quantity: 1 }],
                  },
                  after_completion: { type: 'redirect', redirect: { return_url: returnUrl } },
                },
              }
            : {}),
        });
        return session.url;
      }),

    cancelAtPeriodEnd: (subscriptionId) =>
      call(async (s) =>
        toSnapshot(await s.subscriptions.update(subscriptionId, { cancel_at_period_end: true })),
      ),

    cancelNow: (subscriptionId) =>
      call(async (s) => toSnapshot(await s.subscriptions.cancel(subscriptionId))),

    listSubscriptions: (customerId) =>
      call(async (s) => {
        const all: SubscriptionSnapshot[] = [];
        for await (const sub of s.subscriptions.list({ customer: customerId, status: 'all', limit: 100 })) {
          all.push(toSnapshot(sub));
          if (all.length >= 1000) break;
        }
        return all;
      }),

    refundSubscription: (subscriptionId) =>
      call(async (s) => {
        let refunded = 0;
        for await (const invoice of s.invoices.list({
          subscription: subscriptionId,
          status: 'paid',
          limit: 100,
        })) {
          for await (const payment of s.invoicePayments.list({
            invoice: invoice.id,
            status: 'paid',
            limit: 100,
          })) {
            const intent = idOf(payment.payment.payment_intent);
            if (payment.payment.type !== 'payment_intent' || !intent) continue;
            try {
              await s.refunds.create(
                { payment_intent: intent, reason: 'duplicate', metadata: { subscriptionId } },
                // Two deliveries of one event refund once.
                { idempotencyKey: `tunesmith-refund-${intent}` },
              );
            } catch (error) {
              if ((error as { code?: string }).code !== 'charge_already_refunded') throw error;
            }
            for await (const refund of s.refunds.list({ payment_intent: intent, limit: 100 })) {
              if (refund.status !== 'failed' && refund.status !== 'canceled') refunded += refund.amount;
            }
          }
        }
        return refunded;
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
      const description = plan.description?.split('\n')[0]?.trim();
      const found = await missingToUndefined(call((s) => s.products.retrieve(id)));
      if (found && !found.deleted) {
        if (!found.active || found.name !== plan.name) {
          await call((s) => s.products.update(id, { active: true, name: plan.name }));
        }
        return found.id;
      }
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

    archivePrice: async (priceId) => {
      await call((s) => s.prices.update(priceId, { active: false }));
    },

    syncPortal: (offers) =>
      call(async (s) => {
        const features = {
          subscription_update: {
            enabled: offers.length > 0,
            default_allowed_updates: ['price' as const],
            proration_behavior: 'always_invoice' as const,
            products: offers.map((offer) => ({ product: offer.productId, prices: offer.priceIds })),
          },
          subscription_cancel: { enabled: true, mode: 'at_period_end' as const },
          payment_method_update: { enabled: true },
          invoice_history: { enabled: true },
        };
        const existing = await portalConfigurationId(s);
        if (existing) {
          await s.billingPortal.configurations.update(existing, {
            features: offers.length > 0 ? features : { ...features, subscription_update: { enabled: false } },
          });
          return;
        }
        if (offers.length === 0) return;
        const created = await s.billingPortal.configurations.create({
          features,
          metadata: { ...PORTAL_METADATA },
        });
        portal = { key: client?.key ?? '', id: created.id };
      }),
  };
}

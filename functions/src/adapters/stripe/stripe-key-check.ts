/**
 * The admin area's check of a Stripe secret key before it is stored: one
 * `GET /v1/balance` with the key (the cheapest read Stripe has; it changes
 * nothing). `STRIPE_API_BASE` sends it to the local cloud's embedded Stripe,
 * which, like Stripe, accepts only its own key. The SDK is loaded with the
 * first check.
 */
import type Stripe from 'stripe';
import type { StripeKeyCheck, StripeKeyVerdict } from '../../domain/admin/ports';
import { sdkConnection } from './stripe-payments';

export interface StripeKeyCheckOptions {
  /** `STRIPE_API_BASE`: e.g. `http://127.0.0.1:8606`; unset for api.stripe.com. */
  apiBase?: string;
  /** How long to wait for Stripe (default 10 s): an admin is waiting on the Save button. */
  timeoutMs?: number;
}

/** What a failed balance read says of the key: Stripe's errors carry their class name in `type`. */
export function verdictOf(error: unknown): StripeKeyVerdict {
  const type = (error as { type?: unknown } | null)?.type;
  switch (type) {
    // 401: Stripe knows no such key, or it was revoked.
    case 'StripeAuthenticationError':
      return 'refused';
    // 403: a restricted key that may not read the balance; Stripe knows the key.
    case 'StripePermissionError':
      return 'ok';
    default:
      return 'unreachable';
  }
}

export function stripeKeyCheck(options: StripeKeyCheckOptions = {}): StripeKeyCheck {
  return {
    async checkSecretKey(secretKey) {
      const Sdk: typeof Stripe = (await import('stripe')).default;
      const stripe = new Sdk(secretKey, {
        ...sdkConnection(options.apiBase),
        maxNetworkRetries: 1,
        timeout: options.timeoutMs ?? 10_000,
        telemetry: false,
        appInfo: { name: 'Tunesmith' },
      });
      try {
        await stripe.balance.retrieve();
        return 'ok';
      } catch (error) {
        return verdictOf(error);
      }
    },
  };
}

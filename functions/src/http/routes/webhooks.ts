import { billingMessages } from '@tunesmith/shared/billing';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { type LazyMetrics, metrics } from '../../adapters/lazy-metrics';
import { type MetricName, metricNames } from '../../adapters/metric-names';
import type { Clock } from '../../domain/accounts/ports';
import { type BillingLog, handlePaymentEvent } from '../../domain/billing/billing-service';
import { type BillingDeps, PaymentsError } from '../../domain/billing/ports';
import { DomainError } from '../../domain/errors';
import type { WebhookVerifier } from '../../domain/generations/music-provider';
import { type WorkflowDeps, webhookReceived } from '../../workflow/steps';
import type { GroupHandlers } from '../group-handler';
import { header } from '../request';
import { errorJson, json } from '../responses';

export const webhookMessages = {
  notAuthentic: 'Invalid webhook signature',
} as const;

export interface WebhookRouteDeps {
  /** Checks the music provider's signature over the raw body. */
  verifier: WebhookVerifier;
  /** Where the outcome meets the waiting workflow task. */
  workflow: Pick<WorkflowDeps, 'callbacks' | 'tasks'>;
  clock: Clock;
  /** Billing, for Stripe's webhook (built on first use, so fal's deliveries never wait on it). */
  billing: () => BillingDeps & { log?: BillingLog };
  /** Where each delivery's outcome is counted (default: CloudWatch through Powertools). */
  metrics?: Pick<LazyMetrics, 'countOutcome'>;
}

/** The body exactly as sent: the signature covers these bytes, not a re-serialised JSON. */
export function rawBody(event: APIGatewayProxyEventV2): Buffer {
  if (!event.body) return Buffer.alloc(0);
  return Buffer.from(event.body, event.isBase64Encoded ? 'base64' : 'utf8');
}

/**
 * The music provider's webhook: verified, then handed to the waiting
 * generation workflow. The provider retries deliveries, so the same request id
 * may come several times; each one answers 200 and only the first reaches the
 * workflow (webhookReceived ignores a task that is already answered).
 */
export function webhookRoutes(deps: WebhookRouteDeps): GroupHandlers {
  const outcome = (name: MetricName, value: string) => (deps.metrics ?? metrics).countOutcome(name, value);
  return {
    falWebhook: async (event) => {
      const verified = await deps.verifier.verify({
        headers: event.headers ?? {},
        rawBody: rawBody(event),
        now: deps.clock.now(),
      });
      if (!verified) {
        outcome(metricNames.falWebhooks, 'rejected');
        return errorJson(401, webhookMessages.notAuthentic);
      }
      await webhookReceived(deps.workflow, {
        requestId: verified.requestId,
        status: verified.status,
        ...(verified.error ? { error: verified.error } : {}),
      });
      outcome(metricNames.falWebhooks, 'accepted');
      return json(200, { ok: true });
    },

    /**
     * Stripe's webhook: verified over the raw body (a bad or missing signature
     * is a 400 and changes nothing), then handled once per event id. Any
     * answer but 2xx makes Stripe retry with backoff for up to three days.
     */
    stripeWebhook: async (event) => {
      const billing = deps.billing();
      let verified: Awaited<ReturnType<typeof billing.payments.verifyEvent>>;
      try {
        verified = await billing.payments.verifyEvent(rawBody(event), header(event, 'stripe-signature'));
      } catch (error) {
        if (!(error instanceof PaymentsError)) throw error;
        if (error.failure === 'signature') {
          outcome(metricNames.stripeWebhooks, 'rejected');
          return errorJson(400, billingMessages.invalidSignature);
        }
        billing.log?.warn('stripe webhook not verifiable', { failure: error.failure, error });
        throw new DomainError('unavailable', billingMessages.paymentsUnavailable);
      }
      const handled = await handlePaymentEvent(billing, verified);
      outcome(metricNames.stripeWebhooks, handled);
      return json(200, { received: true, outcome: handled });
    },
  };
}

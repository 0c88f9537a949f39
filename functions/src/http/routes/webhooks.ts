import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import type { Clock } from '../../domain/accounts/ports';
import type { WebhookVerifier } from '../../domain/generations/music-provider';
import { type WorkflowDeps, webhookReceived } from '../../workflow/steps';
import type { GroupHandlers } from '../group-handler';
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
  return {
    falWebhook: async (event) => {
      const verified = await deps.verifier.verify({
        headers: event.headers ?? {},
        rawBody: rawBody(event),
        now: deps.clock.now(),
      });
      if (!verified) return errorJson(401, webhookMessages.notAuthentic);
      await webhookReceived(deps.workflow, {
        requestId: verified.requestId,
        status: verified.status,
        ...(verified.error ? { error: verified.error } : {}),
      });
      return json(200, { ok: true });
    },
  };
}

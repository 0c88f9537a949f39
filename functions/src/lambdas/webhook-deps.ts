import { dynamo } from '../adapters/dynamo/client';
import { dynamoWebhookDeliveries, dynamoWebhookEndpoints } from '../adapters/dynamo/webhook-store';
import { lambda } from '../adapters/lambda/background-jobs';
import { lambdaWebhookDispatch, webhooksFunctionFromEnv } from '../adapters/lambda/webhook-dispatch';
import { safeWebhookSender } from '../adapters/webhooks/safe-sender';
import type { WebhookDeps } from '../domain/developers/webhooks';

/**
 * `WEBHOOKS_ALLOW_LOOPBACK=true`: webhooks may go to http:// URLs and
 * loopback addresses. The local cloud sets it for itself so `npm start`
 * delivers to a listener on 127.0.0.1; the stack never sets it.
 */
export const webhooksAllowLoopback = (env: NodeJS.ProcessEnv = process.env): boolean =>
  env.WEBHOOKS_ALLOW_LOOPBACK === 'true';

let built: WebhookDeps | undefined;

/** Webhooks on the table, the SSRF-safe sender and the delivery function. Built once per runtime. */
export function webhookDeps(): WebhookDeps {
  if (!built) {
    const { client, tableName } = dynamo();
    const allowLoopback = webhooksAllowLoopback();
    built = {
      endpoints: dynamoWebhookEndpoints(client, tableName),
      deliveries: dynamoWebhookDeliveries(client, tableName),
      sender: safeWebhookSender({ allowLoopback }),
      dispatch: lambdaWebhookDispatch(lambda(), () => webhooksFunctionFromEnv()),
      clock: { now: () => new Date() },
      allowLoopback,
      // The workflow's functions know the site as WEBHOOK_BASE_URL (the same distribution).
      siteOrigin: (process.env.PUBLIC_ORIGIN || process.env.WEBHOOK_BASE_URL || '').replace(/\/+$/, ''),
    };
  }
  return built;
}

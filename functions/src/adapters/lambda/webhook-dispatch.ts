/**
 * Starts the webhook delivery function (decision 053) for deliveries just
 * recorded: an asynchronous invocation (`InvocationType: 'Event'`) of
 * `WEBHOOKS_FUNCTION_NAME`, as background jobs are started. What it does not
 * start, the function's schedule sends within a minute.
 */
import type { WebhookDeliveryJob, WebhookDispatch } from '../../domain/developers/webhooks';
import type { LambdaSdk } from './background-jobs';
import { JobNotQueuedError } from './background-jobs';

/** `WEBHOOKS_FUNCTION_NAME`: the function that delivers webhooks. */
export function webhooksFunctionFromEnv(env: NodeJS.ProcessEnv = process.env): string {
  const value = env.WEBHOOKS_FUNCTION_NAME;
  if (!value) throw new Error('Missing environment variable WEBHOOKS_FUNCTION_NAME');
  return value;
}

export function lambdaWebhookDispatch(client: LambdaSdk, functionName: () => string): WebhookDispatch {
  return {
    async start(deliveryIds) {
      const job: WebhookDeliveryJob = { kind: 'webhook-deliveries', deliveryIds };
      const { sdk, client: lambdaClient } = await client();
      const result = await lambdaClient.send(
        new sdk.InvokeCommand({
          FunctionName: functionName(),
          InvocationType: 'Event',
          Payload: new TextEncoder().encode(JSON.stringify(job)),
        }),
      );
      if (result.StatusCode !== 202)
        throw new JobNotQueuedError(
          `The webhooks function answered ${result.StatusCode} to an asynchronous run`,
        );
    },
  };
}

/**
 * Route group `webhooks`: the music provider's and Stripe's signed webhooks.
 * Env: TABLE_NAME, AWS_REGION (DYNAMODB_ENDPOINT locally), FAL_WEBHOOK_JWKS_URL
 * (fal's JWKS by default), STEPFUNCTIONS_ENDPOINT (locally), and Stripe's keys
 * (billing-wiring.ts).
 */
import { dynamo } from '../adapters/dynamo/client';
import { falWebhookVerifier } from '../adapters/fal/fal-webhook';
import { sfn, stepFunctionsTaskCallbacks } from '../adapters/sfn/step-functions';
import { createGroupHandler, type LambdaHandler } from '../http/group-handler';
import { webhookRoutes } from '../http/routes/webhooks';
import { dynamoCallbackStore } from '../workflow/dynamo-callback-store';
import { billingWiring } from './billing-wiring';

let built: LambdaHandler | undefined;

export const handler: LambdaHandler = (event, context) => {
  if (!built) {
    const { client, tableName } = dynamo();
    built = createGroupHandler(
      'webhooks',
      webhookRoutes({
        verifier: falWebhookVerifier(
          process.env.FAL_WEBHOOK_JWKS_URL ? { jwksUrl: process.env.FAL_WEBHOOK_JWKS_URL } : {},
        ),
        workflow: {
          callbacks: dynamoCallbackStore(client, tableName),
          tasks: stepFunctionsTaskCallbacks(sfn()),
        },
        clock: { now: () => new Date() },
        billing: billingWiring,
      }),
    );
  }
  return built(event, context);
};

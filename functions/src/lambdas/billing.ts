/**
 * Route group `billing`: checkout, customer portal and cancellation.
 * Env: TABLE_NAME, AWS_REGION, PUBLIC_ORIGIN (where Stripe sends the browser
 * back), the session variables, and Stripe's keys (billing-wiring.ts).
 */
import { accountsConfig } from '../config';
import { createGroupHandler, type LambdaHandler } from '../http/group-handler';
import { billingRoutes } from '../http/routes/billing';
import { billingWiring } from './billing-wiring';
import { sessionWiring } from './session-wiring';

let built: LambdaHandler | undefined;

export const handler: LambdaHandler = (event, context) => {
  built ??= createGroupHandler(
    'billing',
    billingRoutes({ billing: billingWiring(), origin: () => accountsConfig().publicOrigin }),
    { sessions: sessionWiring().sessions },
  );
  return built(event, context);
};

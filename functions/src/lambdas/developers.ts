import { createGroupHandler, type LambdaHandler } from '../http/group-handler';
import { apiKeyRoutes } from '../http/routes/api-keys';
import { apiKeyDeps } from './api-key-wiring';
import { sessionWiring } from './session-wiring';
import { webhookEndpointHandlers } from './webhooks-wiring';

let built: LambdaHandler | undefined;

/** Route group `developers`: Profile → Developers, a user's API keys and webhook endpoints (decision 052). */
export const handler: LambdaHandler = (event, context) => {
  if (!built) {
    built = createGroupHandler(
      'developers',
      { ...apiKeyRoutes(apiKeyDeps()), ...webhookEndpointHandlers() },
      {
        sessions: sessionWiring().sessions,
      },
    );
  }
  return built(event, context);
};

import { createGroupHandler, type LambdaHandler, lazyRoutes } from '../http/group-handler';
import { v1ErrorShape } from '../http/v1-errors';
import { keyAuthorizer } from './api-key-wiring';
import { v1Handlers } from './api-v1-wiring';

let built: LambdaHandler | undefined;

/**
 * Route group `api-v1`: the developer API (decision 052), called with an API
 * key, never a session; every error in its own `{ error: { code, message } }` shape.
 */
export const handler: LambdaHandler = (event, context) => {
  if (!built) {
    built = createGroupHandler(
      'api-v1',
      {
        ...v1Handlers(),
        // The document is a file written from the schemas (decision 054), read with its first request.
        ...lazyRoutes(['v1OpenApi'], async () => (await import('../http/routes/openapi')).openApiRoutes()),
      },
      { authorizeKey: keyAuthorizer(), answerShape: v1ErrorShape },
    );
  }
  return built(event, context);
};

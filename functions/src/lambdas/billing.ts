import { createGroupHandler, type LambdaHandler } from '../http/group-handler';
import { sessionWiring } from './session-wiring';

let built: LambdaHandler | undefined;

/** Route group `billing`: checkout, customer portal and cancellation. */
export const handler: LambdaHandler = (event, context) => {
  built ??= createGroupHandler('billing', {}, { sessions: sessionWiring().sessions });
  return built(event, context);
};

import { createGroupHandler, type LambdaHandler } from '../http/group-handler';
import { sessionWiring } from './session-wiring';

let built: LambdaHandler | undefined;

/** Route group `admin`: the admin area. */
export const handler: LambdaHandler = (event, context) => {
  built ??= createGroupHandler('admin', {}, { sessions: sessionWiring().sessions });
  return built(event, context);
};

import { createGroupHandler, type LambdaHandler } from '../http/group-handler';
import { sessionWiring } from './session-wiring';

let built: LambdaHandler | undefined;

/** Route group `generation`: generation, lyrics and the library. */
export const handler: LambdaHandler = (event, context) => {
  built ??= createGroupHandler('generation', {}, { sessions: sessionWiring().sessions });
  return built(event, context);
};

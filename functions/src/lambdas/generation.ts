import { createGroupHandler, type LambdaHandler } from '../http/group-handler';
import { wiring } from './wiring';

let built: LambdaHandler | undefined;

/** Route group `generation`: generation, lyrics and the library. */
export const handler: LambdaHandler = (event, context) => {
  built ??= createGroupHandler('generation', {}, { sessions: wiring().sessions });
  return built(event, context);
};

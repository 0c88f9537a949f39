import { createGroupHandler, type LambdaHandler } from '../http/group-handler';
import { sessionWiring } from './session-wiring';

let built: LambdaHandler | undefined;

/** Route group `uploads`: presigned audio uploads. */
export const handler: LambdaHandler = (event, context) => {
  built ??= createGroupHandler('uploads', {}, { sessions: sessionWiring().sessions });
  return built(event, context);
};

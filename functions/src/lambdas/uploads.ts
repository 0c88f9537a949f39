import { createGroupHandler, type LambdaHandler } from '../http/group-handler';
import { wiring } from './wiring';

let built: LambdaHandler | undefined;

/** Route group `uploads`: presigned audio uploads. */
export const handler: LambdaHandler = (event, context) => {
  built ??= createGroupHandler('uploads', {}, { sessions: wiring().sessions });
  return built(event, context);
};

import { createGroupHandler, type LambdaHandler } from '../http/group-handler';
import { wiring } from './wiring';

let built: LambdaHandler | undefined;

/** Route group `admin`: the admin area. */
export const handler: LambdaHandler = (event, context) => {
  built ??= createGroupHandler('admin', {}, { sessions: wiring().sessions });
  return built(event, context);
};

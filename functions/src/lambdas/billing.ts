import { createGroupHandler, type LambdaHandler } from '../http/group-handler';
import { wiring } from './wiring';

let built: LambdaHandler | undefined;

/** Route group `billing`: checkout, customer portal and cancellation. */
export const handler: LambdaHandler = (event, context) => {
  built ??= createGroupHandler('billing', {}, { sessions: wiring().sessions });
  return built(event, context);
};

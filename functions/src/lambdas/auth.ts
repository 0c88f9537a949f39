import { dynamo } from '../adapters/dynamo/client';
import { dynamoPlanRepository } from '../adapters/dynamo/plan-repository';
import { createGroupHandler, type LambdaHandler } from '../http/group-handler';
import { authRoutes } from '../http/routes/auth';
import { wiring } from './wiring';

let built: LambdaHandler | undefined;

/** Route group `auth`: sign-up, sign-in, verification, reset and account changes. */
export const handler: LambdaHandler = (event, context) => {
  if (!built) {
    const w = wiring();
    const { client, tableName } = dynamo();
    built = createGroupHandler(
      'auth',
      authRoutes({
        accounts: w.accounts,
        sessions: w.sessions.user,
        plans: dynamoPlanRepository(client, tableName),
        clock: { now: () => new Date() },
      }),
      { sessions: w.sessions },
    );
  }
  return built(event, context);
};

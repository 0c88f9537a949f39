import { createGroupHandler, type LambdaHandler } from '../http/group-handler';
import { authRoutes } from '../http/routes/auth';
import { wiring } from './wiring';

let built: LambdaHandler | undefined;

/** Route group `auth`: sign-up, sign-in, verification, reset and account changes. */
export const handler: LambdaHandler = (event, context) => {
  if (!built) {
    const w = wiring();
    built = createGroupHandler('auth', authRoutes({ accounts: w.accounts, sessions: w.sessions.user }), {
      sessions: w.sessions,
    });
  }
  return built(event, context);
};

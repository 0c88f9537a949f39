import { createGroupHandler, type LambdaHandler } from '../http/group-handler';
import { adminSessionRoutes } from '../http/routes/admin-session';
import { wiring } from './wiring';

let built: LambdaHandler | undefined;

/** Route group `admin-session`: admin sign-in (password, then the second factor), sign-out and password. */
export const handler: LambdaHandler = (event, context) => {
  if (!built) {
    const w = wiring();
    built = createGroupHandler(
      'admin-session',
      adminSessionRoutes({ admins: w.admin, sessions: w.sessions.admin, challenge: w.adminChallenge }),
      {
        sessions: w.sessions,
      },
    );
  }
  return built(event, context);
};

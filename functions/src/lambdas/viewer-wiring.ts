import { lazySdk } from '../adapters/lazy-sdk';
import { cookieJar } from '../http/cookies';
import type { ViewerLookup } from '../http/routes/catalog';
import { carriesUserSession } from '../http/session';
import { publicOrigin } from './site-origin';

/** The user sessions (Cognito's token check and the profiles), loaded for the first request that carries one. */
const userSessions = lazySdk(
  () => import('./session-wiring'),
  (wiring) => wiring.sessionWiring().sessions.user,
);

/**
 * Who is looking at a public page: the signed-in user, or a visitor. Visitors carry no session
 * cookies: their requests never wait on Cognito, nor load its code.
 */
export function viewerLookup(): ViewerLookup {
  const signedIn = carriesUserSession(cookieJar(publicOrigin()));
  return async (event) => {
    if (!signedIn(event)) return { cookies: [] };
    const { client: sessions } = await userSessions();
    const session = await sessions.authenticate(event);
    return session ? { user: session.principal, cookies: session.cookies } : { cookies: [] };
  };
}

import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { authenticate } from '../domain/accounts/account-service';
import { type AdminUser, authenticateAdmin } from '../domain/accounts/admin';
import type { SessionReads, Tokens } from '../domain/accounts/ports';
import type { SessionDeps } from '../domain/accounts/session-rules';
import type { User } from '../domain/accounts/user';
import type { CookieJar } from './cookies';

const REFRESH_MAX_AGE_SECONDS = 30 * 24 * 60 * 60;

/**
 * The signed-in hint (decision 023): a cookie with no secret in it, readable by
 * the page, set beside the user's session cookies and cleared with them, so the
 * SPA asks who is signed in only when someone may be. The server never trusts
 * it: every signed-in call is still decided by the HttpOnly session cookies.
 */
export const SIGNED_IN_HINT = 'ts_signed_in';

/** A kind of signed-in session (user or admin) kept in HttpOnly cookies. */
export interface Sessions<P> {
  /** The principal behind the request's cookies, plus cookies to set when tokens were refreshed. */
  authenticate(event: APIGatewayProxyEventV2): Promise<{ principal: P; cookies: string[] } | undefined>;
  /** Set-Cookie values that start a session with these tokens. */
  issue(tokens: Tokens): string[];
  /** Set-Cookie values that end the session in this browser. */
  clear(): string[];
  /** The tokens this browser holds, to end its session. */
  tokens(event: APIGatewayProxyEventV2): { accessToken?: string; refreshToken?: string };
  /** Whether the request carries any cookie of this kind. */
  present(event: APIGatewayProxyEventV2): boolean;
}

type SessionCookies = { access: string; refresh: string; hint?: string };

/** The user session's cookies. */
const USER_COOKIES: SessionCookies = { access: 'ts_session', refresh: 'ts_refresh', hint: SIGNED_IN_HINT };

/** Whether a request carries any cookie of the kind; unreadable cookies count too, so the 401 clears them. */
const carries = (jar: CookieJar, names: SessionCookies) => (event: APIGatewayProxyEventV2) =>
  jar.has(event, names.access) ||
  jar.has(event, names.refresh) ||
  // So does a hint left without a session.
  (names.hint !== undefined && jar.has(event, names.hint));

/**
 * Whether the request carries any cookie of a user session, told without the
 * session's code: a group that serves visitors too loads that only for
 * requests that may be signed in (decision 042).
 */
export const carriesUserSession = (jar: CookieJar) => carries(jar, USER_COOKIES);

function cookieSessions<P>(
  jar: CookieJar,
  names: SessionCookies,
  verify: (tokens: {
    accessToken?: string;
    refreshToken?: string;
  }) => Promise<{ principal: P; refreshed?: Tokens } | undefined>,
): Sessions<P> {
  const issue = (tokens: Tokens) => [
    jar.set(names.access, tokens.accessToken, tokens.expiresIn),
    ...(tokens.refreshToken ? [jar.set(names.refresh, tokens.refreshToken, REFRESH_MAX_AGE_SECONDS)] : []),
    // As long as the session can be refreshed; a hint that outlives it is cleared by the 401 it meets.
    ...(names.hint ? [jar.setReadable(names.hint, '1', REFRESH_MAX_AGE_SECONDS)] : []),
  ];
  return {
    async authenticate(event) {
      const accessToken = jar.read(event, names.access);
      const refreshToken = jar.read(event, names.refresh);
      if (!accessToken && !refreshToken) return undefined;
      const result = await verify({
        ...(accessToken ? { accessToken } : {}),
        ...(refreshToken ? { refreshToken } : {}),
      });
      if (!result) return undefined;
      return { principal: result.principal, cookies: result.refreshed ? issue(result.refreshed) : [] };
    },
    issue,
    clear: () => [
      jar.clear(names.access),
      jar.clear(names.refresh),
      ...(names.hint ? [jar.clearReadable(names.hint)] : []),
    ],
    tokens: (event) => {
      const accessToken = jar.read(event, names.access);
      const refreshToken = jar.read(event, names.refresh);
      return { ...(accessToken ? { accessToken } : {}), ...(refreshToken ? { refreshToken } : {}) };
    },
    present: carries(jar, names),
  };
}

export function userSessions(
  deps: { sessionReads: SessionReads<User> } & SessionDeps,
  jar: CookieJar,
): Sessions<User> {
  return cookieSessions(jar, USER_COOKIES, async (tokens) => {
    const result = await authenticate(deps, tokens);
    return result && { principal: result.user, ...(result.refreshed ? { refreshed: result.refreshed } : {}) };
  });
}

export function adminSessions(
  deps: { sessionReads: SessionReads<AdminUser> } & SessionDeps,
  jar: CookieJar,
): Sessions<AdminUser> {
  return cookieSessions(jar, { access: 'ts_admin_session', refresh: 'ts_admin_refresh' }, async (tokens) => {
    const result = await authenticateAdmin(deps, tokens);
    return (
      result && { principal: result.admin, ...(result.refreshed ? { refreshed: result.refreshed } : {}) }
    );
  });
}

/**
 * The cookie of an admin sign-in waiting for its second factor (decision 036):
 * HttpOnly like the session's, as long-lived as the wait, and holding only a
 * random token whose hash names the sign-in kept on the server.
 */
export function adminChallengeCookie(jar: CookieJar) {
  const name = 'ts_admin_challenge';
  return {
    set: (token: string, maxAgeSeconds: number) => jar.set(name, token, maxAgeSeconds),
    read: (event: APIGatewayProxyEventV2) => jar.read(event, name),
    clear: () => jar.clear(name),
  };
}
export type AdminChallengeCookie = ReturnType<typeof adminChallengeCookie>;

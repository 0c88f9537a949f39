/**
 * The `auth` route group's calls that every page makes or links to: who is
 * signed in, and signing out (the header's Logout). The rest of the group is
 * in `./auth.ts`, which names these too.
 */
import type { RouteDef } from '../api-routes';

export const getCurrentUser = {
  id: 'getCurrentUser',
  group: 'auth',
  method: 'GET',
  path: '/api/auth/user',
  auth: 'public',
} as const satisfies RouteDef;
export const logout = {
  id: 'logout',
  group: 'auth',
  method: 'GET',
  path: '/api/logout',
  auth: 'public',
} as const satisfies RouteDef;

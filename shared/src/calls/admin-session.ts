/** The `admin-session` route group's calls (`../api-routes.ts`). */
import type { RouteDef } from '../api-routes';

// Admin session
export const adminLogin = {
  id: 'adminLogin',
  group: 'admin-session',
  method: 'POST',
  path: '/api/admin/login',
  auth: 'public',
} as const satisfies RouteDef;
/**
 * The second step of an admin sign-in: the authenticator's code (setting the
 * authenticator up first when the answer to `adminLogin` asked for it). Public:
 * what it answers for is the short-lived challenge cookie `adminLogin` set.
 */
export const adminLoginCode = {
  id: 'adminLoginCode',
  group: 'admin-session',
  method: 'POST',
  path: '/api/admin/login/code',
  auth: 'public',
} as const satisfies RouteDef;
export const adminLogout = {
  id: 'adminLogout',
  group: 'admin-session',
  method: 'POST',
  path: '/api/admin/logout',
  auth: 'admin',
} as const satisfies RouteDef;
export const getCurrentAdmin = {
  id: 'getCurrentAdmin',
  group: 'admin-session',
  method: 'GET',
  path: '/api/admin/user',
  auth: 'admin',
} as const satisfies RouteDef;
export const adminChangePassword = {
  id: 'adminChangePassword',
  group: 'admin-session',
  method: 'PUT',
  path: '/api/admin/change-password',
  auth: 'admin',
} as const satisfies RouteDef;

/** The `auth` route group's calls (`../api-routes.ts`). */
import type { RouteDef } from '../api-routes';

// Every page's: in a module of their own, so a page's first code carries these two and not the forms' calls.
export { getCurrentUser, logout } from './auth-session';

// Accounts (spec 1 section 7, spec 2 public calls)
export const login = {
  id: 'login',
  group: 'auth',
  method: 'POST',
  path: '/api/auth/login',
  auth: 'public',
} as const satisfies RouteDef;
export const register = {
  id: 'register',
  group: 'auth',
  method: 'POST',
  path: '/api/auth/register',
  auth: 'public',
} as const satisfies RouteDef;
export const requestPasswordReset = {
  id: 'requestPasswordReset',
  group: 'auth',
  method: 'POST',
  path: '/api/auth/request-password-reset',
  auth: 'public',
} as const satisfies RouteDef;
export const resetPassword = {
  id: 'resetPassword',
  group: 'auth',
  method: 'POST',
  path: '/api/auth/reset-password',
  auth: 'public',
} as const satisfies RouteDef;
export const verifyEmail = {
  id: 'verifyEmail',
  group: 'auth',
  method: 'GET',
  path: '/api/auth/verify-email/{token}',
  auth: 'public',
} as const satisfies RouteDef;
export const resendVerification = {
  id: 'resendVerification',
  group: 'auth',
  method: 'POST',
  path: '/api/auth/resend-verification',
  auth: 'public',
} as const satisfies RouteDef;
export const updateEmail = {
  id: 'updateEmail',
  group: 'auth',
  method: 'PUT',
  path: '/api/user/email',
  auth: 'user',
} as const satisfies RouteDef;
export const updatePassword = {
  id: 'updatePassword',
  group: 'auth',
  method: 'PUT',
  path: '/api/user/password',
  auth: 'user',
} as const satisfies RouteDef;
// Own your music: delete the account (password checked), everything of it goes.
export const deleteAccount = {
  id: 'deleteAccount',
  group: 'auth',
  method: 'DELETE',
  path: '/api/user',
  auth: 'user',
} as const satisfies RouteDef;

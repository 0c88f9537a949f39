import { type QueryClient, queryOptions, useQuery } from '@tanstack/react-query';
import * as adminSessionCalls from '@tunesmith/shared/calls/admin-session';
import { AUTH_CACHE_MS } from '@tunesmith/shared/constants';
import { ApiError, apiRequest } from './api-client';

/** The signed-in administrator (spec 2: username and role). */
export interface Admin {
  username: string;
  role: string;
}

/** Every admin query lives under this prefix, so ending the session can drop them all. */
export const adminQueryPrefix = ['admin'] as const;
export const adminQueryKey = [...adminQueryPrefix, 'session'] as const;

/**
 * The current administrator, or null when no admin session is active. A 401
 * means signed out; any other failure is logged and treated the same way.
 */
export async function getAdmin(): Promise<Admin | null> {
  try {
    const admin = await apiRequest<Admin | null>(adminSessionCalls.getCurrentAdmin);
    return admin && typeof admin === 'object' && typeof admin.username === 'string' ? admin : null;
  } catch (error) {
    if (!(error instanceof ApiError && error.status === 401)) {
      console.warn('Admin session check failed:', error instanceof Error ? error.message : error);
    }
    return null;
  }
}

export const adminQueryOptions = () =>
  queryOptions({
    queryKey: adminQueryKey,
    queryFn: getAdmin,
    staleTime: AUTH_CACHE_MS,
    retry: false,
    refetchOnWindowFocus: false,
  });

/** The admin session: `isLoading` while it is checked, then `admin` (null when signed out). */
export function useAdmin() {
  const query = useQuery(adminQueryOptions());
  return { admin: query.data ?? null, isLoading: query.isPending };
}

/** Stores the administrator after signing in. */
export function setCurrentAdmin(queryClient: QueryClient, admin: Admin): void {
  queryClient.setQueryData(adminQueryKey, admin);
}

/**
 * Forgets everything cached for the admin area (the session has ended) and
 * records that nobody is signed in, so the login page does not send the
 * visitor back to the admin area.
 */
export function clearAdminSession(queryClient: QueryClient): void {
  queryClient.removeQueries({ queryKey: adminQueryPrefix });
  queryClient.setQueryData(adminQueryKey, null);
}

/** Ends the admin session on the server. */
export function adminLogout(): Promise<{ message?: string }> {
  return apiRequest<{ message?: string }>(adminSessionCalls.adminLogout);
}

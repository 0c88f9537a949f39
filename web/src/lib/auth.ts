import { type QueryClient, queryOptions, useQuery } from '@tanstack/react-query';
import { AUTH_CACHE_MS } from '@tunesmith/shared/constants';
import { apiPath } from '@tunesmith/shared/routes';
import { ApiError, apiRequest } from './api-client';

export type PlanStatus = 'free' | 'active' | 'cancelled' | 'inactive' | 'expired';

/**
 * The signed-in user as the client sees it (spec 1 section 3; the API sends
 * `CurrentUser` from `@tunesmith/shared/auth`). Read defensively: every field
 * but the names may be missing.
 */
export interface User {
  id?: string;
  email: string | null;
  firstName: string | null;
  lastName: string | null;
  emailVerified?: boolean;
  createdAt?: string;
  planStatus?: PlanStatus;
  subscriptionPlanId?: string | null;
  stripeSubscriptionId?: string | null;
  generationsUsedThisMonth?: number;
  planStartDate?: string | null;
  planEndDate?: string | null;
}

/**
 * The current user, or null for a visitor. A 401, or any other failure, means
 * anonymous; failures other than 401 are logged.
 */
export async function getUser(): Promise<User | null> {
  try {
    const user = await apiRequest<User | null>('getCurrentUser');
    return user && typeof user === 'object' ? user : null;
  } catch (error) {
    if (!(error instanceof ApiError && error.status === 401)) {
      console.warn(
        'Auth check failed; continuing as a visitor:',
        error instanceof Error ? error.message : error,
      );
    }
    return null;
  }
}

export const userQueryKey = ['auth', 'user'] as const;

export const userQueryOptions = () =>
  queryOptions({
    queryKey: userQueryKey,
    queryFn: getUser,
    staleTime: AUTH_CACHE_MS,
    retry: false,
    refetchOnWindowFocus: false,
  });

/**
 * Replaces the cached auth state: a user after signing in or changing the
 * account, null when the session has ended.
 */
export function setCurrentUser(queryClient: QueryClient, user: User | null): void {
  queryClient.setQueryData(userQueryKey, user);
}

/** The auth state: `isLoading` while unknown, then `user` (null for a visitor). */
export function useUser() {
  const query = useQuery(userQueryOptions());
  return { user: query.data ?? null, isLoading: query.isPending, isAuthenticated: Boolean(query.data) };
}

/** The name on the header's profile chip: first name, else email, else User. */
export function userDisplayName(user: Pick<User, 'firstName' | 'email'>): string {
  return user.firstName?.trim() || user.email?.trim() || 'User';
}

/**
 * Whether to offer Download rather than Upgrade to Download (spec 1 section 6:
 * the free plan cannot download). Only picks the button; the server decides.
 */
export function canDownloadTracks(user: Pick<User, 'planStatus'>): boolean {
  return user.planStatus !== 'free';
}

/**
 * Whether to offer Private when creating (the Terms: the free plan shares
 * publicly only). The server's rule is the same as for downloads, and it decides.
 */
export function canMakeTracksPrivate(user: Pick<User, 'planStatus'>): boolean {
  return canDownloadTracks(user);
}

/** Ends the session by full-page navigation, as the spec requires. */
export function logout(): void {
  window.location.assign(apiPath('logout'));
}

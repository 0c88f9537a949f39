import { type QueryClient, queryOptions, useQuery } from '@tanstack/react-query';
import { routePath } from '@tunesmith/shared/api-routes';
import type { Entitlements } from '@tunesmith/shared/auth';
import * as authCalls from '@tunesmith/shared/calls/auth-session';
import { AUTH_CACHE_MS, type BillingCycle } from '@tunesmith/shared/constants';
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
  /** The subscribed plan's name; null on the free plan. */
  planName?: string | null;
  billingCycle?: BillingCycle | null;
  /** The plan was given by an administrator: nothing is billed for it. */
  planGrantedBySite?: boolean;
  /** Stripe knows the user as a customer. */
  hasBillingAccount?: boolean;
  /** Stripe has held a subscription for the user: the portal has invoices to show (Billing History). */
  hasBillingHistory?: boolean;
  /** What the plan allows right now, as the server enforces it. */
  entitlements?: Entitlements;
  /** When this week's generation count starts again (ISO). */
  quotaResetsAt?: string;
}

/**
 * The signed-in hint (decision 023): a cookie without a secret that the server
 * sets beside the HttpOnly session cookies and clears with them (`__Host-`
 * prefixed over https). Without it nobody is signed in in this browser.
 */
const SIGNED_IN_HINT = 'ts_signed_in';
const hintNames = [SIGNED_IN_HINT, `__Host-${SIGNED_IN_HINT}`];

/** Whether this browser may hold a session: the hint cookie is present. */
export function hasSignedInHint(): boolean {
  return document.cookie
    .split(';')
    .some((part) => hintNames.includes(part.slice(0, Math.max(0, part.indexOf('='))).trim()));
}

/** Forgets the hint, once the server has said there is no session. */
export function clearSignedInHint(): void {
  // biome-ignore lint/suspicious/noDocumentCookie: the Cookie Store API is not in every browser we serve
  document.cookie = `${SIGNED_IN_HINT}=; Max-Age=0; Expires=Thu, 01 Jan 1970 00:00:00 GMT; Path=/; SameSite=Lax`;
  if (window.location.protocol === 'https:')
    // biome-ignore lint/suspicious/noDocumentCookie: as above
    document.cookie = `__Host-${SIGNED_IN_HINT}=; Max-Age=0; Expires=Thu, 01 Jan 1970 00:00:00 GMT; Path=/; Secure; SameSite=Lax`;
}

/**
 * The current user, or null for a visitor. Without the signed-in hint nothing
 * is asked (a visitor's page makes no call that must fail). A 401, or any
 * other failure, means anonymous; a 401 also clears the hint, and failures
 * other than 401 are logged.
 */
export async function getUser(): Promise<User | null> {
  if (!hasSignedInHint()) return null;
  try {
    const user = await apiRequest<User | null>(authCalls.getCurrentUser);
    return user && typeof user === 'object' ? user : null;
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) clearSignedInHint();
    else {
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
 * Whether to offer Download rather than Upgrade to Download. Follows the
 * server's entitlements (a cancelled plan keeps downloads until its period
 * ends; inactive and expired plans do not), so the screens agree with what the
 * server enforces. Without them, nothing is offered: the server decides.
 */
export function canDownloadTracks(user: Pick<User, 'entitlements'>): boolean {
  return user.entitlements?.canDownload === true;
}

/**
 * Whether to offer Private when creating or in the library (the Terms: the
 * free plan shares publicly only). Follows the server's entitlements, as
 * {@link canDownloadTracks} does.
 */
export function canMakeTracksPrivate(user: Pick<User, 'entitlements'>): boolean {
  return user.entitlements?.canPrivate === true;
}

/** Ends the session by full-page navigation, as the spec requires. */
export function logout(): void {
  window.location.assign(routePath(authCalls.logout));
}

import { queryOptions, useQuery } from '@tanstack/react-query';
import * as authCalls from '@tunesmith/shared/calls/auth';
import { apiRequest } from '@/lib/api-client';

export interface VerifyEmailAnswer {
  message?: string;
  user?: { firstName?: string | null };
}

/** Confirms the address with the mailed token. The token works once. */
export function verifyEmail(token: string): Promise<VerifyEmailAnswer> {
  return apiRequest<VerifyEmailAnswer>(authCalls.verifyEmail, { params: { token } });
}

/**
 * The verification, run once per token: the answer stays cached and is never
 * refetched, and a second mount (React StrictMode, navigating back) shares the
 * same request instead of spending the token again.
 */
export const verifyEmailQueryOptions = (token: string) =>
  queryOptions({
    queryKey: ['verify-email', token],
    queryFn: () => verifyEmail(token),
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: Number.POSITIVE_INFINITY,
    retry: false,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
    refetchOnMount: false,
  });

export function useVerifyEmail(token: string, enabled: boolean) {
  return useQuery({ ...verifyEmailQueryOptions(token), enabled });
}

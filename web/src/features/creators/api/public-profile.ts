import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import * as communityCalls from '@tunesmith/shared/calls/community';
import type { PublicProfile, PublicProfileInput } from '@tunesmith/shared/community';
import { ApiError, apiRequest } from '@/lib/api-client';

export const myPublicProfileKey = ['public-profile'] as const;

/** The user's own public profile; null while they are private (the API answers 404). */
export async function getMyPublicProfile(): Promise<PublicProfile | null> {
  try {
    return await apiRequest<PublicProfile>(communityCalls.getMyPublicProfile);
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return null;
    throw error;
  }
}

export const myPublicProfileQueryOptions = () =>
  queryOptions({ queryKey: myPublicProfileKey, queryFn: getMyPublicProfile });

export function useMyPublicProfile() {
  return useQuery(myPublicProfileQueryOptions());
}

/** Chooses or changes the handle, display name and bio. */
export function useSetPublicProfile(options: {
  onSuccess?: (profile: PublicProfile) => void;
  onError?: (error: Error) => void;
}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: PublicProfileInput) =>
      apiRequest<PublicProfile>(communityCalls.setPublicProfile, { body: input }),
    onSuccess: (profile) => {
      queryClient.setQueryData(myPublicProfileKey, profile);
      options.onSuccess?.(profile);
    },
    onError: options.onError,
  });
}

/** Goes private again: the page, the handle and its followers go. */
export function useDeletePublicProfile(options: {
  onSuccess?: () => void;
  onError?: (error: Error) => void;
}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiRequest<void>(communityCalls.deletePublicProfile),
    onSuccess: () => {
      queryClient.setQueryData(myPublicProfileKey, null);
      options.onSuccess?.();
    },
    onError: options.onError,
  });
}

import { useMutation, useQueryClient } from '@tanstack/react-query';
import * as communityCalls from '@tunesmith/shared/calls/community';
import type { Creator, FollowState } from '@tunesmith/shared/community';
import { apiRequest } from '@/lib/api-client';
import { creatorKey } from './get-creator';
import { feedKey } from './get-feed';

/** Follows or unfollows; the creator's page shows the server's count, the feed reloads. */
export function useFollow(handle: string, options: { onError?: (error: Error) => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (follow: boolean) =>
      apiRequest<FollowState>(follow ? communityCalls.followCreator : communityCalls.unfollowCreator, {
        params: { handle },
      }),
    onSuccess: (state) => {
      queryClient.setQueryData<Creator>(creatorKey(handle), (data) =>
        data ? { ...data, followers: state.followers, followedByMe: state.following } : data,
      );
      void queryClient.invalidateQueries({ queryKey: feedKey });
    },
    onError: options.onError,
  });
}

import { useMutation, useQueryClient } from '@tanstack/react-query';
import * as authCalls from '@tunesmith/shared/calls/auth';
import { apiRequest } from '@/lib/api-client';
import { userQueryKey } from '@/lib/auth';

export interface UpdateEmailAnswer {
  /** What happens next: the link sent to the new address. */
  message?: string;
}

/** Asks to change the sign-in address; the server refuses one that another account uses. */
export function updateEmail(input: {
  newEmail: string;
  currentPassword: string;
}): Promise<UpdateEmailAnswer> {
  return apiRequest<UpdateEmailAnswer>(authCalls.updateEmail, { body: input });
}

/** Asks for the change; the user is reloaded (nothing changes until the new address confirms). */
export function useUpdateEmail(options: {
  onSuccess?: (answer: UpdateEmailAnswer) => void;
  onError?: (error: Error) => void;
}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateEmail,
    onSuccess: async (answer) => {
      options.onSuccess?.(answer ?? {});
      await queryClient.invalidateQueries({ queryKey: userQueryKey });
    },
    onError: options.onError,
  });
}

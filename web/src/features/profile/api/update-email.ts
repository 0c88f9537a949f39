import { useMutation, useQueryClient } from '@tanstack/react-query';
import { currentUserSchema } from '@tunesmith/shared/auth';
import { apiRequest } from '@/lib/api-client';
import { setCurrentUser, userQueryKey } from '@/lib/auth';

export interface UpdateEmailAnswer {
  message?: string;
  user?: unknown;
}

/** Changes the sign-in address; the server refuses one that another account uses. */
export function updateEmail(input: { newEmail: string }): Promise<UpdateEmailAnswer> {
  return apiRequest<UpdateEmailAnswer>('updateEmail', { body: input });
}

/** Changes the address, stores the refreshed user and reloads the auth state. */
export function useUpdateEmail(options: {
  onSuccess?: (answer: UpdateEmailAnswer) => void;
  onError?: (error: Error) => void;
}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateEmail,
    onSuccess: async (answer) => {
      const parsed = currentUserSchema.safeParse(answer?.user);
      if (parsed.success) setCurrentUser(queryClient, parsed.data);
      options.onSuccess?.(answer ?? {});
      await queryClient.invalidateQueries({ queryKey: userQueryKey });
    },
    onError: options.onError,
  });
}

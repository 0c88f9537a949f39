import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { LoginInput } from '@tunesmith/shared/auth';
import * as authCalls from '@tunesmith/shared/calls/auth';
import { apiRequest } from '@/lib/api-client';
import { setCurrentUser, type User, userQueryKey } from '@/lib/auth';

/** Signs in; the session lives in HttpOnly cookies and the answer is the user. */
export function login(input: LoginInput): Promise<unknown> {
  return apiRequest<unknown>(authCalls.login, { body: input });
}

/**
 * Signs in and stores the user as the auth state. An answer that does not
 * look like a user makes the auth state reload instead.
 */
export function useLogin(options: {
  /** Receives the signed-in user when the answer is one. */
  onSuccess?: (user: User | undefined) => void;
  onError?: (error: Error, input: LoginInput) => void;
}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: login,
    onSuccess: async (answer) => {
      // The schemas load with the form's first use, not with the sign-in page (use-form.ts `lazySchema`).
      const { currentUserSchema } = await import('@tunesmith/shared/auth');
      const parsed = currentUserSchema.safeParse(answer);
      if (parsed.success) setCurrentUser(queryClient, parsed.data satisfies User);
      else await queryClient.invalidateQueries({ queryKey: userQueryKey });
      options.onSuccess?.(parsed.success ? parsed.data : undefined);
    },
    onError: (error, input) => options.onError?.(error, input),
  });
}

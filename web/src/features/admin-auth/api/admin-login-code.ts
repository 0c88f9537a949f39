import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type AdminCodeInput, type CurrentAdmin, currentAdminSchema } from '@tunesmith/shared/auth';
import * as adminSessionCalls from '@tunesmith/shared/calls/admin-session';
import { adminQueryKey, setCurrentAdmin } from '@/lib/admin-auth';
import { apiRequest } from '@/lib/api-client';

/** Sends the authenticator's code for the sign-in the challenge cookie names; the session's cookies come back. */
export function adminLoginCode(input: AdminCodeInput): Promise<unknown> {
  return apiRequest<unknown>(adminSessionCalls.adminLoginCode, { body: input });
}

/** The second-factor step: signs the administrator in and stores them. */
export function useAdminLoginCode(options: { onSignedIn: () => void; onError: (error: Error) => void }) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: adminLoginCode,
    onSuccess: async (answer) => {
      const parsed = currentAdminSchema.safeParse(answer);
      if (parsed.success) setCurrentAdmin(queryClient, parsed.data satisfies CurrentAdmin);
      else await queryClient.invalidateQueries({ queryKey: adminQueryKey });
      options.onSignedIn();
    },
    onError: options.onError,
  });
}

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type CurrentAdmin, currentAdminSchema } from '@tunesmith/shared/auth';
import * as adminSessionCalls from '@tunesmith/shared/calls/admin-session';
import { adminQueryKey, setCurrentAdmin } from '@/lib/admin-auth';
import { apiRequest } from '@/lib/api-client';

/** Signs an administrator in; the session lives in HttpOnly cookies. */
export function adminLogin(input: { username: string; password: string }): Promise<unknown> {
  return apiRequest<unknown>(adminSessionCalls.adminLogin, { body: input });
}

/** Signs in and stores the administrator; an unexpected answer reloads the session instead. */
export function useAdminLogin(options: { onSuccess?: () => void; onError?: (error: Error) => void }) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: adminLogin,
    onSuccess: async (answer) => {
      const parsed = currentAdminSchema.safeParse(answer);
      if (parsed.success) setCurrentAdmin(queryClient, parsed.data satisfies CurrentAdmin);
      else await queryClient.invalidateQueries({ queryKey: adminQueryKey });
      options.onSuccess?.();
    },
    onError: options.onError,
  });
}

import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  type AdminSecondFactor,
  adminSecondFactorSchema,
  type CurrentAdmin,
  currentAdminSchema,
} from '@tunesmith/shared/auth';
import * as adminSessionCalls from '@tunesmith/shared/calls/admin-session';
import { adminQueryKey, setCurrentAdmin } from '@/lib/admin-auth';
import { apiRequest } from '@/lib/api-client';

/**
 * Sends an administrator's username and password. A right password leads to
 * the second factor (decision 036): the server keeps the sign-in and gives
 * the browser an HttpOnly cookie for it; the session's cookies come after
 * the code.
 */
export function adminLogin(input: { username: string; password: string }): Promise<unknown> {
  return apiRequest<unknown>(adminSessionCalls.adminLogin, { body: input });
}

/** The password step: what comes next (the second factor), or, from a server without one, the admin. */
export function useAdminLogin(options: {
  onSecondFactor: (step: AdminSecondFactor) => void;
  onSignedIn: () => void;
  onError: (error: Error) => void;
}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: adminLogin,
    onSuccess: async (answer) => {
      const step = adminSecondFactorSchema.safeParse(answer);
      if (step.success) return options.onSecondFactor(step.data);
      const admin = currentAdminSchema.safeParse(answer);
      if (admin.success) setCurrentAdmin(queryClient, admin.data satisfies CurrentAdmin);
      else await queryClient.invalidateQueries({ queryKey: adminQueryKey });
      options.onSignedIn();
    },
    onError: options.onError,
  });
}

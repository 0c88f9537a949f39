import { useMutation } from '@tanstack/react-query';
import * as adminSessionCalls from '@tunesmith/shared/calls/admin-session';
import { apiRequest } from '@/lib/api-client';

export interface ChangeAdminPasswordInput {
  currentPassword: string;
  newPassword: string;
  confirmPassword: string;
}

/** Changes the administrator's password. Every admin session ends, this one included. */
export function changeAdminPassword(input: ChangeAdminPasswordInput): Promise<{ message?: string }> {
  return apiRequest<{ message?: string }>(adminSessionCalls.adminChangePassword, { body: input });
}

export function useChangeAdminPassword(options: {
  onSuccess?: (answer: { message?: string }) => void;
  onError?: (error: Error) => void;
}) {
  return useMutation({
    mutationFn: changeAdminPassword,
    onSuccess: (answer) => options.onSuccess?.(answer ?? {}),
    onError: options.onError,
  });
}

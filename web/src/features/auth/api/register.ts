import { useMutation } from '@tanstack/react-query';
import type { RegisterInput } from '@tunesmith/shared/auth';
import * as authCalls from '@tunesmith/shared/calls/auth';
import { apiRequest } from '@/lib/api-client';

export interface RegisterAnswer {
  email?: string;
  firstName?: string;
  message?: string;
}

/** Creates an account; the server mails a verification link. */
export function register(input: RegisterInput): Promise<RegisterAnswer> {
  return apiRequest<RegisterAnswer>(authCalls.register, { body: input });
}

export function useRegister(options: {
  onSuccess?: (answer: RegisterAnswer, input: RegisterInput) => void;
  onError?: (error: Error) => void;
}) {
  return useMutation({
    mutationFn: register,
    onSuccess: (answer, input) => options.onSuccess?.(answer ?? {}, input),
    onError: options.onError,
  });
}

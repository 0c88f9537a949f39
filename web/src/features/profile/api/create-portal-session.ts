import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';

/** Opens Stripe's customer portal; the browser is then sent to the returned url. */
export function createPortalSession(): Promise<{ url?: string | null }> {
  return apiRequest<{ url?: string | null }>('createPortalSession');
}

export function useCreatePortalSession(options: {
  onSuccess?: (answer: { url?: string | null }) => void;
  onError?: (error: Error) => void;
}) {
  return useMutation({
    mutationFn: createPortalSession,
    onSuccess: (answer) => options.onSuccess?.(answer ?? {}),
    onError: options.onError,
  });
}

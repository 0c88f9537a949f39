import { useQueryClient } from '@tanstack/react-query';
import { UNAUTHORIZED_REDIRECT_MS } from '@tunesmith/shared/constants';
import { messages } from '@tunesmith/shared/messages';
import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { isUnauthorizedError } from './api-client';
import { setCurrentUser } from './auth';
import { toast } from './toast';

/**
 * Handles an error that says the session has ended (401 Unauthorized): shows
 * the spec's toast, then after {@link UNAUTHORIZED_REDIRECT_MS} forgets the
 * session and goes to the sign-in page (`/auth`, or `/admin/login` for the
 * admin area). Returns whether the error was such an error, so callers can
 * handle the others.
 */
export function useUnauthorizedHandler(area: 'user' | 'admin' = 'user') {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  return useCallback(
    (error: unknown): boolean => {
      if (!isUnauthorizedError(error)) return false;
      toast({
        title: messages.unauthorized.title,
        description: messages.unauthorized.text,
        variant: 'destructive',
      });
      window.setTimeout(() => {
        if (area === 'admin') {
          // Loaded here: the admin area has it already, and a visitor's pages need not.
          // Its sign-in page is reached even should that chunk fail to load.
          void import('./admin-auth')
            .then(({ clearAdminSession }) => clearAdminSession(queryClient))
            .catch(() => {})
            .finally(() => navigate('/admin/login', { replace: true }));
        } else {
          setCurrentUser(queryClient, null);
          navigate('/auth', { replace: true });
        }
      }, UNAUTHORIZED_REDIRECT_MS);
      return true;
    },
    [area, navigate, queryClient],
  );
}

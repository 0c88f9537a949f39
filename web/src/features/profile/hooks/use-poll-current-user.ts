import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { type User, userQueryKey, useUser } from '@/lib/auth';

export type PollState = 'idle' | 'polling' | 'done' | 'timed-out';

export interface PollCurrentUserOptions {
  /** Polls while true (and the user is not yet as awaited); false stops and resets. */
  active: boolean;
  /** The user the poll waits for; it stops as soon as the current user matches. */
  until: (user: User | null) => boolean;
  intervalMs: number;
  /** Gives up after this long, counted from when polling started. */
  timeoutMs: number;
}

/**
 * Reloads the current user every `intervalMs` until it matches `until` or
 * `timeoutMs` has passed. Stripe's webhook, not the redirect or the call that
 * started a change, updates a user's plan, so screens wait for it this way.
 */
export function usePollCurrentUser({
  active,
  until,
  intervalMs,
  timeoutMs,
}: PollCurrentUserOptions): PollState {
  const queryClient = useQueryClient();
  const { user } = useUser();
  const reached = until(user);
  const [timedOut, setTimedOut] = useState(false);

  useEffect(() => {
    if (!active) {
      setTimedOut(false);
      return;
    }
    if (reached || timedOut) return;
    const poll = window.setInterval(() => {
      // An answer still on its way is awaited rather than cancelled, so a slow server still counts.
      void queryClient.refetchQueries({ queryKey: userQueryKey, exact: true }, { cancelRefetch: false });
    }, intervalMs);
    const deadline = window.setTimeout(() => {
      // Stop at once, not when the screen next renders.
      window.clearInterval(poll);
      setTimedOut(true);
    }, timeoutMs);
    return () => {
      window.clearInterval(poll);
      window.clearTimeout(deadline);
    };
  }, [active, reached, timedOut, intervalMs, timeoutMs, queryClient]);

  if (!active) return 'idle';
  if (reached) return 'done';
  return timedOut ? 'timed-out' : 'polling';
}

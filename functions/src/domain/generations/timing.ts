import { usualGenerationSeconds } from '@tunesmith/shared/generation-values';
import type { MusicJobStatus } from './music-provider';

/** The shortest and longest wait for the webhook, in seconds. */
export const MIN_CALLBACK_WAIT_SECONDS = 60;
export const MAX_CALLBACK_WAIT_SECONDS = 600;

/** Waits for the webhook, each followed by one status check, before a job is given up. */
export const MAX_CALLBACK_WAITS = 4;

/**
 * How long the workflow waits for the provider's webhook before asking the
 * provider itself: twice the usual time for the requested duration, between
 * one and ten minutes. A lost webhook is noticed soon after a short track
 * should have been done, and a long track is not hurried.
 */
export function callbackWaitSeconds(duration: number | null): number {
  const { high } = usualGenerationSeconds(duration ?? 0);
  return Math.min(MAX_CALLBACK_WAIT_SECONDS, Math.max(MIN_CALLBACK_WAIT_SECONDS, 2 * high));
}

/**
 * What to do when a wait ended without the webhook: finish a completed job;
 * wait again while the provider still has it queued or running (a busy queue
 * is not a failure), up to {@link MAX_CALLBACK_WAITS} waits; then give up.
 */
export function afterCallbackWait(
  status: MusicJobStatus,
  waitsSoFar: number,
): 'finish' | 'wait-again' | 'give-up' {
  if (status === 'completed') return 'finish';
  return waitsSoFar < MAX_CALLBACK_WAITS ? 'wait-again' : 'give-up';
}

/**
 * Resolves in a later task of the main thread, so that the browser can paint and answer a
 * tap in between: `scheduler.yield()` where the browser has it (the rest goes first in the
 * queue), else a zero timeout.
 */
export function nextTask(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler;
  if (typeof scheduler?.yield === 'function') return scheduler.yield();
  return new Promise((resolve) => setTimeout(resolve, 0));
}

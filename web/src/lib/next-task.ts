/**
 * Resolves in a later task of the main thread, so that the browser can paint and answer a
 * tap in between: `scheduler.yield()` where the browser has it (the rest goes first in the
 * queue), else a zero timeout.
 */
export const nextTask = (): Promise<void> =>
  (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler?.yield?.() ??
  new Promise((resolve) => setTimeout(resolve));

/** How long a long computation runs before other work gets a turn (the local cloud serves the API meanwhile). */
const SLICE_MS = 20;

/**
 * Runs a generator of steps to its end, giving the event loop a turn every
 * {@link SLICE_MS}: loudness, encoding and the like take seconds on a long
 * track, and the local cloud runs them in the process that answers requests.
 */
export async function runInSlices<T>(steps: Generator<void, T, void>): Promise<T> {
  let until = Date.now() + SLICE_MS;
  for (;;) {
    const next = steps.next();
    if (next.done) return next.value;
    if (Date.now() >= until) {
      await new Promise((resolve) => setImmediate(resolve));
      until = Date.now() + SLICE_MS;
    }
  }
}

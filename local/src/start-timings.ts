/**
 * Where `npm start`'s time goes: with `TUNESMITH_START_TIMINGS=1` each step
 * of the start-up prints `[start] <step> <ms>` on stderr, the milliseconds
 * since this process began (Node's own start included). `npm run bench --
 * start` reads these lines for its breakdown.
 */
const enabled = Boolean(process.env.TUNESMITH_START_TIMINGS);

/** Notes that a step of the start-up has finished. */
export function startStep(step: string): void {
  if (enabled) process.stderr.write(`[start] ${step} ${Math.round(performance.now())}\n`);
}

/** Passes a promise's value through, noting when it settled successfully. */
export function timed<T>(step: string, promise: Promise<T>): Promise<T> {
  if (!enabled) return promise;
  return promise.then((value) => {
    startStep(step);
    return value;
  });
}

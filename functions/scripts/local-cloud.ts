/**
 * For scripts that act on the running local cloud (`--local`): its
 * environment, found through `local-cloud.json` in its data directory
 * (`.data`, or TUNESMITH_DATA_DIR from the environment or `.env`).
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseEnv } from 'node:util';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

/** A mistake of the caller's: its message is printed as is, without a stack. */
export class UsageError extends Error {}

/** The data directory `npm start` uses: TUNESMITH_DATA_DIR from the environment or `.env`, else `.data`. */
function localDataDir(env: NodeJS.ProcessEnv): string {
  let dir = env.TUNESMITH_DATA_DIR;
  const envFile = path.join(repoRoot, '.env');
  // Only this one setting is taken from .env: its other values are the emulators', not AWS's.
  if (!dir && existsSync(envFile)) dir = parseEnv(readFileSync(envFile, 'utf8')).TUNESMITH_DATA_DIR;
  return path.resolve(dir || path.join(repoRoot, '.data'));
}

const isRunning = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/**
 * The environment the running local cloud gave its handlers, and its URL.
 * Throws a {@link UsageError} when no cloud runs there or it lacks one of `needed`.
 */
export function runningLocalCloud(
  env: NodeJS.ProcessEnv,
  needed: readonly string[],
): { env: Record<string, string>; url?: string } {
  const dataDir = localDataDir(env);
  const stateFile = path.join(dataDir, 'local-cloud.json');
  if (!existsSync(stateFile)) {
    throw new UsageError(
      `No local cloud found in ${dataDir} (no local-cloud.json). Start one with npm start, or set TUNESMITH_DATA_DIR to its data directory.`,
    );
  }
  const state = JSON.parse(readFileSync(stateFile, 'utf8')) as {
    running?: { pid?: number; url?: string; env?: Record<string, string> };
  };
  const running = state.running;
  if (!running?.env || typeof running.pid !== 'number' || !isRunning(running.pid)) {
    throw new UsageError(
      `The local cloud in ${dataDir} is not running. Start it with npm start (in another terminal), then run this again.`,
    );
  }
  const missing = needed.filter((name) => !running.env?.[name]);
  if (missing.length) {
    throw new UsageError(`${stateFile} lacks ${missing.join(', ')}: restart the local cloud with npm start.`);
  }
  return { env: running.env, ...(running.url ? { url: running.url } : {}) };
}

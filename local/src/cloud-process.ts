import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { LocalCloud, LocalCloudOptions } from './cloud';
import { localCloudEntry } from './compiled.mjs';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

/**
 * Starts a local cloud in a child process, for callers that need a cloud
 * beside another one (test runners whose global setups share a process).
 * `pids` lists that process first, then its emulators. The cloud also stops
 * when this process dies. It runs serve.ts compiled as `npm start` runs start.ts (compiled.mjs).
 * `nodeArgs` go to that process's Node alone (not to its emulators), e.g. `--cpu-prof`
 * for the bench: its profile is written when the cloud stops.
 */
export async function startLocalCloudProcess(
  options: LocalCloudOptions,
  nodeArgs: string[] = [],
): Promise<LocalCloud> {
  const serveFile = await localCloudEntry('serve');
  const child = spawn(
    process.execPath,
    [...nodeArgs, '--enable-source-maps', serveFile, JSON.stringify(options)],
    {
      cwd: repoRoot,
      stdio: ['pipe', 'pipe', 'pipe'],
    },
  );
  child.stdin.on('error', () => {});
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let stderr = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk: string) => {
    stderr += chunk;
  });

  const lines = createInterface({ input: child.stdout });
  const line = await new Promise<string>((resolve, reject) => {
    lines.once('line', resolve);
    exited.then((code) =>
      reject(
        new Error(`The local cloud process exited (code ${code}) before it was ready:\n${stderr.trim()}`),
      ),
    );
  });
  // From here on its messages are the caller's to see.
  lines.close();
  child.stdout.pipe(process.stdout);
  child.stderr.removeAllListeners('data');
  child.stderr.pipe(process.stderr);
  const started = JSON.parse(line) as Pick<LocalCloud, 'url' | 'env' | 'admin' | 'pids'>;

  let stopping: Promise<void> | undefined;
  return {
    ...started,
    pids: [child.pid as number, ...started.pids],
    stop() {
      stopping ??= (async () => {
        if (child.exitCode !== null || child.signalCode !== null) return;
        child.kill('SIGTERM');
        const timer = new Promise<'timeout'>((resolve) => setTimeout(resolve, 15_000, 'timeout').unref());
        if ((await Promise.race([exited, timer])) === 'timeout') {
          child.kill('SIGKILL');
          await exited;
        }
      })();
      return stopping;
    },
  };
}

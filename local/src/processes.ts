import { spawn } from 'node:child_process';
import { appendFileSync, closeSync, existsSync, openSync, readFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import { fileURLToPath, pathToFileURL } from 'node:url';

const guardFile = fileURLToPath(new URL('./child-guard.mjs', import.meta.url));

/** A child process of the local cloud, its output in a log file. */
export interface ManagedProcess {
  readonly name: string;
  readonly pid: number;
  readonly logFile: string;
  /** Resolves with the exit code (null after a signal) once the process has ended. */
  readonly exited: Promise<number | null>;
  hasExited(): boolean;
  /** Ends it (SIGTERM, then SIGKILL after a grace period) and waits for that. */
  stop(): Promise<void>;
  /** Asks it to end without waiting: for the parent's exit hook. */
  signal(): void;
}

export interface SpawnSpec {
  /** Shown in errors: "DynamoDB Local". */
  name: string;
  /**
   * A Node script (run with this Node) or another executable; `endsWithStdin`: the
   * executable itself exits once its standard input closes, so it runs without child-guard.mjs.
   */
  run: { script: string } | { command: string; endsWithStdin?: boolean };
  args: string[];
  cwd: string;
  env?: NodeJS.ProcessEnv;
  logFile: string;
}

/**
 * The niceness of work that can wait: below this process, so that the app's own
 * process, which serves the page, gets the CPU first.
 */
export const CHILD_PRIORITY = 10;

/**
 * Lowers a just-spawned background child's CPU priority to CHILD_PRIORITY. On
 * Linux the niceness is per thread: set before the child starts its threads
 * (right after spawn), they inherit it, and so do the processes it starts.
 * Where the system refuses, the child simply runs at ours. (The emulators run
 * at ours: at a lower one, other work on a busy machine starves them, and the
 * API answers later.)
 */
export function lowerPriority(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    if (os.getPriority(pid) < CHILD_PRIORITY) os.setPriority(pid, CHILD_PRIORITY);
  } catch {
    // Gone already, or not allowed: it runs at our priority.
  }
}

/**
 * Starts a child that cannot outlive us: it runs under child-guard.mjs (or on its own,
 * when it watches its stdin itself), which ends it when our end of its stdin pipe closes,
 * however we die. Each child
 * gets its own process group so a terminal's Ctrl-C reaches only us and we
 * stop the children in order.
 */
export function spawnManaged(spec: SpawnSpec): ManagedProcess {
  // Truncated per start, so a failure's log tail is about this run.
  const log = openSync(spec.logFile, 'w');
  const [command, args] =
    'script' in spec.run
      ? [process.execPath, ['--import', pathToFileURL(guardFile).href, spec.run.script, ...spec.args]]
      : spec.run.endsWithStdin
        ? [spec.run.command, spec.args]
        : [process.execPath, [guardFile, spec.run.command, ...spec.args]];
  const child = spawn(command, args, {
    cwd: spec.cwd,
    env: spec.env ?? process.env,
    stdio: ['pipe', log, log],
    detached: true,
  });
  closeSync(log);
  // The pipe exists only so that it closes when we die; never written to.
  child.stdin?.on('error', () => {});

  let done = false;
  const exited = new Promise<number | null>((resolve) => {
    child.once('exit', (code) => {
      done = true;
      resolve(code);
    });
    child.once('error', (error) => {
      done = true;
      // A command that could not be started: said where the guard would say it, in the log a
      // failed start quotes. (Node also emits 'error' when a signal cannot be sent: not that.)
      if (child.pid === undefined) appendFileSync(spec.logFile, `cannot run ${command}: ${error.message}\n`);
      resolve(null);
    });
  });
  if (child.pid === undefined) done = true;

  let stopping: Promise<void> | undefined;
  return {
    name: spec.name,
    pid: child.pid ?? -1,
    logFile: spec.logFile,
    exited,
    hasExited: () => done,
    signal: () => {
      if (!done) child.kill('SIGTERM');
    },
    stop() {
      stopping ??= (async () => {
        if (done) return;
        child.kill('SIGTERM');
        const timer = new Promise<'timeout'>((resolve) => setTimeout(resolve, 5000, 'timeout').unref());
        if ((await Promise.race([exited, timer])) === 'timeout') {
          child.kill('SIGKILL');
          await exited;
        }
      })();
      return stopping;
    },
  };
}

/** The last lines of a log file, for error messages. */
export function logTail(file: string, lines = 20): string {
  if (!existsSync(file)) return '(no log written)';
  const text = readFileSync(file, 'utf8').trimEnd();
  return text ? text.split('\n').slice(-lines).join('\n') : '(log is empty)';
}

/**
 * Polls `probe` until it answers true, every `intervalMs` (50). Fails early if the process exits and
 * after `timeoutMs` otherwise, naming the emulator and its log either way.
 */
export async function waitUntilReady(
  name: string,
  probe: () => Promise<boolean>,
  options: { process?: ManagedProcess; logFile?: string; timeoutMs?: number; intervalMs?: number } = {},
): Promise<void> {
  const timeoutMs = options.timeoutMs ?? 60_000;
  const intervalMs = options.intervalMs ?? 50;
  const logFile = options.logFile ?? options.process?.logFile;
  const describe = (what: string) =>
    logFile ? `${name} ${what}. Its log (${logFile}) ends with:\n${logTail(logFile)}` : `${name} ${what}.`;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (options.process?.hasExited()) {
      throw new Error(describe(`exited during startup (code ${await options.process.exited})`));
    }
    if (await probe().catch(() => false)) return;
    if (Date.now() > deadline) throw new Error(describe(`was not ready after ${timeoutMs / 1000} s`));
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/** A TCP port on 127.0.0.1 that is free right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** What a child says when the port it was given is taken: Node's and Java's words. */
export const portTaken = /EADDRINUSE|Address already in use/;

/**
 * Starts a child process that listens on a port we choose: the one asked for,
 * or a free one. A port found free can be taken before the child binds it
 * (another cloud starting, or the local end of any outgoing connection), so on
 * a chosen port the start is tried again on another when the child says so.
 */
export async function onPort<T>(wanted: number | undefined, start: (port: number) => Promise<T>): Promise<T> {
  if (wanted) return start(wanted);
  for (let attempt = 1; ; attempt++) {
    try {
      return await start(await freePort());
    } catch (error) {
      if (attempt >= 3 || !portTaken.test(String((error as Error)?.message))) throw error;
    }
  }
}

/**
 * The port to use for a service: the one asked for after checking it is free
 * (with an error that says which setting to change), or 0 for none asked: the
 * service binds a free one itself, or picks one with `onPort`.
 */
export async function choosePort(wanted: number | undefined, name: string, setting: string): Promise<number> {
  if (!wanted) return 0;
  await new Promise<void>((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        new Error(
          error.code === 'EADDRINUSE'
            ? `Port ${wanted} for ${name} is in use (is another local cloud running?). Stop it or set ${setting}.`
            : `Port ${wanted} for ${name}: ${error.message}`,
        ),
      ),
    );
    server.listen(wanted, '127.0.0.1', () => server.close(() => resolve()));
  });
  return wanted;
}

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CHILD_PRIORITY, lowerPriority, onPort, spawnManaged, waitUntilReady } from './processes';

const dir = mkdtempSync(path.join(os.tmpdir(), 'tunesmith-processes-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('waitUntilReady', () => {
  it('names the emulator and quotes its log when it is not ready in time', async () => {
    const logFile = path.join(dir, 'slow.log');
    writeFileSync(logFile, 'starting\nstill starting\n');

    const waiting = waitUntilReady('Slow Emulator', async () => false, { logFile, timeoutMs: 200 });

    await expect(waiting).rejects.toThrow(/Slow Emulator was not ready after 0.2 s/);
    await expect(waiting).rejects.toThrow(logFile);
    await expect(waiting).rejects.toThrow(/still starting/);
  });

  it('fails at once, with the reason from the log, when the command cannot run', async () => {
    const child = spawnManaged({
      name: 'Missing Runtime',
      run: { command: 'tunesmith-no-such-command' },
      args: [],
      cwd: dir,
      logFile: path.join(dir, 'missing.log'),
    });

    const waiting = waitUntilReady('Missing Runtime', async () => false, {
      process: child,
      timeoutMs: 30_000,
    });

    await expect(waiting).rejects.toThrow(/Missing Runtime exited during startup \(code 127\)/);
    await expect(waiting).rejects.toThrow(/cannot run tunesmith-no-such-command/);
  });

  it('says why in the log too when a command that watches its own stdin cannot run', async () => {
    const child = spawnManaged({
      name: 'Missing Runtime',
      run: { command: 'tunesmith-no-such-command', endsWithStdin: true },
      args: [],
      cwd: dir,
      logFile: path.join(dir, 'missing-direct.log'),
    });

    const waiting = waitUntilReady('Missing Runtime', async () => false, {
      process: child,
      timeoutMs: 30_000,
    });

    await expect(waiting).rejects.toThrow(/Missing Runtime exited during startup/);
    await expect(waiting).rejects.toThrow(/cannot run tunesmith-no-such-command: .*ENOENT/);
  });
});

describe('spawnManaged', () => {
  it('runs a command that watches its own stdin as our own child, with no guard process between', async () => {
    const logFile = path.join(dir, 'direct.log');
    const child = spawnManaged({
      name: 'direct',
      run: { command: 'sh', endsWithStdin: true },
      args: ['-c', 'echo parent=$PPID; cat > /dev/null'],
      cwd: dir,
      logFile,
    });
    await waitUntilReady('direct', async () => readFileSync(logFile, 'utf8').includes('parent='), {
      process: child,
      intervalMs: 10,
    });

    expect(readFileSync(logFile, 'utf8')).toContain(`parent=${process.pid}\n`);
    // Its stdin is a pipe that stays open while we run (cat is still reading it).
    expect(child.hasExited()).toBe(false);
    await child.stop();
    expect(child.hasExited()).toBe(true);
  });

  it('puts child-guard.mjs between us and any other command', async () => {
    const logFile = path.join(dir, 'guarded.log');
    const child = spawnManaged({
      name: 'guarded',
      run: { command: 'sh' },
      args: ['-c', 'echo parent=$PPID'],
      cwd: dir,
      logFile,
    });
    await child.exited;

    const parent = Number(/parent=(\d+)/.exec(readFileSync(logFile, 'utf8'))?.[1]);
    expect(parent).toBe(child.pid);
    expect(parent).not.toBe(process.pid);
  });
});

describe('onPort', () => {
  const taken = () =>
    new Error(
      'DynamoDB Local exited during startup. Its log ends with:\njava.net.BindException: Address already in use',
    );

  it('starts again on another free port when the chosen one was taken before the child bound it', async () => {
    const tried: number[] = [];
    const started = await onPort(undefined, async (port) => {
      tried.push(port);
      if (tried.length === 1) throw taken();
      return port;
    });

    expect(tried).toHaveLength(2);
    expect(tried.every((port) => port > 0)).toBe(true);
    expect(started).toBe(tried[1]);
  });

  it('gives up after three taken ports with the last error', async () => {
    let attempts = 0;
    await expect(
      onPort(undefined, async () => {
        attempts++;
        throw new Error('listen EADDRINUSE: address already in use 127.0.0.1:43627');
      }),
    ).rejects.toThrow('EADDRINUSE');
    expect(attempts).toBe(3);
  });

  it('does not retry a port the user asked for, nor an error that is not about the port', async () => {
    let attempts = 0;
    await expect(
      onPort(8000, async (port) => {
        attempts++;
        expect(port).toBe(8000);
        throw taken();
      }),
    ).rejects.toThrow('Address already in use');
    await expect(
      onPort(undefined, async () => {
        attempts++;
        throw new Error('No DynamoDB Local jar');
      }),
    ).rejects.toThrow('No DynamoDB Local jar');
    expect(attempts).toBe(2);
  });
});

describe('lowerPriority', () => {
  /** The niceness of every thread of the process that runs `report`, written to its log. */
  const report = `
    const { readdirSync, readFileSync } = require('node:fs');
    const threads = readdirSync('/proc/self/task').map((task) => {
      const stat = readFileSync('/proc/self/task/' + task + '/stat', 'utf8');
      return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
    });
    console.log(JSON.stringify({ process: require('node:os').getPriority(), threads }));
  `;

  it.runIf(process.platform === 'linux' && os.getPriority() < CHILD_PRIORITY)(
    'runs a just-spawned child and every thread of it below our CPU priority',
    async () => {
      const logFile = path.join(dir, 'niceness.log');
      const child = spawnManaged({
        name: 'niceness',
        run: { command: process.execPath },
        args: ['-e', report],
        cwd: dir,
        logFile,
      });
      lowerPriority(child.pid);
      await child.exited;

      const seen = JSON.parse(readFileSync(logFile, 'utf8')) as { process: number; threads: number[] };
      expect(seen.process).toBe(CHILD_PRIORITY);
      expect(seen.threads.length).toBeGreaterThan(1);
      expect(new Set(seen.threads)).toEqual(new Set([CHILD_PRIORITY]));
    },
  );
});

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { spawnManaged, waitUntilReady } from './processes';

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
});

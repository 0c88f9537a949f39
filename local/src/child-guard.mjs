// Ties an emulator's life to the local cloud that started it. The parent keeps
// a pipe open to our stdin; when the parent dies for any reason (even SIGKILL)
// the pipe closes and we exit, so no emulator outlives `npm start` or a test run.
//
// Two ways to use it:
// - preload for Node emulators: `node --import <this file> emulator.js`
// - wrapper for anything else: `node <this file> java -jar ...` (forwards
//   SIGTERM/SIGINT to the command and exits with it)
import { spawn } from 'node:child_process';
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** Calls `callback` once the parent process is gone. */
function onParentGone(callback) {
  process.stdin.on('end', callback);
  process.stdin.on('close', callback);
  process.stdin.on('error', callback);
  process.stdin.resume();
}

const self = realpathSync(fileURLToPath(import.meta.url));
const main = process.argv[1] ? realpathSync(process.argv[1]) : '';

if (main === self) {
  const [command, ...args] = process.argv.slice(2);
  if (!command) {
    console.error('child-guard: no command given');
    process.exit(2);
  }
  const child = spawn(command, args, { stdio: ['ignore', 'inherit', 'inherit'] });
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    child.kill('SIGTERM');
    setTimeout(() => child.kill('SIGKILL'), 5000).unref();
  };
  child.on('error', (error) => {
    console.error(`child-guard: cannot run ${command}: ${error.message}`);
    process.exit(127);
  });
  child.on('exit', (code, signal) => process.exit(code ?? (signal === 'SIGTERM' ? 0 : 1)));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  onParentGone(stop);
} else {
  onParentGone(() => process.exit(0));
}

/**
 * `npm start`: the whole app on this machine. Flags: `--fresh` starts with
 * empty data, `--static` serves the built SPA (web/dist) instead of Vite.
 * `TUNESMITH_DATA_DIR` moves the data directory (default `.data`).
 */
import { accessSync, constants, existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type LocalCloud, startLocalCloud } from './cloud';
import { startStep } from './start-timings';

startStep('modules loaded');

const started = performance.now();
const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

// The SDK warns that its 2027 releases need Node 22; Lambda runs 22, and the
// warning would bury the URL this command exists to print.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

const envFile = path.join(repoRoot, '.env');
if (existsSync(envFile)) process.loadEnvFile(envFile);

function portFrom(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    console.error(`${name} must be a port number (0-65535), got "${raw}"`);
    process.exit(1);
  }
  return port;
}

/** Whether `name` is an executable file in a directory of PATH: found without starting it (a JVM takes a while). */
function onPath(name: string): boolean {
  const names = process.platform === 'win32' ? [`${name}.exe`, `${name}.cmd`, name] : [name];
  return (process.env.PATH ?? '').split(path.delimiter).some(
    (dir) =>
      dir !== '' &&
      names.some((file) => {
        const candidate = path.join(dir, file);
        try {
          accessSync(candidate, constants.X_OK);
          return statSync(candidate).isFile();
        } catch {
          return false;
        }
      }),
  );
}

if (!onPath('java')) {
  console.error(
    [
      'DynamoDB Local needs a Java runtime (17 or newer), and `java` was not found on the PATH.',
      'Install one, then run npm start again:',
      '  Debian/Ubuntu: sudo apt-get install -y openjdk-17-jre-headless',
      '  macOS:         brew install openjdk@17',
      '  Windows:       winget install Microsoft.OpenJDK.17',
    ].join('\n'),
  );
  process.exit(1);
}

startStep('java found');
const args = new Set(process.argv.slice(2));
let cloud: LocalCloud;
try {
  cloud = await startLocalCloud({
    port: portFrom('PORT', 3000),
    dataDir: process.env.TUNESMITH_DATA_DIR || path.join(repoRoot, '.data'),
    fresh: args.has('--fresh'),
    persist: true,
    web: args.has('--static') ? 'static' : 'dev',
    ports: {
      dynamodb: portFrom('DYNAMODB_PORT', 8600),
      s3: portFrom('S3_PORT', 8601),
      cognito: portFrom('COGNITO_PORT', 8602),
      ses: portFrom('SES_PORT', 8603),
      music: portFrom('MUSIC_PORT', 8604),
      stepfunctions: portFrom('STEPFUNCTIONS_PORT', 8605),
      stripe: portFrom('STRIPE_PORT', 8606),
      lambda: portFrom('LAMBDA_PORT', 8607),
    },
    // The page answers from here on; what needs the emulators waits for them (page-first.ts).
    onPageServed: (url) =>
      console.log(`Tunesmith is starting at ${url} (open it now; it is ready in a few seconds)`),
  });
} catch (error) {
  console.error(`Local cloud failed to start:\n${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}

const seconds = ((performance.now() - started) / 1000).toFixed(1);
console.log(`Tunesmith is running at ${cloud.url}`);
console.log(
  `Admin sign-in: ${cloud.admin.username} / ${cloud.admin.password}  (local only; kept in local-cloud.json in the data directory)`,
);
console.log(
  '  The first admin sign-in sets up an authenticator app (scan the QR code, or type the key) for the second factor.',
);
console.log(`Started in ${seconds} s. Press Ctrl-C to stop.`);

let stopping = false;
const shutdown = () => {
  // A second Ctrl-C does not wait; the exit hook still signals every child.
  if (stopping) process.exit(1);
  stopping = true;
  cloud.stop().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error('Stopping failed:', error);
      process.exit(1);
    },
  );
};
process.on('SIGINT', shutdown);
process.on('SIGTERM', shutdown);

#!/usr/bin/env node
// `npm test`: every check a reviewer would run, in one command that works offline.
// Steps: lint + format (Biome, with the boundary rules), type check, web build,
// then every vitest project (unit, integration, security, infra, web, e2e). Ends with the
// line `N passed, N failed` (a check step counts as one test).
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const bin = (name) => join(root, 'node_modules', '.bin', name);
const extra = process.argv.slice(2);

let passed = 0;
let failed = 0;

function step(label, command, args, options = {}) {
  const started = Date.now();
  console.log(`\n▶ ${label}`);
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', ...options });
  const ok = result.status === 0;
  console.log(`${ok ? '✔' : '✖'} ${label} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  return ok;
}

function check(label, command, args, options) {
  if (step(label, command, args, options)) passed++;
  else failed++;
}

check('lint and format (biome)', bin('biome'), ['ci', '.']);
check('type check (tsc)', bin('tsc'), ['-p', 'tsconfig.json', '--noEmit']);
check('web build (vite)', bin('vite'), ['build', '--logLevel', 'warn'], { cwd: join(root, 'web') });

const outDir = join(root, '.test-results');
rmSync(outDir, { recursive: true, force: true });
mkdirSync(outDir, { recursive: true });
const report = join(outDir, 'vitest.json');
const vitestOk = step('tests (vitest: unit, integration, security, infra, web, e2e)', bin('vitest'), [
  'run',
  '--reporter=default',
  '--reporter=json',
  `--outputFile.json=${report}`,
  ...extra,
]);

try {
  const json = JSON.parse(readFileSync(report, 'utf8'));
  passed += json.numPassedTests ?? 0;
  failed += json.numFailedTests ?? 0;
  // A suite that failed to load has no failed tests but must still fail the run.
  if (!vitestOk && (json.numFailedTests ?? 0) === 0) failed++;
} catch {
  failed++;
  console.log('No vitest report was written.');
}

console.log(`\n${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);

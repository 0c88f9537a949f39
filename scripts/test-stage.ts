/**
 * `npm run test:stage -- --stage dev [--allow-fal-cost] [--region <region>] [-- <vitest arguments>]`
 *
 * Runs the integration suite (`functions/test`) against a deployed stage: reads
 * the stack's outputs (scripts/stack-outputs.ts), then runs vitest's
 * integration project with them in the environment, so the tests reach the
 * stage's site over https, its table, buckets and pools with the default
 * credential chain, and its test mail sink. No local cloud is started. Tests
 * that need the local cloud's own powers are skipped with their reason; those
 * that would generate with the real fal run only with --allow-fal-cost.
 * After `--`, a path narrows the files (`-- functions/test/auth`) and the rest
 * goes to vitest as is (`-- -t "password reset"`).
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { CloudFormationClient } from '@aws-sdk/client-cloudformation';
import { ALLOW_FAL_COST } from '../functions/test/support/target';
import { readStageEnv, StageError, stackNameOf } from './stack-outputs';

const root = join(fileURLToPath(new URL('.', import.meta.url)), '..');

/** The vitest command line and the environment of a stage run. */
export function stageRun(
  stageEnv: Record<string, string>,
  options: { allowFalCost: boolean; extra: string[]; env: NodeJS.ProcessEnv },
): { args: string[]; env: NodeJS.ProcessEnv } {
  const [first] = options.extra;
  const files = first !== undefined && !first.startsWith('-') ? [] : ['functions/test'];
  return {
    args: ['run', '--project', 'integration', ...files, ...options.extra],
    env: {
      ...options.env,
      ...stageEnv,
      // The flag, never inherited by accident: only --allow-fal-cost (or the variable set to 1) pays.
      [ALLOW_FAL_COST]: options.allowFalCost || options.env[ALLOW_FAL_COST] === '1' ? '1' : '0',
    },
  };
}

async function main(): Promise<number> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      stage: { type: 'string', default: 'dev' },
      stack: { type: 'string' },
      region: { type: 'string' },
      'allow-fal-cost': { type: 'boolean', default: false },
    },
  });
  const stackName = values.stack ?? stackNameOf(values.stage);
  const stageEnv = await readStageEnv(
    stackName,
    new CloudFormationClient(values.region ? { region: values.region } : {}),
  );
  const run = stageRun(stageEnv, {
    allowFalCost: values['allow-fal-cost'],
    extra: positionals,
    env: process.env,
  });
  console.log(
    `Integration suite against ${stackName} (${stageEnv.AWS_REGION}): ${stageEnv.TUNESMITH_API_URL}, mail through ${stageEnv.MAIL_SINK_DOMAIN}; real fal ${run.env[ALLOW_FAL_COST] === '1' ? 'allowed (costs money)' : 'not called (--allow-fal-cost to allow)'}.`,
  );
  const result = spawnSync(join(root, 'node_modules', '.bin', 'vitest'), run.args, {
    cwd: root,
    stdio: 'inherit',
    env: run.env,
  });
  return result.status ?? 1;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main().then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(error instanceof StageError ? error.message : error);
      process.exit(1);
    },
  );
}

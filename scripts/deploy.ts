/**
 * `npm run deploy -- [cdk deploy arguments]`, e.g.
 * `npm run deploy -- -c stage=prod -c mailFrom="Tunesmith <no-reply@example.com>" ...`
 *
 * What `cdk deploy --all` needs to be safe to run (decision 035):
 * 1. the preflight of the stage the arguments name (dev when none): the
 *    account's Lambda concurrency must hold what the stage needs, or nothing
 *    is built or deployed and the way to ask AWS for more is printed;
 * 2. the SPA's build (`npm run build`);
 * 3. the version of the origin secret staged AWSCURRENT, read from the
 *    deployed stack's secret (output OriginSecretArn), as
 *    `-c originSecretVersion=...`, so a deploy after a new value was put
 *    updates the distribution with it (unless the arguments name one);
 * 4. `cdk deploy --all` with the arguments.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { CloudFormationClient, Stack } from '@aws-sdk/client-cloudformation';
import { DescribeSecretCommand, type SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { ORIGIN_SECRET_VERSION } from '../infra/lib/origin-secret';
import { stageNamed } from '../infra/lib/stages';
import { runPreflight } from './preflight';
import { describeStack, StageError } from './stack-outputs';

const root = join(fileURLToPath(new URL('.', import.meta.url)), '..');

/** The CDK context the arguments set (`-c key=value`, `--context key=value`, `--context=key=value`). */
export function contextOf(args: readonly string[]): Record<string, string> {
  const context: Record<string, string> = {};
  const add = (pair: string | undefined) => {
    const at = pair?.indexOf('=') ?? -1;
    if (pair && at > 0) context[pair.slice(0, at)] = pair.slice(at + 1);
  };
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i] as string;
    if (arg === '-c' || arg === '--context') {
      add(args[i + 1]);
      i += 1;
    } else if (arg.startsWith('--context=')) add(arg.slice('--context='.length));
  }
  return context;
}

/**
 * The id of the origin secret's version staged AWSCURRENT, or undefined
 * before the stage's first deploy (no stack, or a stack without the output).
 */
export async function currentOriginSecretVersion(
  stackName: string,
  clients: {
    cloudFormation: Pick<CloudFormationClient, 'send'>;
    secretsManager: Pick<SecretsManagerClient, 'send'>;
  },
): Promise<string | undefined> {
  let stack: Stack;
  try {
    stack = await describeStack(stackName, clients.cloudFormation);
  } catch (error) {
    if (error instanceof StageError) return undefined;
    throw error;
  }
  const arn = stack.Outputs?.find((o) => o.OutputKey === 'OriginSecretArn')?.OutputValue;
  if (!arn) return undefined;
  const secret = await clients.secretsManager.send(new DescribeSecretCommand({ SecretId: arn }));
  return Object.entries(secret.VersionIdsToStages ?? {}).find(([, stages]) =>
    stages.includes('AWSCURRENT'),
  )?.[0];
}

/** `cdk deploy --all` with the caller's arguments and, unless they name one, the origin secret's version. */
export function cdkDeployArgs(args: readonly string[], originSecretVersion: string | undefined): string[] {
  const extra =
    originSecretVersion && !(ORIGIN_SECRET_VERSION in contextOf(args))
      ? ['-c', `${ORIGIN_SECRET_VERSION}=${originSecretVersion}`]
      : [];
  return ['deploy', '--all', ...args, ...extra];
}

async function main(args: string[]): Promise<number> {
  // As the app reads it: an unknown stage stops here, before anything is asked of AWS.
  const stage = stageNamed(contextOf(args).stage);
  const { stackName } = stage;
  if (!(await runPreflight(stage.name))) return 1;
  const build = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) return build.status ?? 1;

  const { CloudFormationClient } = await import('@aws-sdk/client-cloudformation');
  const { SecretsManagerClient } = await import('@aws-sdk/client-secrets-manager');
  const region = process.env.AWS_REGION ?? process.env.AWS_DEFAULT_REGION;
  const config = region ? { region } : {};
  const cloudFormation = new CloudFormationClient(config);
  const secretsManager = new SecretsManagerClient(config);
  let version: string | undefined;
  try {
    version = await currentOriginSecretVersion(stackName, { cloudFormation, secretsManager });
  } finally {
    cloudFormation.destroy();
    secretsManager.destroy();
  }
  if (version) console.log(`CloudFront will send the origin secret's version ${version} (AWSCURRENT).`);

  const result = spawnSync(join(root, 'node_modules', '.bin', 'cdk'), cdkDeployArgs(args, version), {
    cwd: root,
    stdio: 'inherit',
  });
  return result.status ?? 1;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error: unknown) => {
      // The caller's mistakes and AWS's refusals (no credentials, no region, access denied) as one line each.
      console.error(error instanceof Error ? error.message : error);
      process.exit(1);
    },
  );
}

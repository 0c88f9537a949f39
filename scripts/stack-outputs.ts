/**
 * `npm run stage:env -- --stage dev [--format shell|dotenv|json] [--out <file>]`
 *
 * Reads a deployed stage's CloudFormation outputs (DescribeStacks, with the
 * default credential chain; the region from AWS_REGION, the profile, or
 * `--region`) and prints the environment the integration suite needs to run
 * against that stage: TUNESMITH_API_URL (the site through CloudFront), the
 * table, buckets, user pools, settings key and test mail sink. `npm run
 * test:stage` uses it; on its own, `eval "$(npm run -s stage:env -- --stage dev)"`
 * sets up a shell for `npx vitest run --project integration functions/test`.
 */
import { writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { CloudFormationClient, DescribeStacksCommand, type Stack } from '@aws-sdk/client-cloudformation';
import { requiredStageEnv } from '../functions/test/support/target';
import { stages } from '../infra/lib/stages';

/** Each stack output the suite uses (infra/lib/tunesmith-stack.ts, mail-sink.ts) and the variable it becomes. */
export const outputVariables = {
  SiteUrl: 'TUNESMITH_API_URL',
  TableName: 'TABLE_NAME',
  UserPoolId: 'USER_POOL_ID',
  UserPoolClientId: 'USER_POOL_CLIENT_ID',
  AdminPoolId: 'ADMIN_POOL_ID',
  AdminPoolClientId: 'ADMIN_POOL_CLIENT_ID',
  UploadsBucketName: 'UPLOADS_BUCKET',
  TracksBucketName: 'TRACKS_BUCKET',
  SettingsKeyArn: 'SETTINGS_KMS_KEY_ID',
  StripeSecretArn: 'STRIPE_SECRET_ARN',
  GenerationStateMachineArn: 'STATE_MACHINE_ARN',
  MailSinkBucketName: 'MAIL_SINK_BUCKET',
  MailSinkPrefix: 'MAIL_SINK_PREFIX',
  MailSinkDomain: 'MAIL_SINK_DOMAIN',
} as const;

/** A mistake of the caller's or the stage's: printed as is, without a stack. */
export class StageError extends Error {}

/** The stack of a stage (`Tunesmith-dev`, ...), as `cdk deploy -c stage=<name>` names it. */
export function stackNameOf(stage: string): string {
  if (!(stage in stages)) {
    throw new StageError(`Unknown stage "${stage}": use --stage ${Object.keys(stages).join('|')}.`);
  }
  return stages[stage as keyof typeof stages].stackName;
}

/**
 * The suite's environment from a described stack: every output it uses under
 * its variable, and AWS_REGION from the stack's own ARN (so the suite talks to
 * the region the stage is in, whatever the profile says). Throws naming what
 * the stack lacks; a stage without a mail sink is told how to get one.
 */
export function stageEnvOf(stack: Pick<Stack, 'StackName' | 'StackId' | 'Outputs'>): Record<string, string> {
  const env: Record<string, string> = {};
  const region = regionOf(stack);
  if (region) env.AWS_REGION = region;
  for (const output of stack.Outputs ?? []) {
    const name = outputVariables[output.OutputKey as keyof typeof outputVariables];
    if (name && output.OutputValue) env[name] = output.OutputValue;
  }
  if (env.TUNESMITH_API_URL) env.TUNESMITH_API_URL = env.TUNESMITH_API_URL.replace(/\/+$/, '');
  if (!env.MAIL_SINK_BUCKET) {
    throw new StageError(
      `${stack.StackName} has no test mail sink, so the suite cannot read the mail it sends: deploy it with -c mailSinkDomain=<test domain> (docs/testing.md: the suite against a deployed stage).`,
    );
  }
  const byVariable = Object.fromEntries(
    Object.entries(outputVariables).map(([output, name]) => [name, output]),
  );
  const missing = ['TUNESMITH_API_URL', ...requiredStageEnv].filter((name) => !env[name]);
  if (missing.length) {
    throw new StageError(
      `${stack.StackName} lacks ${missing.map((name) => byVariable[name] ?? name).join(', ')}: deploy the current stack (npx cdk deploy -c stage=...).`,
    );
  }
  return env;
}

/** The region a stack is in, from its own ARN (not the profile's, which may be another). */
export function regionOf(stack: Pick<Stack, 'StackId'>): string | undefined {
  return /^arn:[^:]+:cloudformation:([^:]+):/.exec(stack.StackId ?? '')?.[1];
}

/** The stack as DescribeStacks tells it; a stack that is not there is a {@link StageError}. */
export async function describeStack(
  stackName: string,
  client: Pick<CloudFormationClient, 'send'>,
): Promise<Stack> {
  let stack: Stack | undefined;
  try {
    stack = (await client.send(new DescribeStacksCommand({ StackName: stackName }))).Stacks?.[0];
  } catch (error) {
    if ((error as { name?: string }).name === 'ValidationError') {
      throw new StageError(`No stack ${stackName} in this account and region: deploy it, or pass --region.`);
    }
    throw error;
  }
  if (!stack) throw new StageError(`No stack ${stackName} in this account and region.`);
  return stack;
}

/** Reads the stack's outputs with the default credential chain and maps them to the suite's environment. */
export async function readStageEnv(
  stackName: string,
  client: Pick<CloudFormationClient, 'send'> = new CloudFormationClient({}),
): Promise<Record<string, string>> {
  return stageEnvOf(await describeStack(stackName, client));
}

const quote = (value: string) => `'${value.replace(/'/g, `'\\''`)}'`;

/** The environment as shell `export` lines, `.env` lines or JSON. */
export function formatEnv(env: Record<string, string>, format: 'shell' | 'dotenv' | 'json'): string {
  if (format === 'json') return `${JSON.stringify(env, null, 2)}\n`;
  const lines = Object.entries(env).map(([name, value]) =>
    format === 'shell' ? `export ${name}=${quote(value)}` : `${name}=${JSON.stringify(value)}`,
  );
  return `${lines.join('\n')}\n`;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      stage: { type: 'string', default: 'dev' },
      stack: { type: 'string' },
      region: { type: 'string' },
      format: { type: 'string', default: 'shell' },
      out: { type: 'string' },
    },
  });
  const format = values.format as 'shell' | 'dotenv' | 'json';
  if (!['shell', 'dotenv', 'json'].includes(format))
    throw new StageError('--format is shell, dotenv or json.');
  const client = new CloudFormationClient(values.region ? { region: values.region } : {});
  const env = await readStageEnv(values.stack ?? stackNameOf(values.stage), client);
  const text = formatEnv(env, format);
  if (values.out) writeFileSync(values.out, text, { mode: 0o600 });
  else process.stdout.write(text);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main().catch((error: unknown) => {
    console.error(error instanceof StageError ? error.message : error);
    process.exit(1);
  });
}

/**
 * `npm run backfill -- <step> [--local | --stage <name> [--region <region>]] [--dry-run] [--before <ISO date>] [--after <ISO date>]`
 *
 * Brings tracks made before a feature up to what new tracks get, one step at
 * a time. Each step (scripts/backfill/*.ts) says what it needs and how it
 * runs; this runner reads the arguments, finds where to run it and prints
 * the help:
 *
 * - `--local`: the running local cloud (`npm start`).
 * - `--stage dev`: the deployed stage, from its stack's outputs (the default
 *   credential chain; the region from AWS_REGION, the profile, or `--region`).
 * - Neither: the step's names and AWS_REGION from the environment.
 *
 * Exits 1 on a usage error and when a track failed.
 */
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { CloudFormationClient } from '@aws-sdk/client-cloudformation';
import { runningLocalCloud, UsageError } from '../functions/scripts/local-cloud';
import { analysisStep } from './backfill/analysis';
import { filesStep } from './backfill/files';
import { lyricsStep } from './backfill/lyrics';
import { peaksStep } from './backfill/peaks';
import { playlistsStep } from './backfill/playlists';
import { sharePagesStep } from './backfill/share-pages';
import type { BackfillStep, StepOption, StepOptions, Target } from './backfill/step';
import { describeStack, regionOf, StageError, stackNameOf } from './stack-outputs';

/** Every step, in the order the help lists them. */
export const backfillSteps: readonly BackfillStep[] = [
  peaksStep,
  filesStep,
  sharePagesStep,
  analysisStep,
  lyricsStep,
  playlistsStep,
];

const WHERE = '[--local | --stage <name> [--region <region>]]';
const WHERE_HELP = `  --local          the running local cloud (npm start)
  --stage <name>   a deployed stage, found by its stack's outputs (AWS credentials as usual)
  --region <name>  the stage's region, when the profile's is another`;

const OPTIONS: readonly StepOption[] = ['dry-run', 'before', 'after'];
const SYNTAX: Record<StepOption, string> = {
  'dry-run': '[--dry-run]',
  before: '[--before <ISO date>]',
  after: '[--after <ISO date>]',
};
const FLAG: Record<StepOption, string> = {
  'dry-run': '--dry-run',
  before: '--before <date>',
  after: '--after <date>',
};

/** The runner's help: the steps and where they run. */
export function backfillUsage(steps: readonly BackfillStep[] = backfillSteps): string {
  const width = Math.max(...steps.map((step) => step.name.length)) + 3;
  return `Usage: npm run backfill -- <step> ${WHERE} ${OPTIONS.map((o) => SYNTAX[o]).join(' ')}

Brings tracks made before a feature up to what new tracks get. Every step is safe to stop and run again.

Steps:
${steps.map((step) => `  ${step.name.padEnd(width)}${step.summary}`).join('\n')}

${WHERE_HELP}

A step's own options and what it needs: npm run backfill -- <step> --help`;
}

/** The names a step cannot run without, AWS_REGION last. */
const neededBy = (step: BackfillStep): string[] => [
  ...Object.entries(step.environment)
    .filter(([, { optional }]) => !optional)
    .map(([name]) => name),
  'AWS_REGION',
];

/** The text in lines of at most `width` columns, as the rest of the help. */
function wrap(text: string, width = 100): string {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  return [...lines, line].join('\n');
}

const listed = (names: string[]): string =>
  names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names.at(-1)}` : (names[0] ?? '');

/** A step's help: its options and, without --local or --stage, the names it takes from the environment. */
export function stepUsage(step: BackfillStep): string {
  const taken = OPTIONS.filter((option) => step.options[option]);
  const optional = Object.entries(step.environment)
    .filter(([, { optional }]) => optional)
    .map(([name]) => name);
  return `Usage: npm run backfill -- ${[step.name, WHERE, ...taken.map((o) => SYNTAX[o])].join(' ')}

${step.description}

${[WHERE_HELP, ...taken.map((o) => `  ${FLAG[o].padEnd(17)}${step.options[o]}`)].join('\n')}

${wrap(`With neither --local nor --stage: ${listed(neededBy(step))}${optional.length ? ` (and ${listed(optional)})` : ''} from the environment.`)}`;
}

/** Where a step runs. */
export type Where =
  | { kind: 'local' }
  | { kind: 'stage'; stage: string; region?: string }
  | { kind: 'environment' };

export type BackfillArgs = { help: string } | { step: BackfillStep; where: Where; options: StepOptions };

const readArgs = (argv: string[]) =>
  parseArgs({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: {
      local: { type: 'boolean' },
      stage: { type: 'string' },
      region: { type: 'string' },
      'dry-run': { type: 'boolean' },
      before: { type: 'string' },
      after: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });

/** Reads `<step> [options]`; throws a {@link UsageError} with the help that fits. */
export function parseBackfillArgs(
  argv: string[],
  steps: readonly BackfillStep[] = backfillSteps,
): BackfillArgs {
  let parsed: ReturnType<typeof readArgs>;
  try {
    parsed = readArgs(argv);
  } catch (error) {
    const named = steps.find((step) => argv.includes(step.name));
    throw new UsageError(`${(error as Error).message}\n\n${named ? stepUsage(named) : backfillUsage(steps)}`);
  }
  const { values, positionals } = parsed;
  const [name, ...more] = positionals;
  if (!name) {
    if (values.help) return { help: backfillUsage(steps) };
    throw new UsageError(backfillUsage(steps));
  }
  const step = steps.find((candidate) => candidate.name === name);
  if (!step) throw new UsageError(`There is no step "${name}".\n\n${backfillUsage(steps)}`);
  const usage = stepUsage(step);
  if (more.length) throw new UsageError(`Unexpected argument "${more[0]}": one step at a time.\n\n${usage}`);
  if (values.help) return { help: usage };
  for (const option of OPTIONS)
    if (values[option] !== undefined && !step.options[option])
      throw new UsageError(`${name} takes no --${option}.\n\n${usage}`);
  if (values.local && values.stage !== undefined)
    throw new UsageError(`Give --local or --stage, not both.\n\n${usage}`);
  if (values.region !== undefined && values.stage === undefined)
    throw new UsageError(`--region is the stage's: give it with --stage.\n\n${usage}`);
  const dates: Partial<Record<'before' | 'after', string>> = {};
  for (const option of ['before', 'after'] as const) {
    const value = values[option];
    if (value === undefined) continue;
    if (Number.isNaN(Date.parse(value)))
      throw new UsageError(`--${option} takes an ISO 8601 date, such as 2026-01-31T00:00:00Z.\n\n${usage}`);
    dates[option] = new Date(value).toISOString();
  }
  return {
    step,
    where: values.local
      ? { kind: 'local' }
      : values.stage !== undefined
        ? { kind: 'stage', stage: values.stage, ...(values.region ? { region: values.region } : {}) }
        : { kind: 'environment' },
    options: {
      dryRun: values['dry-run'] ?? false,
      ...(dates.before ? { createdBefore: dates.before } : {}),
      ...(dates.after ? { createdAfter: dates.after } : {}),
    },
  };
}

/** A CloudFormation client for a region (else the profile's). */
export type CloudFormationOf = (region?: string) => Pick<CloudFormationClient, 'send' | 'destroy'>;

const cloudFormationOf: CloudFormationOf = (region) => new CloudFormationClient(region ? { region } : {});

/** A stage's names for a step, from its stack's outputs; the region from the stack's ARN. */
async function stageTarget(
  step: BackfillStep,
  stage: string,
  region: string | undefined,
  cloudFormation: CloudFormationOf,
): Promise<Target> {
  const stackName = stackNameOf(stage);
  const client = cloudFormation(region);
  let stack: Awaited<ReturnType<typeof describeStack>>;
  try {
    stack = await describeStack(stackName, client);
  } finally {
    client.destroy();
  }
  const outputs = new Map((stack.Outputs ?? []).map((o) => [o.OutputKey, o.OutputValue]));
  const target: Target = {};
  const lacking: string[] = [];
  for (const [name, { output }] of Object.entries(step.environment)) {
    const value = outputs.get(output);
    if (value) target[name] = value;
    else lacking.push(output);
  }
  const stackRegion = regionOf(stack);
  if (stackRegion) target.AWS_REGION = stackRegion;
  else lacking.push('a region in its ARN');
  if (lacking.length)
    throw new StageError(
      `${stackName} lacks ${lacking.join(', ')}: deploy the current stack (npx cdk deploy -c stage=${stage}).`,
    );
  return target;
}

/**
 * The names a step runs with, where it runs: the running local cloud's whole
 * environment (endpoints and keys included), a stage's stack outputs, or the
 * step's names from `env`. Throws a {@link UsageError} or {@link StageError}
 * naming what is missing.
 */
export async function resolveTarget(
  step: BackfillStep,
  where: Where,
  env: NodeJS.ProcessEnv,
  cloudFormation: CloudFormationOf = cloudFormationOf,
): Promise<Target> {
  if (where.kind === 'local')
    return runningLocalCloud(env, [...neededBy(step), 'DYNAMODB_ENDPOINT', 'S3_ENDPOINT']).env;
  if (where.kind === 'stage') return stageTarget(step, where.stage, where.region, cloudFormation);
  const target: Target = {};
  for (const name of [...Object.keys(step.environment), 'AWS_REGION'])
    if (env[name]) target[name] = env[name];
  const missing = neededBy(step).filter((name) => !target[name]);
  if (missing.length) throw new UsageError(`Missing ${missing.join(', ')}.\n\n${stepUsage(step)}`);
  return target;
}

export interface BackfillIo {
  env: NodeJS.ProcessEnv;
  print(text: string): void;
  printError(text: string): void;
  steps?: readonly BackfillStep[];
  cloudFormation?: CloudFormationOf;
}

/** Runs `npm run backfill -- <argv>`; resolves to the exit code. */
export async function backfill(argv: string[], io: BackfillIo): Promise<number> {
  let step: BackfillStep | undefined;
  try {
    const args = parseBackfillArgs(argv, io.steps);
    if ('help' in args) {
      io.print(args.help);
      return 0;
    }
    step = args.step;
    const target = await resolveTarget(step, args.where, io.env, io.cloudFormation);
    const { failed } = await step.run(target, args.options, io.print);
    return failed ? 1 : 0;
  } catch (error) {
    if (error instanceof UsageError || error instanceof StageError) io.printError(error.message);
    else
      io.printError(`Could not run the ${step?.name} backfill: ${(error as Error).message ?? String(error)}`);
    return 1;
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  // The SDK's notice about Node 22 would bury this command's output.
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  backfill(process.argv.slice(2), { env: process.env, print: console.log, printError: console.error }).then(
    // The share pages' clients are the functions' own, kept open; the run is over when its step is.
    (code) => process.exit(code),
  );
}

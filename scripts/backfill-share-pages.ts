/**
 * `npm run backfill:share-pages -- [--local | --stage <name> [--region <region>]]`
 *
 * Writes the share page of every public, finished track (decisions 024, 026):
 * the same rewrite the jobs function runs when a deploy writes a new track
 * frame template (pages/track.html), for tracks from before share pages.
 * Safe to run again.
 *
 * - `--local`: the running local cloud (`npm start`).
 * - `--stage dev`: the deployed stage's table, site bucket, KeyValueStore and
 *   site URL, from its stack's outputs (default credential chain).
 * - Neither: TABLE_NAME, SITE_BUCKET, PUBLIC_ORIGIN and AWS_REGION (and
 *   SHARE_KVS_ARN on AWS) from the environment.
 */
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { CloudFormationClient, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { runningLocalCloud, UsageError } from '../functions/scripts/local-cloud';
import { stackNameOf } from './stack-outputs';

const usage = `Usage: npm run backfill:share-pages -- [--local | --stage <name> [--region <region>]]

Writes the share page (preview tags for link previews, the track page's first frame) of every
public, finished track from the deployed pages/track.html (else index.html). Running it again
rewrites them.

  --local          the running local cloud (npm start)
  --stage <name>   a deployed stage, found by its stack's outputs (AWS credentials as usual)
  --region <name>  the stage's region, when the profile's is another

With neither: TABLE_NAME, SITE_BUCKET, PUBLIC_ORIGIN, AWS_REGION (and SHARE_KVS_ARN) from the environment.`;

const NEEDED = ['TABLE_NAME', 'SITE_BUCKET', 'PUBLIC_ORIGIN', 'AWS_REGION'] as const;

/** Runs the rewrite against a target's environment; returns how many pages it wrote. */
export async function runShareBackfill(target: Record<string, string | undefined>): Promise<number> {
  const missing = NEEDED.filter((name) => !target[name]);
  if (missing.length) throw new UsageError(`Missing ${missing.join(', ')}.\n\n${usage}`);
  // The functions' clients read their endpoints and names from the environment.
  Object.assign(process.env, target);
  const [{ dynamo }, { dynamoTrackDirectory }, { sharePagesFromEnv }, { rewriteAllFromDirectory }] =
    await Promise.all([
      import('../functions/src/adapters/dynamo/client'),
      import('../functions/src/adapters/dynamo/admin-directory'),
      import('../functions/src/lambdas/share-wiring'),
      import('../functions/src/domain/tracks/share-page'),
    ]);
  const { client, tableName } = dynamo();
  const { written } = await rewriteAllFromDirectory(
    sharePagesFromEnv(process.env, target.PUBLIC_ORIGIN as string),
    dynamoTrackDirectory(client, tableName),
  );
  return written;
}

async function stageTarget(stage: string, region: string | undefined): Promise<Record<string, string>> {
  const client = new CloudFormationClient(region ? { region } : {});
  try {
    const stackName = stackNameOf(stage);
    const stack = (await client.send(new DescribeStacksCommand({ StackName: stackName }))).Stacks?.[0];
    const output = (key: string) => stack?.Outputs?.find((o) => o.OutputKey === key)?.OutputValue;
    const target = {
      TABLE_NAME: output('TableName'),
      SITE_BUCKET: output('SiteBucketName'),
      SHARE_KVS_ARN: output('ShareKeysArn'),
      PUBLIC_ORIGIN: output('SiteUrl'),
      AWS_REGION: /^arn:[^:]+:cloudformation:([^:]+):/.exec(stack?.StackId ?? '')?.[1],
    };
    const lacking = Object.entries(target).filter(([, value]) => !value);
    if (lacking.length)
      throw new UsageError(
        `${stackName} lacks ${lacking.map(([name]) => name).join(', ')}: deploy the current stack.`,
      );
    return target as Record<string, string>;
  } finally {
    client.destroy();
  }
}

async function main(argv: string[], env: NodeJS.ProcessEnv): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      local: { type: 'boolean', default: false },
      stage: { type: 'string' },
      region: { type: 'string' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    console.log(usage);
    return;
  }
  if (values.local && values.stage) throw new UsageError(`Choose --local or --stage, not both.\n\n${usage}`);
  const target = values.local
    ? runningLocalCloud(env, NEEDED).env
    : values.stage
      ? await stageTarget(values.stage, values.region)
      : (env as Record<string, string | undefined>);
  const written = await runShareBackfill(target);
  console.log(`Share pages written: ${written}`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main(process.argv.slice(2), process.env).then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(error instanceof UsageError ? error.message : error);
      process.exit(1);
    },
  );
}

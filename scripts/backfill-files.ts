/**
 * `npm run backfill:files -- [--local | --stage <name> [--region <region>]] [--dry-run] [--before <ISO date>] [--after <ISO date>]`
 *
 * Gives tracks completed before the files were marked what new tracks get
 * (backfillFiles in functions/src/workflow/files-backfill.ts): every completed
 * track without loudness gets its WAV marked (LIST/INFO, XMP, content
 * credentials), hashed and measured, and a players' copy at the stream's
 * gain, under new keys; the old files are removed once the track points at
 * the new ones. Safe to stop and run again: tracks with loudness are skipped.
 *
 * - `--local`: the running local cloud (`npm start`); content credentials
 *   are made for this run (the local cloud keeps its own in memory).
 * - `--stage dev`: the deployed stage's table, tracks bucket, site URL and
 *   content credentials' secret, from its stack's outputs (the default
 *   credential chain; the region from AWS_REGION, the profile, or `--region`).
 * - Neither: TABLE_NAME, TRACKS_BUCKET, PUBLIC_ORIGIN and AWS_REGION (and
 *   C2PA_SIGNING_SECRET_ARN, if set) from the environment.
 */
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { CloudFormationClient, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { runningLocalCloud, UsageError } from '../functions/scripts/local-cloud';
import { oggOpusStreamEncoder } from '../functions/src/adapters/audio/opus-encoder';
import { c2paContentCredentials } from '../functions/src/adapters/c2pa/content-credentials';
import {
  credentialsMadeOnFirstUse,
  memoryCredentialStore,
  secretsManagerCredentialStore,
} from '../functions/src/adapters/c2pa/credential-store';
import { dynamoTrackDirectory } from '../functions/src/adapters/dynamo/admin-directory';
import { dynamoGenerationStore } from '../functions/src/adapters/dynamo/generation-store';
import { dynamoSettingsRepository } from '../functions/src/adapters/dynamo/settings-repository';
import { s3AudioStore } from '../functions/src/adapters/s3/audio-store';
import { s3Of } from '../functions/src/adapters/s3/client';
import { parseS3Url } from '../functions/src/adapters/s3/links';
import { siteNameSource } from '../functions/src/domain/settings/site';
import {
  backfillFiles,
  type FilesBackfillDeps,
  type FilesBackfillOptions,
  type FilesBackfillReport,
} from '../functions/src/workflow/files-backfill';
import { stackNameOf } from './stack-outputs';

const usage = `Usage: npm run backfill:files -- [--local | --stage <name> [--region <region>]] [--dry-run] [--before <ISO date>] [--after <ISO date>]

Marks the WAV of every completed track without loudness (LIST/INFO, XMP, content credentials),
records its hash and loudness, and makes its players' copy at the stream's gain (-14 LUFS, at most
-1 dBTP), under new keys; the old files go once the track points at the new ones. Running it again
changes nothing.

  --local          the running local cloud (npm start)
  --stage <name>   a deployed stage, found by its stack's outputs (AWS credentials as usual)
  --region <name>  the stage's region, when the profile's is another
  --dry-run        only count the tracks that would get their files
  --before <date>  only tracks created before this ISO 8601 instant
  --after <date>   only tracks created after this ISO 8601 instant (with --before: a batch)

With neither --local nor --stage: TABLE_NAME, TRACKS_BUCKET, PUBLIC_ORIGIN and AWS_REGION (and
C2PA_SIGNING_SECRET_ARN) from the environment.`;

const NEEDED = ['TABLE_NAME', 'TRACKS_BUCKET', 'PUBLIC_ORIGIN', 'AWS_REGION'] as const;

/**
 * The backfill's ports on a target's table and tracks bucket: the emulators
 * when `DYNAMODB_ENDPOINT` / `S3_ENDPOINT` are set (with the local cloud's
 * keys), AWS with the default credential chain otherwise.
 */
export function filesBackfillDeps(target: Record<string, string | undefined>): {
  deps: FilesBackfillDeps;
  close(): void;
} {
  const missing = NEEDED.filter((name) => !target[name]);
  if (missing.length) throw new UsageError(`Missing ${missing.join(', ')}.\n\n${usage}`);
  const region = target.AWS_REGION as string;
  const credentials =
    target.AWS_ACCESS_KEY_ID && target.AWS_SECRET_ACCESS_KEY
      ? { accessKeyId: target.AWS_ACCESS_KEY_ID, secretAccessKey: target.AWS_SECRET_ACCESS_KEY }
      : undefined;
  const dynamo = new DynamoDBClient({
    region,
    ...(target.DYNAMODB_ENDPOINT ? { endpoint: target.DYNAMODB_ENDPOINT, credentials } : {}),
  });
  const s3 = new S3Client({
    region,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    ...(target.S3_ENDPOINT ? { endpoint: target.S3_ENDPOINT, forcePathStyle: true, credentials } : {}),
  });
  const documents = DynamoDBDocumentClient.from(dynamo, { marshallOptions: { removeUndefinedValues: true } });
  const table = target.TABLE_NAME as string;
  const bucket = target.TRACKS_BUCKET as string;
  const store = s3AudioStore(s3Of(s3), bucket);
  const siteName = siteNameSource(
    dynamoSettingsRepository(documents, table),
    target.SITE_NAME || 'Tunesmith',
  );
  const secret = target.C2PA_SIGNING_SECRET_ARN;
  return {
    deps: {
      tracks: dynamoTrackDirectory(documents, table),
      generations: dynamoGenerationStore(documents, table),
      files: {
        async read(stored) {
          const location = parseS3Url(stored);
          if (location?.bucket !== bucket) throw new Error(`${stored} is not in the tracks bucket`);
          const object = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: location.key }));
          if (!object.Body) throw new Error(`${stored} is empty`);
          return object.Body.transformToByteArray();
        },
        put: (key, bytes, contentType) => store.put(key, bytes, contentType),
        remove: (key) => store.remove(key),
        keyOf: (stored) => {
          const location = parseS3Url(stored);
          return location?.bucket === bucket ? location.key : undefined;
        },
      },
      site: { origin: (target.PUBLIC_ORIGIN as string).replace(/\/+$/, ''), name: siteName },
      streamEncoder: oggOpusStreamEncoder,
      contentCredentials: c2paContentCredentials(
        credentialsMadeOnFirstUse(
          secret ? secretsManagerCredentialStore(secret, region) : memoryCredentialStore(),
          siteName,
        ),
      ),
      log: { warn: (message, fields) => console.warn(`warning: ${message}`, fields?.generationId ?? '') },
    },
    close() {
      dynamo.destroy();
      s3.destroy();
    },
  };
}

/** Runs the backfill on a target (see {@link filesBackfillDeps}). */
export async function runFilesBackfill(
  target: Record<string, string | undefined>,
  options: FilesBackfillOptions = {},
): Promise<FilesBackfillReport> {
  const { deps, close } = filesBackfillDeps(target);
  try {
    return await backfillFiles(deps, options);
  } finally {
    close();
  }
}

/** A stage's table, tracks bucket, site URL, secret and region, from its stack's outputs. */
async function stageTarget(stage: string, region: string | undefined): Promise<Record<string, string>> {
  const client = new CloudFormationClient(region ? { region } : {});
  try {
    const stackName = stackNameOf(stage);
    const stack = (await client.send(new DescribeStacksCommand({ StackName: stackName }))).Stacks?.[0];
    const output = (key: string) => stack?.Outputs?.find((o) => o.OutputKey === key)?.OutputValue;
    const target = {
      TABLE_NAME: output('TableName'),
      TRACKS_BUCKET: output('TracksBucketName'),
      PUBLIC_ORIGIN: output('SiteUrl'),
      C2PA_SIGNING_SECRET_ARN: output('ContentCredentialsSecretArn'),
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

export function describeReport(report: FilesBackfillReport, dryRun: boolean): string {
  const lines = [
    `Completed tracks checked: ${report.checked}`,
    `Already marked and measured: ${report.alreadyHad}`,
    dryRun ? `Would get their files: ${report.wouldMake}` : `Files made: ${report.made}`,
  ];
  if (report.skipped) lines.push(`Skipped (deleted or changed meanwhile): ${report.skipped}`);
  if (report.failed) lines.push(`Failed: ${report.failed}`);
  return lines.join('\n');
}

async function main(argv: string[], env: NodeJS.ProcessEnv): Promise<void> {
  let values: {
    local?: boolean;
    stage?: string;
    region?: string;
    'dry-run'?: boolean;
    before?: string;
    after?: string;
    help?: boolean;
  };
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        local: { type: 'boolean', default: false },
        stage: { type: 'string' },
        region: { type: 'string' },
        'dry-run': { type: 'boolean', default: false },
        before: { type: 'string' },
        after: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
    }));
  } catch (error) {
    throw new UsageError(`${(error as Error).message}\n\n${usage}`);
  }
  if (values.help) {
    console.log(usage);
    return;
  }
  if (values.local && values.stage) throw new UsageError(`Give --local or --stage, not both.\n\n${usage}`);
  for (const option of ['before', 'after'] as const)
    if (values[option] && Number.isNaN(Date.parse(values[option] as string)))
      throw new UsageError(`--${option} takes an ISO 8601 date, such as 2026-01-31T00:00:00Z.\n\n${usage}`);
  const target = values.local
    ? runningLocalCloud(env, [
        'TABLE_NAME',
        'DYNAMODB_ENDPOINT',
        'S3_ENDPOINT',
        'TRACKS_BUCKET',
        'PUBLIC_ORIGIN',
      ]).env
    : values.stage
      ? await stageTarget(values.stage, values.region)
      : {
          TABLE_NAME: env.TABLE_NAME,
          TRACKS_BUCKET: env.TRACKS_BUCKET,
          PUBLIC_ORIGIN: env.PUBLIC_ORIGIN,
          AWS_REGION: env.AWS_REGION,
          C2PA_SIGNING_SECRET_ARN: env.C2PA_SIGNING_SECRET_ARN,
        };
  const dryRun = values['dry-run'] ?? false;
  const report = await runFilesBackfill(target, {
    dryRun,
    ...(values.before ? { createdBefore: new Date(values.before).toISOString() } : {}),
    ...(values.after ? { createdAfter: new Date(values.after).toISOString() } : {}),
    onTrack: (outcome) => {
      if (outcome.result === 'made') console.log(`${outcome.id}: marked, measured and normalised`);
      else if (outcome.result === 'would-make') console.log(`${outcome.id}: would get its files`);
      else if (outcome.result === 'skipped')
        console.log(`${outcome.id}: skipped (deleted or changed meanwhile)`);
      else console.log(`${outcome.id}: failed: ${outcome.reason}`);
    },
  });
  console.log(describeReport(report, dryRun));
  if (report.failed) process.exitCode = 1;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  // The SDK's notice about Node 22 would bury this command's output.
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  main(process.argv.slice(2), process.env).catch((error: unknown) => {
    if (error instanceof UsageError) console.error(error.message);
    else console.error(`Could not backfill the files: ${(error as Error).message ?? String(error)}`);
    process.exitCode = 1;
  });
}

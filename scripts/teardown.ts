/**
 * `npm run teardown -- --stage dev [--yes] [--region <region>]`
 *
 * Removes a stage completely: deletes its CloudFormation stack, then what the
 * stack keeps on purpose when it goes (DeletionPolicy Retain: the table, both
 * user pools, the buckets, the settings key, the Stripe secret, the API access
 * logs) and the log groups Lambda made by itself for the custom-resource
 * functions, and the stage's edge stack in us-east-1 (its CloudFront web ACL,
 * on a dev stage deployed with `-c waf=on`). A test mail sink's receipt rule
 * set that is still the active one is deactivated first, as SES refuses to
 * delete an active rule set (and the stack's delete would fail on it). What to remove comes from CloudFormation's own record of the
 * stack (its template and resources), which it keeps for 90 days after a
 * delete, so a stage already taken down with `cdk destroy` is cleaned up too.
 * It shows the plan and asks for the stage's name to be typed (`--yes` skips
 * that for scripts). `prod` is refused: its data is real users'.
 *
 * Credentials come from the default chain (AWS_PROFILE, SSO, environment
 * keys); the region from AWS_REGION, the profile, or `--region`.
 */
import { createInterface } from 'node:readline/promises';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import {
  CloudFormationClient,
  DeleteStackCommand,
  DescribeStacksCommand,
  GetTemplateCommand,
  ListStackResourcesCommand,
  ListStacksCommand,
  waitUntilStackDeleteComplete,
} from '@aws-sdk/client-cloudformation';
import { CloudWatchLogsClient, DeleteLogGroupCommand } from '@aws-sdk/client-cloudwatch-logs';
import {
  CognitoIdentityProviderClient,
  DeleteUserPoolCommand,
  UpdateUserPoolCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { DeleteTableCommand, DynamoDBClient, UpdateTableCommand } from '@aws-sdk/client-dynamodb';
import { KMSClient, ScheduleKeyDeletionCommand } from '@aws-sdk/client-kms';
import {
  DeleteBucketCommand,
  DeleteObjectsCommand,
  ListObjectVersionsCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { DeleteSecretCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import {
  DescribeActiveReceiptRuleSetCommand,
  SESClient,
  SetActiveReceiptRuleSetCommand,
} from '@aws-sdk/client-ses';
import { stages } from '../infra/lib/stages';
import { WEB_ACL_REGION } from '../infra/lib/waf';

/** A mistake of the caller's, or a refusal: printed as is, without a stack. */
export class TeardownError extends Error {}

/** The stages this script never removes. */
export const PROTECTED_STAGES: readonly string[] = ['prod'];

/** What the script removes, one step each. */
export type Removal =
  /**
   * A receipt rule set the stack made (the test mail sink), if it is the account's active one: SES
   * refuses to delete an active rule set, so the stack's delete would fail on it.
   */
  | { kind: 'receiptRuleSet'; id: string }
  /** A stack; `region` when it is not in the stage's region (the edge stack of a web ACL, us-east-1). */
  | { kind: 'stack'; id: string; region?: string }
  | { kind: 'bucket'; id: string }
  | { kind: 'table'; id: string }
  | { kind: 'userPool'; id: string }
  | { kind: 'secret'; id: string }
  | { kind: 'key'; id: string }
  | { kind: 'logGroup'; id: string };

/** CloudFormation's record of a stack, live or deleted: enough to plan. */
export interface StackRecord {
  readonly stackName: string;
  readonly stackId: string;
  /** False when the stack was already deleted (cdk destroy): only what it retained is left. */
  readonly live: boolean;
  /** The stack's template, as deployed (`Resources` is what counts). */
  readonly template: {
    Resources?: Record<
      string,
      { Type: string; DeletionPolicy?: string; Properties?: Record<string, unknown> }
    >;
  };
  /** The stack's resources with their physical ids. */
  readonly resources: readonly { logicalId: string; physicalId?: string; type: string }[];
}

const KEPT_POLICIES = new Set(['Retain', 'RetainExceptOnCreate', 'Snapshot']);

const KIND_OF_TYPE: Record<string, Removal['kind']> = {
  'AWS::S3::Bucket': 'bucket',
  'AWS::DynamoDB::Table': 'table',
  'AWS::Cognito::UserPool': 'userPool',
  'AWS::SecretsManager::Secret': 'secret',
  'AWS::KMS::Key': 'key',
  'AWS::Logs::LogGroup': 'logGroup',
};

// Data first, the key that seals settings in the table after it, logs last; the access-log bucket after
// the buckets that log into it.
const ORDER: Removal['kind'][] = [
  'receiptRuleSet',
  'stack',
  'bucket',
  'table',
  'userPool',
  'secret',
  'key',
  'logGroup',
];

/** The stack of `stage`, refusing a protected or unknown stage before anything is asked of AWS. */
export function stackNameForTeardown(stage: string): string {
  if (PROTECTED_STAGES.includes(stage)) {
    throw new TeardownError(
      `Refusing to tear down ${stage}: it holds real users' data. Remove it by hand if you truly mean to (docs/deploy.md: Taking a stage down).`,
    );
  }
  if (!(stage in stages)) {
    throw new TeardownError(`Unknown stage "${stage}": use --stage ${Object.keys(stages).join('|')}.`);
  }
  return stages[stage as keyof typeof stages].stackName;
}

/**
 * Every removal for a stack, in order: the stack (when it still exists), then
 * each resource its template keeps on delete, then the log groups Lambda
 * creates by itself (`/aws/lambda/<name>`) for functions without a log group
 * of their own in the template.
 */
export function planTeardown(record: StackRecord): Removal[] {
  const declared = record.template.Resources ?? {};
  const physical = new Map(record.resources.map((r) => [r.logicalId, r.physicalId]));
  const plan: Removal[] = [];
  if (record.live) {
    for (const [logicalId, resource] of Object.entries(declared)) {
      const name = physical.get(logicalId);
      if (resource.Type === 'AWS::SES::ReceiptRuleSet' && name)
        plan.push({ kind: 'receiptRuleSet', id: name });
    }
    plan.push({ kind: 'stack', id: record.stackName });
  }

  const logTargets = new Set<string>();
  for (const resource of Object.values(declared)) {
    const target = (resource.Properties?.LoggingConfiguration as { DestinationBucketName?: { Ref?: string } })
      ?.DestinationBucketName?.Ref;
    if (target) logTargets.add(target);
  }

  const kept: { removal: Removal; logTarget: boolean }[] = [];
  for (const [logicalId, resource] of Object.entries(declared)) {
    const kind = KIND_OF_TYPE[resource.Type];
    const id = physical.get(logicalId);
    if (!kind || !id || !KEPT_POLICIES.has(resource.DeletionPolicy ?? 'Delete')) continue;
    kept.push({ removal: { kind, id } as Removal, logTarget: logTargets.has(logicalId) });
  }

  // Functions whose logs the template does not route to a log group of its own: Lambda made one by name.
  const routed = new Set(
    Object.entries(declared)
      .filter(
        ([, r]) =>
          r.Type === 'AWS::Lambda::Function' &&
          (r.Properties?.LoggingConfig as { LogGroup?: unknown } | undefined)?.LogGroup !== undefined,
      )
      .map(([logicalId]) => logicalId),
  );
  const lambdaLogs = record.resources
    .filter((r) => r.type === 'AWS::Lambda::Function' && r.physicalId && !routed.has(r.logicalId))
    .map((r): Removal => ({ kind: 'logGroup', id: `/aws/lambda/${r.physicalId}` }));

  kept.sort(
    (a, b) =>
      ORDER.indexOf(a.removal.kind) - ORDER.indexOf(b.removal.kind) ||
      Number(a.logTarget) - Number(b.logTarget),
  );
  return [...plan, ...kept.map((k) => k.removal), ...lambdaLogs];
}

/** How each removal reads in the plan shown before the confirmation. */
export function describeRemoval(removal: Removal): string {
  switch (removal.kind) {
    case 'receiptRuleSet':
      return `stop receiving mail with the receipt rule set ${removal.id} if it is the active one (SES cannot delete an active rule set)`;
    case 'stack':
      return removal.region
        ? `delete the stack ${removal.id} in ${removal.region} (the distribution's web ACL)`
        : `delete the stack ${removal.id} (and everything it does not keep)`;
    case 'bucket':
      return `empty (every object version) and delete the bucket ${removal.id}`;
    case 'table':
      return `turn off deletion protection and delete the table ${removal.id}`;
    case 'userPool':
      return `turn off deletion protection and delete the user pool ${removal.id}`;
    case 'secret':
      return `delete the secret ${removal.id} at once (no recovery window)`;
    case 'key':
      return `schedule the KMS key ${removal.id} for deletion in 7 days (the shortest AWS allows)`;
    case 'logGroup':
      return `delete the log group ${removal.id}`;
  }
}

/** The AWS calls the teardown makes; `awsTeardown` makes them with the SDK, tests with a fake. */
export interface TeardownAws {
  /**
   * The stack's record: the live stack of that name, else the newest deleted one, else undefined; in
   * `region` when given, else the stage's.
   */
  findStack(stackName: string, region?: string): Promise<StackRecord | undefined>;
  /** Carries out one removal; answers 'gone' when there was nothing left to remove. */
  remove(removal: Removal): Promise<'removed' | 'gone'>;
}

export interface TeardownOptions {
  readonly stage: string;
  /** Skip the typed confirmation (scripts). */
  readonly yes?: boolean;
  readonly aws: TeardownAws;
  /** Asks the question and answers what the person typed. */
  readonly ask: (question: string) => Promise<string>;
  readonly log: (line: string) => void;
}

export interface TeardownResult {
  readonly outcome: 'nothing' | 'cancelled' | 'done' | 'incomplete';
  readonly plan: readonly Removal[];
  readonly failed: readonly { removal: Removal; message: string }[];
}

/**
 * Plans the stage's removal from CloudFormation's record, shows it, asks for
 * the stage's name to be typed (unless `yes`), then removes each item in
 * order. A failed item does not stop the others; the result lists it, and a
 * second run picks up what is left.
 */
export async function runTeardown(options: TeardownOptions): Promise<TeardownResult> {
  const stackName = stackNameForTeardown(options.stage);
  const record = await options.aws.findStack(stackName);
  const plan = record ? planTeardown(record) : [];
  // The edge stack holds no data; it goes once the stage's stack (which names its web ACL) is gone.
  const edge = await options.aws.findStack(`${stackName}-edge`, WEB_ACL_REGION);
  if (edge?.live) {
    const after = plan.findIndex((removal) => removal.kind === 'stack') + 1;
    plan.splice(after, 0, { kind: 'stack', id: edge.stackName, region: WEB_ACL_REGION });
  }
  if (plan.length === 0) {
    options.log(`Nothing of ${stackName} is left in this account and region.`);
    return { outcome: 'nothing', plan, failed: [] };
  }
  options.log(`Tearing down the ${options.stage} stage (${stackName}) will, for good:`);
  for (const removal of plan) options.log(`  - ${describeRemoval(removal)}`);
  if (!options.yes) {
    const typed = await options.ask(`Type the stage name (${options.stage}) to go on: `);
    if (typed.trim() !== options.stage) {
      options.log('Not confirmed: nothing was removed.');
      return { outcome: 'cancelled', plan, failed: [] };
    }
  }
  const failed: { removal: Removal; message: string }[] = [];
  for (const removal of plan) {
    try {
      const done = await options.aws.remove(removal);
      const outcome =
        removal.kind === 'receiptRuleSet'
          ? done === 'gone'
            ? 'not active'
            : 'deactivated'
          : done === 'gone'
            ? 'already gone'
            : 'removed';
      options.log(`${outcome}: ${removal.kind} ${removal.id}`);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      failed.push({ removal, message });
      options.log(`FAILED: ${removal.kind} ${removal.id}: ${message}`);
      // Nothing the stack holds may be removed under a stack that could not be deleted.
      if (removal.kind === 'stack' || removal.kind === 'receiptRuleSet')
        return { outcome: 'incomplete', plan, failed };
    }
  }
  return { outcome: failed.length ? 'incomplete' : 'done', plan, failed };
}

// How each service says the thing is not there (DynamoDB, Cognito, Secrets Manager, Logs; S3; KMS).
const NOT_FOUND = new Set(['ResourceNotFoundException', 'NoSuchBucket', 'NotFoundException']);
const isNotFound = (error: unknown) => NOT_FOUND.has((error as { name?: string }).name ?? '');

/** The teardown's calls through the AWS SDK v3, with the default credential chain. */
export function awsTeardown(region?: string): TeardownAws {
  const config = region ? { region } : {};
  const cfn = new CloudFormationClient(config);
  const cfnIn = new Map<string, CloudFormationClient>();
  const cfnOf = (other?: string) => {
    if (!other) return cfn;
    if (!cfnIn.has(other)) cfnIn.set(other, new CloudFormationClient({ region: other }));
    return cfnIn.get(other) as CloudFormationClient;
  };
  const s3 = new S3Client(config);
  const dynamodb = new DynamoDBClient(config);
  const cognito = new CognitoIdentityProviderClient(config);
  const secrets = new SecretsManagerClient(config);
  const kms = new KMSClient(config);
  const logs = new CloudWatchLogsClient(config);
  const ses = new SESClient(config);

  async function recordOf(
    cfn: CloudFormationClient,
    stackName: string,
    stackId: string,
    live: boolean,
  ): Promise<StackRecord> {
    const body = (await cfn.send(new GetTemplateCommand({ StackName: stackId, TemplateStage: 'Original' })))
      .TemplateBody;
    const resources: StackRecord['resources'][number][] = [];
    let token: string | undefined;
    do {
      const page = await cfn.send(new ListStackResourcesCommand({ StackName: stackId, NextToken: token }));
      for (const r of page.StackResourceSummaries ?? [])
        resources.push({
          logicalId: r.LogicalResourceId ?? '',
          physicalId: r.PhysicalResourceId,
          type: r.ResourceType ?? '',
        });
      token = page.NextToken;
    } while (token);
    return { stackName, stackId, live, template: JSON.parse(body ?? '{}'), resources };
  }

  async function emptyBucket(bucket: string): Promise<void> {
    let keyMarker: string | undefined;
    let versionIdMarker: string | undefined;
    do {
      const page = await s3.send(
        new ListObjectVersionsCommand({
          Bucket: bucket,
          KeyMarker: keyMarker,
          VersionIdMarker: versionIdMarker,
        }),
      );
      const objects = [...(page.Versions ?? []), ...(page.DeleteMarkers ?? [])].map((v) => ({
        Key: v.Key as string,
        VersionId: v.VersionId,
      }));
      if (objects.length) {
        const result = await s3.send(
          new DeleteObjectsCommand({ Bucket: bucket, Delete: { Objects: objects, Quiet: true } }),
        );
        if (result.Errors?.length) throw new Error(`${result.Errors.length} objects could not be deleted`);
      }
      keyMarker = page.IsTruncated ? page.NextKeyMarker : undefined;
      versionIdMarker = page.IsTruncated ? page.NextVersionIdMarker : undefined;
    } while (keyMarker);
  }

  return {
    async findStack(stackName, inRegion) {
      const cfn = cfnOf(inRegion);
      try {
        const live = (await cfn.send(new DescribeStacksCommand({ StackName: stackName }))).Stacks?.[0];
        if (live?.StackId) return recordOf(cfn, stackName, live.StackId, true);
      } catch (error) {
        if ((error as { name?: string }).name !== 'ValidationError') throw error;
      }
      // CloudFormation keeps a deleted stack's template and resources for 90 days.
      let newest: { id: string; at: number } | undefined;
      let token: string | undefined;
      do {
        const page = await cfn.send(
          new ListStacksCommand({ StackStatusFilter: ['DELETE_COMPLETE'], NextToken: token }),
        );
        for (const s of page.StackSummaries ?? []) {
          const at = s.DeletionTime?.getTime() ?? 0;
          if (s.StackName === stackName && s.StackId && (!newest || at > newest.at))
            newest = { id: s.StackId, at };
        }
        token = page.NextToken;
      } while (token);
      return newest ? recordOf(cfn, stackName, newest.id, false) : undefined;
    },

    async remove(removal) {
      try {
        switch (removal.kind) {
          case 'receiptRuleSet': {
            const active = await ses.send(new DescribeActiveReceiptRuleSetCommand({}));
            if (active.Metadata?.Name !== removal.id) return 'gone';
            // With no name, SES makes no rule set active.
            await ses.send(new SetActiveReceiptRuleSetCommand({}));
            break;
          }
          case 'stack':
            await cfnOf(removal.region).send(new DeleteStackCommand({ StackName: removal.id }));
            await waitUntilStackDeleteComplete(
              { client: cfnOf(removal.region), maxWaitTime: 3600 },
              { StackName: removal.id },
            );
            break;
          case 'bucket':
            await emptyBucket(removal.id);
            await s3.send(new DeleteBucketCommand({ Bucket: removal.id }));
            break;
          case 'table':
            await dynamodb.send(
              new UpdateTableCommand({ TableName: removal.id, DeletionProtectionEnabled: false }),
            );
            await dynamodb.send(new DeleteTableCommand({ TableName: removal.id }));
            break;
          case 'userPool':
            // UpdateUserPool resets what it is not given; the pool is deleted next, so that is of no matter.
            await cognito.send(
              new UpdateUserPoolCommand({ UserPoolId: removal.id, DeletionProtection: 'INACTIVE' }),
            );
            await cognito.send(new DeleteUserPoolCommand({ UserPoolId: removal.id }));
            break;
          case 'secret':
            await secrets.send(
              new DeleteSecretCommand({ SecretId: removal.id, ForceDeleteWithoutRecovery: true }),
            );
            break;
          case 'key':
            await kms.send(new ScheduleKeyDeletionCommand({ KeyId: removal.id, PendingWindowInDays: 7 }));
            break;
          case 'logGroup':
            await logs.send(new DeleteLogGroupCommand({ logGroupName: removal.id }));
            break;
        }
        return 'removed';
      } catch (error) {
        // A key already pending deletion answers KMSInvalidStateException: it is on its way out.
        if (
          isNotFound(error) ||
          (removal.kind === 'key' && (error as { name?: string }).name === 'KMSInvalidStateException')
        )
          return 'gone';
        throw error;
      }
    },
  };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      stage: { type: 'string' },
      yes: { type: 'boolean', default: false },
      region: { type: 'string' },
    },
  });
  if (!values.stage) throw new TeardownError('Name the stage: npm run teardown -- --stage dev');
  // Refused before credentials are even looked for.
  stackNameForTeardown(values.stage);
  const prompt = createInterface({ input: process.stdin, output: process.stdout });
  try {
    const result = await runTeardown({
      stage: values.stage,
      yes: values.yes,
      aws: awsTeardown(values.region),
      ask: (question) => prompt.question(question),
      log: (line) => console.log(line),
    });
    if (result.outcome === 'incomplete') {
      throw new TeardownError(
        `${result.failed.length} removals failed: run it again, or remove them in the console.`,
      );
    }
    if (result.outcome === 'cancelled') process.exitCode = 1;
  } finally {
    prompt.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main().catch((error: unknown) => {
    console.error(error instanceof TeardownError ? error.message : error);
    process.exit(1);
  });
}

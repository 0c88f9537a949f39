import { EXPORTS_AREA } from '@tunesmith/functions/domain/exports/ports';
import { TRACK_AUDIO_AREA } from '@tunesmith/functions/domain/tracks/track';
import { INCOMING_AREA, UPLOADS_AREA } from '@tunesmith/functions/domain/uploads/uploads';
import { Duration } from 'aws-cdk-lib';
import type { IUserPool } from 'aws-cdk-lib/aws-cognito';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { NagSuppressions } from 'cdk-nag';
import { Construct } from 'constructs';
import type { AudioSigning } from './audio-signing';
import type { Mail } from './mail';
import { NodeFunction } from './node-function';
import { grantDeleteEveryVersion } from './object-access';
import type { SettingsKey } from './settings-key';
import type { StripeKeys } from './stripe-keys';
import { grantTable } from './table-access';

/** Lambda's retries of a failed asynchronous invocation (its maximum, and what the jobs are built for). */
export const JOB_RETRIES = 2;

/**
 * Jobs that run at once (decision 035): set aside for them, so web traffic
 * cannot hold them up, and their ceiling, so a wave of exports (each up to 15
 * minutes) cannot take the API's share. Lambda keeps a throttled job in its
 * queue and starts it when one ends, for up to the 6 hours an event may wait.
 */
export const JOBS_RESERVED_CONCURRENCY = 10;

export interface BackgroundJobsProps {
  readonly table: ITable;
  /** The tracks bucket: an export reads track audio (`tracks/`) and writes its zip (`exports/`). */
  readonly tracks: IBucket;
  /** Signs the link to a ready export (a CloudFront signed URL, as downloads are; decision 008). */
  readonly audioSigning: AudioSigning;
  /** Job mail (an export's link, an account's deletion): the sender the function may send as. */
  readonly mail: Mail;
  /** Where a job that failed all its attempts goes (its event, to look at and redrive). */
  readonly failedEvents: IQueue;
  /** Environment of the function (the API's shared one: table, buckets, pools, mail). */
  readonly environment: Record<string, string>;
  /**
   * How long the function's logs are kept.
   * @default RetentionDays.ONE_MONTH (NodeFunction's)
   */
  readonly logRetention?: RetentionDays;
}

/** What deleting an account touches besides the table (see {@link BackgroundJobs.allowAccountDeletion}). */
export interface AccountDeletionAccess {
  readonly uploads: IBucket;
  readonly tracks: IBucket;
  readonly userPool: IUserPool;
  readonly stripeKeys: StripeKeys;
  readonly settingsKey: SettingsKey;
}

/**
 * The jobs function (`functions/src/lambdas/jobs.ts`, decision 021): work
 * that outlives a request (export everything, delete my account), started by
 * the API as an asynchronous invocation. Lambda retries a failed run twice;
 * a job that fails all three goes to the failed-events queue, which is
 * alarmed. Up to 15 minutes and 1 GB: an export streams a whole library
 * through it in constant memory, and memory buys CPU and network on Lambda.
 */
export class BackgroundJobs extends Construct {
  readonly handler: NodeFunction;

  constructor(scope: Construct, id: string, props: BackgroundJobsProps) {
    super(scope, id);
    this.handler = new NodeFunction(this, 'Handler', {
      entryName: 'jobs',
      description: 'Tunesmith background jobs: export everything, delete my account',
      environment: props.environment,
      timeout: Duration.minutes(15),
      memorySize: 1024,
      reservedConcurrency: JOBS_RESERVED_CONCURRENCY,
      deadLetterQueue: props.failedEvents,
      ...(props.logRetention ? { logRetention: props.logRetention } : {}),
    });
    // Lambda's defaults, said out loud: the jobs are written to run again (domain/jobs.ts).
    this.handler.configureAsyncInvoke({ retryAttempts: JOB_RETRIES, maxEventAge: Duration.hours(6) });
    NagSuppressions.addResourceSuppressions(
      this.handler,
      [
        {
          id: 'Serverless-LambdaAsyncFailureDestination',
          reason:
            "A job that fails all its attempts goes to the function's dead-letter queue (FailedEvents, alarmed at its first message), as the other asynchronously invoked functions do; a failure destination as well would deliver it twice.",
        },
      ],
      true,
    );
    grantTable(props.table, this.handler, 'readWrite');
    props.mail.grantSend(this.handler);
    props.audioSigning.grantSign(this.handler);
    // Export everything: each track's stored audio in, the zip out in parts (aborted when a run fails).
    this.handler.addToRolePolicy(
      new PolicyStatement({
        actions: ['s3:GetObject'],
        resources: [props.tracks.arnForObjects(`${TRACK_AUDIO_AREA}*`)],
      }),
    );
    // Without ListBucket a missing track file answers 403 instead of 404, and would fail the export.
    this.handler.addToRolePolicy(
      new PolicyStatement({ actions: ['s3:ListBucket'], resources: [props.tracks.bucketArn] }),
    );
    this.handler.addToRolePolicy(
      new PolicyStatement({
        actions: ['s3:PutObject', 's3:AbortMultipartUpload'],
        resources: [props.tracks.arnForObjects(`${EXPORTS_AREA}*`)],
      }),
    );
    NagSuppressions.addResourceSuppressions(
      this.handler,
      [
        {
          id: 'AwsSolutions-IAM5',
          reason:
            'DynamoDB grants cover the table and its GSIs (index/*): the jobs query a user’s library and their exports through the indexes.',
          appliesTo: [{ regex: '/^Resource::<.*Table[0-9A-F]{8}\\.Arn>\\/index\\/\\*$/' }],
        },
        {
          id: 'AwsSolutions-IAM5',
          reason:
            'Object keys are per track (tracks/{id}.wav) and per user and export (exports/{userId}/{exportId}.zip), so the object actions, listed one by one, apply to those areas only.',
          appliesTo: [{ regex: '/^Resource::<.*Tracks[0-9A-F]{8}\\.Arn>\\/(tracks|exports)\\/\\*$/' }],
        },
      ],
      true,
    );
  }

  /**
   * What the `delete-account` job needs beyond the table and mail (decision 022): the user's objects
   * (uploads and their incoming area, every file of their tracks and their export zips with every version of
   * them, decision 034), their sign-in identity, and Stripe's
   * keys (the secret, or the sealed site settings) to end a subscription that still charges.
   */
  allowAccountDeletion(props: AccountDeletionAccess): void {
    const fn = this.handler;
    // Uploads: a delete is final there (no versions). A user's objects are found by listing their prefixes.
    fn.addToRolePolicy(
      new PolicyStatement({
        actions: ['s3:DeleteObject'],
        resources: [INCOMING_AREA, UPLOADS_AREA].map((prefix) => props.uploads.arnForObjects(`${prefix}*`)),
      }),
    );
    fn.addToRolePolicy(
      new PolicyStatement({ actions: ['s3:ListBucket'], resources: [props.uploads.bucketArn] }),
    );
    // Track files and export zips go with every version: the tracks bucket keeps them.
    grantDeleteEveryVersion(fn, props.tracks, [TRACK_AUDIO_AREA, EXPORTS_AREA]);
    props.userPool.grant(fn, 'cognito-idp:AdminDeleteUser');
    props.stripeKeys.grantRead(fn);
    props.settingsKey.grantOpen(fn);
    NagSuppressions.addResourceSuppressions(
      fn,
      [
        {
          id: 'AwsSolutions-IAM5',
          reason:
            'Object keys are per user and per track under the product areas (incoming/, uploads/, tracks/, exports/): deleting an account removes what is under them, so the delete applies to area/*.',
          appliesTo: [
            {
              regex:
                '/^Resource::<.*(Uploads|Tracks)[0-9A-F]{8}\\.Arn>\\/(incoming|uploads|tracks|exports)\\/\\*$/',
            },
          ],
        },
      ],
      true,
    );
  }

  /** Lets a function start jobs: JOBS_FUNCTION_NAME and lambda:InvokeFunction on this function only. */
  allowStart(fn: NodeFunction): void {
    fn.addEnvironment('JOBS_FUNCTION_NAME', this.handler.functionName);
    fn.addToRolePolicy(
      new PolicyStatement({ actions: ['lambda:InvokeFunction'], resources: [this.handler.functionArn] }),
    );
  }
}

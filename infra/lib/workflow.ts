import { UPLOADS_AREA } from '@tunesmith/functions/domain/uploads/uploads';
import {
  ASL_SUBSTITUTIONS,
  type AslSubstitution,
  readGenerationAsl,
} from '@tunesmith/functions/workflow/definition';
import { Annotations, Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Rule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import { Policy, PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { DefinitionBody, LogLevel, StateMachine, StateMachineType } from 'aws-cdk-lib/aws-stepfunctions';
import { NagSuppressions } from 'cdk-nag';
import { Construct } from 'constructs';
import { NodeFunction } from './node-function';
import { grantDeleteEveryVersion } from './object-access';
import type { SettingsKey } from './settings-key';
import { grantTable } from './table-access';

/** The PrepareDownload function's variable naming the content credentials' secret (functions/src/lambdas/workflow.ts). */
export const C2PA_SIGNING_SECRET_ARN = 'C2PA_SIGNING_SECRET_ARN';

/** The key prefix of finished audio (functions/src/workflow/steps.ts: `tracks/{id}.wav`, `.master.wav` and `.opus`). */
export const TRACKS_PREFIX = 'tracks/';

/**
 * Executions reserved for each of the workflow's functions (decision 035). The
 * API's functions share the account's unreserved concurrency, so however much
 * web traffic there is, generations keep these; each is also the function's
 * ceiling, and a step over it waits (the ASL retries Lambda's throttling for
 * minutes, an execution-ended event for hours). Sized for a sustained
 * generation a second: Finish copies and encodes a track in up to about 30 s,
 * Prepare marks and signs it in a few (the first signature of a process takes
 * seconds), Submit waits a few seconds for the provider's answer, the others
 * take well under a second or run only when something went wrong.
 */
export const WORKFLOW_RESERVED_CONCURRENCY = {
  Submit: 10,
  Wait: 10,
  Poll: 5,
  Finish: 30,
  Prepare: 10,
  // Waits on the provider's transcription (seconds to a minute), after the track plays.
  Lyrics: 10,
  Stems: 10,
  Fail: 5,
  ExecutionEnded: 5,
} as const;

/** The five Task states' functions: placeholder in the ASL file → handler export of `lambdas/workflow.ts`. */
const steps: Record<
  AslSubstitution,
  {
    id: Exclude<keyof typeof WORKFLOW_RESERVED_CONCURRENCY, 'ExecutionEnded'>;
    handler: string;
    description: string;
    /** The table access the step needs: Poll only reads (the provider key setting). */
    table: 'read' | 'readWrite';
    memorySize?: number;
    timeout: Duration;
  }
> = {
  SubmitFunctionArn: {
    id: 'Submit',
    table: 'readWrite',
    handler: 'submitHandler',
    description: 'Marks the track generating and submits it to the music provider with the webhook',
    // Below the Submit state's 60 s TimeoutSeconds, so a slow provider surfaces as a Lambda error the ASL retries.
    timeout: Duration.seconds(30),
  },
  WaitFunctionArn: {
    id: 'Wait',
    table: 'readWrite',
    handler: 'waitHandler',
    description:
      "Stores the task token for the provider's webhook, or answers it when the webhook came first",
    timeout: Duration.seconds(10),
  },
  PollFunctionArn: {
    id: 'Poll',
    table: 'read',
    handler: 'pollHandler',
    description: 'Asks the music provider once for the status when the webhook did not come in time',
    timeout: Duration.seconds(30),
  },
  FinishFunctionArn: {
    id: 'Finish',
    table: 'readWrite',
    handler: 'finishHandler',
    description:
      'Copies the finished audio into the tracks bucket, makes its Ogg Opus copy and peaks and marks the track completed (playable)',
    // A 240 s track is ~45 MB of WAV held in memory (and once more as the shared samples the audio threads
    // read) while it is copied, measured and encoded: ~5-7 s of CPU for 240 s of audio. 3538 MB is two
    // vCPUs (CPU and network scale with memory), which the audio threads use at once (decision 050): the
    // same GB-seconds as one vCPU for twice as long.
    memorySize: 3538,
    // Below the Finish state's 300 s TimeoutSeconds: a slow copy ends as a Lambda timeout the ASL can see.
    timeout: Duration.seconds(270),
  },
  PrepareFunctionArn: {
    id: 'Prepare',
    table: 'readWrite',
    handler: 'prepareHandler',
    description: "Marks, signs (C2PA) and hashes a playing track's master and stores it as its WAV download",
    // A 240 s master is ~45 MB read, marked, signed and hashed in memory; the signature is CPU-bound.
    memorySize: 1769,
    // Below the PrepareDownload state's 300 s TimeoutSeconds.
    timeout: Duration.seconds(120),
  },
  LyricsFunctionArn: {
    id: 'Lyrics',
    table: 'readWrite',
    handler: 'lyricsHandler',
    description:
      "Times a playing track's lyrics: the provider's timed transcription, then the lyrics aligned to it",
    // Waits for the transcription (TRANSCRIPTION_DEADLINE_MS, 200 s) and aligns in memory.
    memorySize: 512,
    // Below the TimeLyrics state's 300 s TimeoutSeconds.
    timeout: Duration.seconds(240),
  },
  StemsFunctionArn: {
    id: 'Stems',
    table: 'readWrite',
    handler: 'stemsHandler',
    description:
      "Stores a separation's stems (marked and signed WAVs, Opus copies, peaks) and their zip (decision 044)",
    // Up to six 240 s stems (~45 MB each) held at once, marked, signed, measured and encoded, then zipped:
    // 3008 MB holds them and buys about two vCPUs.
    memorySize: 3008,
    // Below the FinishStems state's 600 s TimeoutSeconds.
    timeout: Duration.seconds(540),
  },
  FailFunctionArn: {
    id: 'Fail',
    table: 'readWrite',
    handler: 'failHandler',
    description: 'Marks the track failed and refunds the reserved generation once',
    timeout: Duration.seconds(30),
  },
};

export interface GenerationWorkflowProps {
  readonly table: ITable;
  readonly uploads: IBucket;
  readonly tracks: IBucket;
  /**
   * Origin the music provider posts its webhook to, without a trailing slash:
   * the public site (`https://` + the distribution's domain), whose `/api/*`
   * behaviour serves `/api/webhooks/fal`, so the webhook passes the WAF and the
   * route throttles like every other call, and never the execute-api endpoint.
   */
  readonly webhookBaseUrl: string;
  /** The key sealing secret settings: the steps open the fal key with it. */
  readonly settingsKey?: SettingsKey;
  /** Where an execution-ended event that failed its retries goes. */
  readonly failedEvents?: IQueue;
  /**
   * How long the workflow's logs (state machine and task functions) are kept.
   * @default RetentionDays.ONE_MONTH
   */
  readonly logRetention?: RetentionDays;
}

/**
 * The generation workflow (DESIGN.md, Generation): a Step Functions Standard
 * state machine built from `functions/src/workflow/generation.asl.json`, the
 * same file the local runner executes, with each `${...FunctionArn}` bound to
 * one task function of `functions/src/lambdas/workflow.ts`.
 *
 * The music provider's API key is not part of the deployment: it is the secret
 * site setting `fal_api_key`, sealed with the settings key in the table (set on
 * the admin Site Settings page), so it never sits in a Lambda environment or a
 * template.
 */
export class GenerationWorkflow extends Construct {
  readonly stateMachine: StateMachine;
  /** The task functions, by ASL placeholder. */
  readonly functions: Record<AslSubstitution, NodeFunction>;
  /** Marks the track of an execution that ended FAILED, TIMED_OUT or ABORTED. */
  readonly executionEnded: NodeFunction;
  /**
   * The content credentials' (C2PA) signing key and certificates: a random
   * placeholder until PrepareDownload signs its first WAV, makes them and stores them
   * here (functions/src/adapters/c2pa/credential-store.ts).
   */
  readonly contentCredentials: Secret;
  readonly executionEndedRule: Rule;

  constructor(scope: Construct, id: string, props: GenerationWorkflowProps) {
    super(scope, id);

    const environment = {
      TABLE_NAME: props.table.tableName,
      TRACKS_BUCKET: props.tracks.bucketName,
      UPLOADS_BUCKET: props.uploads.bucketName,
      WEBHOOK_BASE_URL: props.webhookBaseUrl,
    };
    const functions = {} as Record<AslSubstitution, NodeFunction>;
    for (const name of ASL_SUBSTITUTIONS) {
      const step = steps[name];
      const fn = new NodeFunction(this, `${step.id}Function`, {
        entryName: 'workflow',
        handler: step.handler,
        description: `Tunesmith generation: ${step.description}`,
        environment,
        timeout: step.timeout,
        reservedConcurrency: WORKFLOW_RESERVED_CONCURRENCY[step.id],
        ...(step.memorySize ? { memorySize: step.memorySize } : {}),
        ...(props.logRetention ? { logRetention: props.logRetention } : {}),
      });
      grantTable(props.table, fn, step.table);
      // Every step builds the music provider, which reads the sealed fal_api_key setting.
      props.settingsKey?.grantOpen(fn);
      functions[name] = fn;
    }
    this.functions = functions;

    // Finish stores the master, its compressed copy and peaks, and PrepareDownload the WAV download (and reads
    // the master back); each removes what it stored, every version, if the track was deleted meanwhile, and
    // PrepareDownload the master once the download is there. Nothing else in the workflow writes objects.
    // FinishStems stores a separation's stems and zip beside the track's files (decision 044).
    for (const fn of [
      functions.FinishFunctionArn,
      functions.PrepareFunctionArn,
      functions.StemsFunctionArn,
    ]) {
      fn.addToRolePolicy(
        new PolicyStatement({
          actions: ['s3:PutObject'],
          resources: [props.tracks.arnForObjects(`${TRACKS_PREFIX}*`)],
        }),
      );
      grantDeleteEveryVersion(fn, props.tracks, [TRACKS_PREFIX]);
    }
    functions.PrepareFunctionArn.addToRolePolicy(
      new PolicyStatement({
        actions: ['s3:GetObject'],
        resources: [props.tracks.arnForObjects(`${TRACKS_PREFIX}*`)],
      }),
    );
    // PrepareDownload signs each WAV download with content credentials (C2PA). Their key is made on first use
    // and kept in this secret, which only PrepareDownload reads and writes.
    this.contentCredentials = new Secret(this, 'ContentCredentials', {
      description:
        'Tunesmith content credentials (C2PA): the signing key and certificate chain of WAV downloads, JSON, made by the PrepareDownload function on first use (a random placeholder until then)',
      generateSecretString: { passwordLength: 32, excludePunctuation: true },
      // Files signed with it carry their certificates: a new key after a redeploy leaves them valid.
      removalPolicy: RemovalPolicy.DESTROY,
    });
    // FinishStems signs each stem's WAV the same way (decision 044).
    for (const fn of [functions.PrepareFunctionArn, functions.StemsFunctionArn]) {
      fn.addEnvironment(C2PA_SIGNING_SECRET_ARN, this.contentCredentials.secretArn);
      fn.addToRolePolicy(
        new PolicyStatement({
          actions: ['secretsmanager:GetSecretValue', 'secretsmanager:PutSecretValue'],
          resources: [this.contentCredentials.secretArn],
        }),
      );
    }
    NagSuppressions.addResourceSuppressions(this.contentCredentials, [
      {
        id: 'AwsSolutions-SMG4',
        reason:
          'The signing key is made by the PrepareDownload function, not by a rotation Lambda; every signed file carries its own certificate chain, so putting any value that is not credentials in the secret rotates it (PrepareDownload makes new ones) without invalidating earlier files.',
      },
    ]);

    // TimeLyrics presigns a short-lived read of the track's WAV for the provider's transcription.
    functions.LyricsFunctionArn.addToRolePolicy(
      new PolicyStatement({
        actions: ['s3:GetObject'],
        resources: [props.tracks.arnForObjects(`${TRACKS_PREFIX}*`)],
      }),
    );
    // Submit presigns a read of the user's upload so the provider can fetch it (remix), and of the
    // parent track's WAV (extend, repaint): a presigned link works only as far as its signer's role does.
    functions.SubmitFunctionArn.addToRolePolicy(
      new PolicyStatement({
        actions: ['s3:GetObject'],
        resources: [
          props.uploads.arnForObjects(`${UPLOADS_AREA}*`),
          props.tracks.arnForObjects(`${TRACKS_PREFIX}*`),
        ],
      }),
    );

    const logGroup = new LogGroup(this, 'Logs', {
      // The vendedlogs prefix keeps CloudWatch Logs' account-wide resource policy small (Step Functions docs).
      logGroupName: `/aws/vendedlogs/states/${Stack.of(this).stackName}-generation`,
      retention: props.logRetention ?? RetentionDays.ONE_MONTH,
      removalPolicy: RemovalPolicy.DESTROY,
    });

    this.stateMachine = new StateMachine(this, 'StateMachine', {
      comment:
        'Tunesmith generation: submit, wait for the webhook, poll once, copy the audio, complete or fail, prepare the download',
      stateMachineType: StateMachineType.STANDARD,
      definitionBody: DefinitionBody.fromString(readGenerationAsl()),
      definitionSubstitutions: Object.fromEntries(
        ASL_SUBSTITUTIONS.map((name) => [name, functions[name].functionArn]),
      ),
      // Every event, so each execution's path (webhook, poll, failure) can be followed; without execution
      // data, because inputs and outputs carry task tokens and provider URLs that grant access.
      logs: { destination: logGroup, level: LogLevel.ALL, includeExecutionData: false },
      tracingEnabled: true,
    });
    // The definition names its functions only through substitutions, so CDK cannot infer the grant.
    this.stateMachine.addToRolePolicy(
      new PolicyStatement({
        actions: ['lambda:InvokeFunction'],
        resources: ASL_SUBSTITUTIONS.map((name) => functions[name].functionArn),
      }),
    );

    // The wait step answers the task itself when the webhook came first. A policy of its own, not the
    // role's default policy: the function depends on that one, and the state machine depends on the function.
    new Policy(this, 'WaitAnswersTask', {
      roles: [functions.WaitFunctionArn.role as NonNullable<NodeFunction['role']>],
      statements: [taskResponseStatement(this.stateMachine)],
    });

    for (const fn of Object.values(functions)) {
      NagSuppressions.addResourceSuppressions(
        fn,
        [
          {
            id: 'AwsSolutions-IAM5',
            reason:
              'DynamoDB grants cover the table and its GSIs (index/*): the steps read generations and settings and write the quota and callbacks.',
            appliesTo: [{ regex: '/^Resource::<.*Table[0-9A-F]{8}\\.Arn>\\/index\\/\\*$/' }],
          },
        ],
        true,
      );
    }
    NagSuppressions.addResourceSuppressions(
      [
        functions.FinishFunctionArn,
        functions.PrepareFunctionArn,
        functions.StemsFunctionArn,
        functions.SubmitFunctionArn,
        functions.LyricsFunctionArn,
      ],
      [
        {
          id: 'AwsSolutions-IAM5',
          reason:
            'Object keys are per user and per track under one prefix (tracks/ or uploads/), so the one object action applies to prefix/*.',
          appliesTo: [
            { regex: '/^Resource::<.*(Uploads|Tracks)[0-9A-F]{8}\\.Arn>\\/(tracks|uploads)\\/\\*$/' },
          ],
        },
      ],
      true,
    );
    NagSuppressions.addResourceSuppressions(
      this.stateMachine,
      [
        {
          id: 'AwsSolutions-IAM5',
          reason:
            'Step Functions log delivery (logs:CreateLogDelivery and friends) and X-Ray tracing (xray:PutTraceSegments and friends) support no resource-level permissions.',
          appliesTo: ['Resource::*'],
        },
      ],
      true,
    );

    // Nothing stays generating: an execution that ends FAILED, TIMED_OUT or ABORTED (even one that never
    // reached MarkFailed, or whose MarkFailed failed) has its track marked failed and refunded once.
    this.executionEnded = new NodeFunction(this, 'ExecutionEndedFunction', {
      entryName: 'workflow',
      handler: 'executionEndedHandler',
      description: 'Tunesmith generation: marks the track of a failed, timed-out or aborted execution failed',
      environment,
      timeout: Duration.seconds(30),
      reservedConcurrency: WORKFLOW_RESERVED_CONCURRENCY.ExecutionEnded,
      ...(props.logRetention ? { logRetention: props.logRetention } : {}),
      ...(props.failedEvents ? { deadLetterQueue: props.failedEvents } : {}),
    });
    grantTable(props.table, this.executionEnded, 'readWrite');
    props.settingsKey?.grantOpen(this.executionEnded);
    NagSuppressions.addResourceSuppressions(
      this.executionEnded,
      [
        {
          id: 'AwsSolutions-IAM5',
          reason:
            'DynamoDB grants cover the table and its GSIs (index/*): the handler reads the generation and the provider key setting and writes the track and the quota.',
          appliesTo: [{ regex: '/^Resource::<.*Table[0-9A-F]{8}\\.Arn>\\/index\\/\\*$/' }],
        },
      ],
      true,
    );
    this.executionEndedRule = new Rule(this, 'ExecutionEnded', {
      description: 'Tunesmith: a generation execution failed, timed out or was aborted',
      eventPattern: {
        source: ['aws.states'],
        detailType: ['Step Functions Execution Status Change'],
        detail: {
          status: ['FAILED', 'TIMED_OUT', 'ABORTED'],
          stateMachineArn: [this.stateMachine.stateMachineArn],
        },
      },
      targets: [
        new LambdaFunction(this.executionEnded, {
          retryAttempts: 8,
          maxEventAge: Duration.hours(6),
          ...(props.failedEvents ? { deadLetterQueue: props.failedEvents } : {}),
        }),
      ],
    });

    Annotations.of(this).addInfo(
      'The music provider key is the secret site setting fal_api_key: after deploying, set it on the admin Site Settings page (docs/deploy.md).',
    );
  }

  /** Lets a route-group function start generations: STATE_MACHINE_ARN and states:StartExecution on this machine only. */
  allowStart(fn: NodeFunction): void {
    fn.addEnvironment('STATE_MACHINE_ARN', this.stateMachine.stateMachineArn);
    fn.addToRolePolicy(
      new PolicyStatement({
        actions: ['states:StartExecution'],
        resources: [this.stateMachine.stateMachineArn],
      }),
    );
  }

  /** Lets a function answer a waiting task (the provider's webhook): SendTaskSuccess/SendTaskFailure only. */
  allowTaskResponse(fn: NodeFunction): void {
    fn.addToRolePolicy(taskResponseStatement(this.stateMachine));
  }
}

const taskResponseStatement = (stateMachine: StateMachine): PolicyStatement =>
  new PolicyStatement({
    actions: ['states:SendTaskSuccess', 'states:SendTaskFailure'],
    resources: [stateMachine.stateMachineArn],
  });

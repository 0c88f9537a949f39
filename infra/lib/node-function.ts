import { join } from 'node:path';
import { Duration, RemovalPolicy, Tags } from 'aws-cdk-lib';
import { Architecture, LoggingFormat, Runtime, Tracing } from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { NagSuppressions } from 'cdk-nag';
import type { Construct } from 'constructs';
import { lambdaEntry, repoRoot } from './paths';

/** Tag naming the entry file a function was built from; tests and operators find functions by it. */
export const ENTRY_TAG = 'tunesmith:entry';

export interface NodeFunctionProps {
  /** Entry file name under `functions/src/lambdas/`, without extension (a route group, `seed` or `workflow`). */
  readonly entryName: string;
  /**
   * Name of the handler export in the entry file; one entry may serve several functions.
   * @default 'handler'
   */
  readonly handler?: string;
  /**
   * Human-readable purpose, shown in the console.
   * @default - none
   */
  readonly description?: string;
  /**
   * Environment variables besides `NODE_OPTIONS`.
   * @default {}
   */
  readonly environment?: Record<string, string>;
  /**
   * Memory in MB; on Lambda CPU scales with it, so this also sets cold start speed.
   * @default 512
   */
  readonly memorySize?: number;
  /**
   * Must stay below API Gateway's 30 s integration timeout for API functions.
   * @default Duration.seconds(10)
   */
  readonly timeout?: Duration;
  /**
   * How long the function's logs are kept.
   * @default RetentionDays.ONE_MONTH
   */
  readonly logRetention?: RetentionDays;
  /**
   * Where asynchronous invocations that failed all their retries go. Only
   * for functions invoked asynchronously (EventBridge); API Gateway and Step
   * Functions invoke synchronously and see the error themselves.
   * @default - none: the function is invoked synchronously
   */
  readonly deadLetterQueue?: IQueue;
}

/**
 * A Lambda function from `functions/src/lambdas/<entryName>.ts` with the
 * project's defaults (DESIGN.md, Backend): Node.js 22 on arm64, esbuild ESM
 * bundle with the AWS SDK v3 clients inside, minified, source maps, X-Ray,
 * and its own log group with a retention.
 */
export class NodeFunction extends NodejsFunction {
  constructor(scope: Construct, id: string, props: NodeFunctionProps) {
    // A sibling, because a construct cannot own children before super() returns.
    const logGroup = new LogGroup(scope, `${id}Logs`, {
      retention: props.logRetention ?? RetentionDays.ONE_MONTH,
      // Operational logs, not user data: they go with the stack.
      removalPolicy: RemovalPolicy.DESTROY,
    });
    super(scope, id, {
      entry: lambdaEntry(props.entryName),
      handler: props.handler ?? 'handler',
      description: props.description,
      runtime: Runtime.NODEJS_22_X,
      architecture: Architecture.ARM_64,
      memorySize: props.memorySize ?? 512,
      timeout: props.timeout ?? Duration.seconds(10),
      tracing: Tracing.ACTIVE,
      logGroup,
      // Each line a JSON object with the request id, so CloudWatch Logs Insights can query any field.
      loggingFormat: LoggingFormat.JSON,
      ...(props.deadLetterQueue ? { deadLetterQueue: props.deadLetterQueue } : {}),
      projectRoot: repoRoot,
      depsLockFilePath: join(repoRoot, 'package-lock.json'),
      environment: {
        NODE_OPTIONS: '--enable-source-maps',
        ...props.environment,
      },
      bundling: {
        format: OutputFormat.ESM,
        target: 'node22',
        mainFields: ['module', 'main'],
        // CommonJS dependencies call require(), which ESM output lacks.
        banner:
          "import { createRequire as topLevelCreateRequire } from 'node:module'; const require = topLevelCreateRequire(import.meta.url);",
        minify: true,
        sourceMap: true,
        // Stack traces need file names and lines, not the sources: keeps bundles small.
        sourcesContent: false,
        // Bundle the SDK v3 clients we use rather than trusting the runtime's copy (version drift, cold start).
        externalModules: [],
      },
    });
    Tags.of(this).add(ENTRY_TAG, props.entryName);

    NagSuppressions.addResourceSuppressions(
      this,
      [
        {
          id: 'AwsSolutions-IAM4',
          reason:
            'AWSLambdaBasicExecutionRole is the AWS-maintained minimum for writing the function logs (CreateLogStream, PutLogEvents).',
          appliesTo: [
            'Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole',
          ],
        },
        {
          id: 'AwsSolutions-IAM5',
          reason:
            'Active tracing needs xray:PutTraceSegments and xray:PutTelemetryRecords, which support no resource-level permissions.',
          appliesTo: ['Resource::*'],
        },
        {
          id: 'AwsSolutions-L1',
          reason:
            'DESIGN.md fixes Node.js 22 for the Lambdas (bundles target node22); a newer runtime is a decision record away, not a default.',
        },
        {
          id: 'Serverless-LambdaLatestVersion',
          reason:
            'DESIGN.md fixes Node.js 22 for the Lambdas (bundles target node22); a newer runtime is a decision record away, not a default.',
        },
        ...(props.deadLetterQueue
          ? []
          : [
              {
                id: 'Serverless-LambdaDLQ',
                reason:
                  'Invoked synchronously (API Gateway, Step Functions or the custom resource framework), which sees the error and retries or answers; a DLQ applies to asynchronous invocations only.',
              },
            ]),
      ],
      true,
    );
  }
}

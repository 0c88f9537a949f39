import { AssetHashType, DockerImage, Duration, RemovalPolicy, Stack, Tags } from 'aws-cdk-lib';
import {
  Architecture,
  Code,
  Function as LambdaFunction,
  LoggingFormat,
  Runtime,
  Tracing,
} from 'aws-cdk-lib/aws-lambda';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { NagSuppressions } from 'cdk-nag';
import type { Construct } from 'constructs';
import { stageLambdaBundle } from './lambda-bundle';
import { repoRoot } from './paths';

/** Tag naming the entry file a function was built from; tests and operators find functions by it. */
export const ENTRY_TAG = 'tunesmith:entry';

/**
 * The Powertools service name of every function in `scope`'s stack: the stack's
 * name, which carries the stage (Tunesmith-dev, Tunesmith-prod). Logs, traces
 * and the functions' own metrics (the `service` dimension) of one stage never
 * mix with another's; the dashboard reads the same name.
 */
export function serviceNameOf(scope: Construct): string {
  return Stack.of(scope).stackName;
}

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
  /**
   * Executions set aside for this function alone, which is also as many as it
   * may run at once (infra/lib/capacity.ts adds them up for the preflight).
   * @default - none: it shares the account's unreserved concurrency
   */
  readonly reservedConcurrency?: number;
}

/**
 * A Lambda function from `functions/src/lambdas/<entryName>.ts` with the
 * project's defaults (DESIGN.md, Backend; decision 033): Node.js 24 on arm64, the esbuild
 * ESM bundle of lambda-bundle.ts (AWS SDK v3 clients inside, minified, split
 * so lazily imported code stays out of the cold start, source maps), X-Ray,
 * and its own log group with a retention.
 */
export class NodeFunction extends LambdaFunction {
  constructor(scope: Construct, id: string, props: NodeFunctionProps) {
    // A sibling, because a construct cannot own children before super() returns.
    const logGroup = new LogGroup(scope, `${id}Logs`, {
      retention: props.logRetention ?? RetentionDays.ONE_MONTH,
      // Operational logs, not user data: they go with the stack.
      removalPolicy: RemovalPolicy.DESTROY,
    });
    super(scope, id, {
      code: Code.fromAsset(repoRoot, {
        // The hash of what is deployed: an unchanged bundle is not uploaded again.
        assetHashType: AssetHashType.OUTPUT,
        bundling: {
          // Never pulled: esbuild runs in this process (tryBundle answers true or throws).
          image: DockerImage.fromRegistry('public.ecr.aws/sam/build-nodejs24.x'),
          // CDK caches staged assets by source path and bundling options, functions left out:
          // the entry must be in them, or every function would get the first one's bundle.
          command: ['bundle', props.entryName],
          local: {
            tryBundle(outputDir) {
              stageLambdaBundle(props.entryName, outputDir);
              return true;
            },
          },
        },
      }),
      handler: `index.${props.handler ?? 'handler'}`,
      description: props.description,
      runtime: Runtime.NODEJS_24_X,
      architecture: Architecture.ARM_64,
      memorySize: props.memorySize ?? 512,
      timeout: props.timeout ?? Duration.seconds(10),
      tracing: Tracing.ACTIVE,
      logGroup,
      // Each line a JSON object with the request id, so CloudWatch Logs Insights can query any field.
      loggingFormat: LoggingFormat.JSON,
      ...(props.deadLetterQueue ? { deadLetterQueue: props.deadLetterQueue } : {}),
      ...(props.reservedConcurrency ? { reservedConcurrentExecutions: props.reservedConcurrency } : {}),
      environment: {
        NODE_OPTIONS: '--enable-source-maps',
        POWERTOOLS_SERVICE_NAME: serviceNameOf(scope),
        ...props.environment,
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

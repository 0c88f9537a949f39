import { Duration } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { NagSuppressions } from 'cdk-nag';
import { Construct } from 'constructs';
import { NodeFunction } from './node-function';
import { grantTable } from './table-access';

/** Lambda's retries of a failed run of the delivery function (a run fails only when the table does). */
export const WEBHOOK_DELIVERY_RETRIES = 2;

export interface WebhookDeliveryProps {
  readonly table: ITable;
  /** Environment of the function: the table, and PUBLIC_ORIGIN for the tracks' provenance links. */
  readonly environment: Record<string, string>;
  /**
   * How long the function's logs are kept.
   * @default RetentionDays.ONE_MONTH (NodeFunction's)
   */
  readonly logRetention?: RetentionDays;
}

/**
 * Webhook delivery (`functions/src/lambdas/webhook-delivery.ts`, decision
 * 053): started with an event's deliveries by the function that raised it
 * (an asynchronous invocation), and every minute by a schedule that sends
 * every delivery due (retries, and any whose start was lost). Its failed
 * runs go to a dead-letter queue of its own, which Monitoring alarms on, so
 * a delivery outage is told apart from the other background work. It calls
 * the internet (the users' endpoints) through the SSRF-safe sender, and
 * reads and writes the table only.
 */
export class WebhookDelivery extends Construct {
  readonly handler: NodeFunction;
  readonly deadLetters: Queue;
  readonly schedule: Rule;

  constructor(scope: Construct, id: string, props: WebhookDeliveryProps) {
    super(scope, id);
    this.deadLetters = new Queue(this, 'DeadLetters', {
      retentionPeriod: Duration.days(14),
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
    });
    NagSuppressions.addResourceSuppressions(this.deadLetters, [
      {
        id: 'Serverless-SQSRedrivePolicy',
        reason:
          'This queue is itself the dead-letter queue of the webhook delivery function; an operator reads and redrives it.',
      },
    ]);
    this.handler = new NodeFunction(this, 'Handler', {
      entryName: 'webhook-delivery',
      description: 'Tunesmith: delivers webhooks (signed, retried with backoff for a day)',
      environment: props.environment,
      // Up to 100 due deliveries, 8 at a time, each try cut at 5 s.
      timeout: Duration.minutes(2),
      memorySize: 256,
      deadLetterQueue: this.deadLetters,
      ...(props.logRetention ? { logRetention: props.logRetention } : {}),
    });
    this.handler.configureAsyncInvoke({
      retryAttempts: WEBHOOK_DELIVERY_RETRIES,
      maxEventAge: Duration.hours(1),
    });
    NagSuppressions.addResourceSuppressions(
      this.handler,
      [
        {
          id: 'Serverless-LambdaAsyncFailureDestination',
          reason:
            "A run that fails all its attempts goes to the function's own dead-letter queue (alarmed at its first message); a failure destination as well would deliver it twice.",
        },
        {
          id: 'AwsSolutions-IAM5',
          reason:
            'DynamoDB grants cover the table and its GSIs (index/*): deliveries are found per endpoint (gsi1) and when due (gsi2).',
          appliesTo: [{ regex: '/^Resource::<.*Table[0-9A-F]{8}\\.Arn>\\/index\\/\\*$/' }],
        },
      ],
      true,
    );
    grantTable(props.table, this.handler, 'readWrite');
    this.schedule = new Rule(this, 'EveryMinute', {
      description: 'Tunesmith: sends the webhook deliveries that are due',
      schedule: Schedule.rate(Duration.minutes(1)),
      targets: [
        new LambdaFunction(this.handler, {
          retryAttempts: 2,
          // A missed minute is made up by the next one: an old schedule event is worth nothing.
          maxEventAge: Duration.minutes(5),
          deadLetterQueue: this.deadLetters,
        }),
      ],
    });
  }

  /** Lets a function start deliveries: WEBHOOKS_FUNCTION_NAME and lambda:InvokeFunction on this function only. */
  allowStart(fn: NodeFunction): void {
    fn.addEnvironment('WEBHOOKS_FUNCTION_NAME', this.handler.functionName);
    fn.addToRolePolicy(
      new PolicyStatement({ actions: ['lambda:InvokeFunction'], resources: [this.handler.functionArn] }),
    );
  }
}

import { Duration } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { NodeFunction } from './node-function';

export interface UsageAnalyticsProps {
  readonly table: ITable;
  /** Where a run that failed its retries goes. */
  readonly failedEvents: IQueue;
}

/**
 * The daily usage_analytics job (decision 006): `functions/src/lambdas/analytics.ts`
 * runs at 00:05 UTC and writes the record of the day that ended from the
 * counter items. It reads two items and writes one, so that is all it may do.
 */
export class UsageAnalytics extends Construct {
  readonly handler: NodeFunction;
  readonly rule: Rule;

  constructor(scope: Construct, id: string, props: UsageAnalyticsProps) {
    super(scope, id);
    this.handler = new NodeFunction(this, 'Handler', {
      entryName: 'analytics',
      description: 'Tunesmith: writes the daily usage_analytics record',
      environment: { TABLE_NAME: props.table.tableName },
      timeout: Duration.seconds(30),
      deadLetterQueue: props.failedEvents,
    });
    // The counter items and the day's record: the table itself, no index.
    this.handler.addToRolePolicy(
      new PolicyStatement({
        actions: ['dynamodb:GetItem', 'dynamodb:PutItem'],
        resources: [props.table.tableArn],
      }),
    );
    this.rule = new Rule(this, 'Daily', {
      description: 'Tunesmith: usage analytics of the day that ended (00:05 UTC)',
      schedule: Schedule.cron({ minute: '5', hour: '0' }),
      targets: [new LambdaFunction(this.handler, { retryAttempts: 2, deadLetterQueue: props.failedEvents })],
    });
  }
}

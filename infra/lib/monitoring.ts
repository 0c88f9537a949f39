import { METRICS_NAMESPACE, metricNames } from '@tunesmith/functions/adapters/metric-names';
import { CfnOutput, Duration, Stack } from 'aws-cdk-lib';
import type { HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import {
  Alarm,
  ComparisonOperator,
  Dashboard,
  GraphWidget,
  type IMetric,
  MathExpression,
  Metric,
  TreatMissingData,
} from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Alias } from 'aws-cdk-lib/aws-kms';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { Topic } from 'aws-cdk-lib/aws-sns';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import type { StateMachine } from 'aws-cdk-lib/aws-stepfunctions';
import { Construct } from 'constructs';

export interface MonitoringProps {
  readonly api: HttpApi;
  /** Every function, by a name the alarms and the dashboard show. */
  readonly functions: Record<string, IFunction>;
  readonly stateMachine: StateMachine;
  readonly table: ITable;
  readonly deadLetters: IQueue;
}

const FIVE_MINUTES = Duration.minutes(5);

/**
 * What an operator watches from day one: alarms on API 5xx and latency,
 * function errors and throttles, failed and timed-out generations, DynamoDB
 * throttling and dead letters, all to one SNS topic (subscribe to the stack
 * output AlarmTopicArn), and a dashboard of the same.
 */
export class Monitoring extends Construct {
  readonly topic: Topic;
  readonly alarms: Alarm[] = [];
  readonly dashboard: Dashboard;

  constructor(scope: Construct, id: string, props: MonitoringProps) {
    super(scope, id);
    this.topic = new Topic(this, 'Alarms', {
      displayName: `Tunesmith alarms (${Stack.of(this).stackName})`,
      masterKey: Alias.fromAliasName(this, 'SnsKey', 'alias/aws/sns'),
      enforceSSL: true,
    });
    const action = new SnsAction(this.topic);
    const alarm = (name: string, metric: IMetric, threshold: number, description: string, periods = 1) => {
      const created = new Alarm(this, name, {
        metric,
        threshold,
        evaluationPeriods: periods,
        comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        treatMissingData: TreatMissingData.NOT_BREACHING,
        alarmDescription: description,
      });
      created.addAlarmAction(action);
      created.addOkAction(action);
      this.alarms.push(created);
      return created;
    };

    const api5xx = props.api.metricServerError({ period: FIVE_MINUTES, statistic: 'Sum' });
    const apiLatency = props.api.metricLatency({ period: FIVE_MINUTES, statistic: 'p99' });
    alarm('Api5xx', api5xx, 5, 'The API answered 5 or more 5xx in 5 minutes');
    alarm('ApiLatency', apiLatency, 3000, 'API p99 latency at or above 3 s for 15 minutes', 3);

    for (const [name, fn] of Object.entries(props.functions)) {
      alarm(
        `${name}Errors`,
        fn.metricErrors({ period: FIVE_MINUTES, statistic: 'Sum' }),
        3,
        `${name}: 3 or more errors in 5 minutes`,
      );
      alarm(
        `${name}Throttles`,
        fn.metricThrottles({ period: FIVE_MINUTES, statistic: 'Sum' }),
        1,
        `${name}: throttled`,
      );
    }

    const failed = props.stateMachine.metricFailed({ period: FIVE_MINUTES, statistic: 'Sum' });
    const timedOut = props.stateMachine.metricTimedOut({ period: FIVE_MINUTES, statistic: 'Sum' });
    alarm('GenerationsFailed', failed, 5, '5 or more generations failed in 5 minutes');
    alarm('GenerationsTimedOut', timedOut, 1, 'A generation execution timed out');

    const throttled = new Metric({
      namespace: 'AWS/DynamoDB',
      metricName: 'ThrottledRequests',
      dimensionsMap: { TableName: props.table.tableName },
      period: FIVE_MINUTES,
      statistic: 'Sum',
    });
    alarm('TableThrottled', throttled, 1, 'DynamoDB throttled requests on the table');

    const deadLetters = props.deadLetters.metricApproximateNumberOfMessagesVisible({
      period: FIVE_MINUTES,
      statistic: 'Maximum',
    });
    alarm('DeadLetters', deadLetters, 1, 'An event failed all its retries: see the FailedEvents queue');

    // Account mail: SES pauses sending above a 10% bounce or 0.5% complaint rate; hear about it well before.
    const reputation = (metricName: string) =>
      new Metric({ namespace: 'AWS/SES', metricName, period: Duration.hours(1), statistic: 'Maximum' });
    alarm('MailBounceRate', reputation('Reputation.BounceRate'), 0.05, 'Mail bounce rate at or above 5%');
    alarm(
      'MailComplaintRate',
      reputation('Reputation.ComplaintRate'),
      0.001,
      'Mail complaint rate at or above 0.1%',
    );

    // What the functions count themselves (Powertools Metrics, embedded metric format).
    const appMetric = (metricName: string) =>
      new Metric({
        namespace: METRICS_NAMESPACE,
        metricName,
        dimensionsMap: { service: 'tunesmith' },
        period: FIVE_MINUTES,
        statistic: 'Sum',
      });
    const appMetricByOutcome = (metricName: string, label: string) =>
      new MathExpression({
        expression: `SEARCH('{${METRICS_NAMESPACE},outcome,service} MetricName="${metricName}"', 'Sum', 300)`,
        label,
        period: FIVE_MINUTES,
      });

    this.dashboard = new Dashboard(this, 'Dashboard', {
      widgets: [
        [
          new GraphWidget({ title: 'API 5xx', left: [api5xx], width: 8 }),
          new GraphWidget({ title: 'API p99 latency (ms)', left: [apiLatency], width: 8 }),
          new GraphWidget({
            title: 'Generations',
            left: [
              props.stateMachine.metricSucceeded({ period: FIVE_MINUTES, statistic: 'Sum' }),
              failed,
              timedOut,
            ],
            width: 8,
          }),
        ],
        [
          new GraphWidget({
            title: 'Function errors',
            left: Object.values(props.functions).map((fn) => fn.metricErrors({ period: FIVE_MINUTES })),
            width: 12,
          }),
          new GraphWidget({
            title: 'DynamoDB throttles and dead letters',
            left: [throttled, deadLetters],
            width: 12,
          }),
        ],
        [
          new GraphWidget({
            title: 'Generations started, completed, failed, refunded',
            left: [
              metricNames.generationsStarted,
              metricNames.generationsCompleted,
              metricNames.generationsFailed,
              metricNames.generationsRefunded,
            ].map((metricName) => appMetric(metricName)),
            width: 12,
          }),
          new GraphWidget({
            title: 'Webhooks by outcome',
            left: [
              appMetricByOutcome(metricNames.falWebhooks, 'FAL'),
              appMetricByOutcome(metricNames.stripeWebhooks, 'Stripe'),
            ],
            width: 12,
          }),
        ],
      ],
    });

    new CfnOutput(Stack.of(this), 'AlarmTopicArn', {
      value: this.topic.topicArn,
      description: 'SNS topic of every alarm: subscribe an address (aws sns subscribe --protocol email ...)',
    });
  }
}

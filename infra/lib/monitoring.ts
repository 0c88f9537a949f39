import { METRICS_NAMESPACE, metricNames } from '@tunesmith/functions/adapters/metric-names';
import { Aws, CfnOutput, Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
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
import { PolicyStatement, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Key } from 'aws-cdk-lib/aws-kms';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import type { StateMachine } from 'aws-cdk-lib/aws-stepfunctions';
import { NagSuppressions } from 'cdk-nag';
import { Construct } from 'constructs';

export interface MonitoringProps {
  readonly api: HttpApi;
  /** Every function, by a name the alarms and the dashboard show. */
  readonly functions: Record<string, IFunction>;
  readonly stateMachine: StateMachine;
  readonly table: ITable;
  /** The table's global secondary indexes: DynamoDB reports their throttling apart from the table's. */
  readonly tableIndexes: readonly string[];
  readonly deadLetters: IQueue;
  /** The webhook delivery function's own dead-letter queue (decision 053). */
  readonly webhookDeadLetters?: IQueue;
  /**
   * The `service` dimension the stage's functions publish their own metrics
   * under (POWERTOOLS_SERVICE_NAME, `serviceNameOf`): the dashboard reads only
   * this stage's.
   */
  readonly serviceName: string;
  /**
   * An address the topic mails every alarm to (`-c alarmEmail=...`); AWS
   * mails it a confirmation link first.
   * @default - none: subscribe to the output AlarmTopicArn yourself
   */
  readonly alarmEmail?: string;
}

const EMAIL = /^[^\s@<>]+@[^\s@<>]+\.[^\s@<>]+$/;

const FIVE_MINUTES = Duration.minutes(5);

/**
 * What an operator watches from day one: alarms on API 5xx and latency,
 * function errors and throttles, failed and timed-out generations, DynamoDB
 * throttling and dead letters, all to one SNS topic (subscribe to the stack
 * output AlarmTopicArn), and a dashboard of the same.
 */
export class Monitoring extends Construct {
  readonly topic: Topic;
  /** The customer-managed key of the topic, whose policy lets CloudWatch publish. */
  readonly key: Key;
  readonly alarms: Alarm[] = [];
  readonly dashboard: Dashboard;

  constructor(scope: Construct, id: string, props: MonitoringProps) {
    super(scope, id);
    const stackName = Stack.of(this).stackName;
    // A key of our own: the AWS-managed aws/sns key's policy cannot be changed, so CloudWatch could
    // never use it, and every alarm notification to a topic encrypted with it is dropped.
    this.key = new Key(this, 'AlarmsKey', {
      description: `Tunesmith (${stackName}): encrypts the alarm topic; CloudWatch may use it to publish`,
      enableKeyRotation: true,
      // Holds no data at rest beyond messages in flight: it goes with the stack.
      removalPolicy: RemovalPolicy.DESTROY,
    });
    // The publishers of this topic: CloudWatch alarms (the only one; nothing else in the stack publishes here).
    this.key.addToResourcePolicy(
      new PolicyStatement({
        sid: 'CloudWatchAlarmsPublish',
        principals: [new ServicePrincipal('cloudwatch.amazonaws.com')],
        actions: ['kms:Decrypt', 'kms:GenerateDataKey*'],
        resources: ['*'],
        conditions: { StringEquals: { 'aws:SourceAccount': Aws.ACCOUNT_ID } },
      }),
    );
    this.topic = new Topic(this, 'Alarms', {
      displayName: `Tunesmith alarms (${stackName})`,
      masterKey: this.key,
      enforceSSL: true,
    });
    // The topic's policy replaces SNS's default one: say that CloudWatch (of this account) may publish.
    this.topic.addToResourcePolicy(
      new PolicyStatement({
        sid: 'CloudWatchAlarmsPublish',
        principals: [new ServicePrincipal('cloudwatch.amazonaws.com')],
        actions: ['sns:Publish'],
        resources: [this.topic.topicArn],
        conditions: { StringEquals: { 'aws:SourceAccount': Aws.ACCOUNT_ID } },
      }),
    );
    if (props.alarmEmail !== undefined) {
      const address = props.alarmEmail.trim();
      if (!EMAIL.test(address)) throw new Error(`alarmEmail "${address}" is not an email address.`);
      const subscription = this.topic.addSubscription(new EmailSubscription(address));
      NagSuppressions.addResourceSuppressions(subscription, [
        {
          id: 'Serverless-SNSRedrivePolicy',
          reason:
            'A mail to the operator that cannot be delivered has nowhere better to go: the alarm itself keeps its state and history in CloudWatch, and a dead-letter queue of undelivered alarm mails would be one more thing no one watches.',
        },
      ]);
    }
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

    // DynamoDB publishes ThrottledRequests per operation only; Read/WriteThrottleEvents exist for the
    // table (TableName) and for each index (TableName and GlobalSecondaryIndexName).
    const throttled: IMetric[] = [];
    for (const index of [undefined, ...props.tableIndexes]) {
      for (const kind of ['Read', 'Write'] as const) {
        const metric = new Metric({
          namespace: 'AWS/DynamoDB',
          metricName: `${kind}ThrottleEvents`,
          dimensionsMap: {
            TableName: props.table.tableName,
            ...(index ? { GlobalSecondaryIndexName: index } : {}),
          },
          period: FIVE_MINUTES,
          statistic: 'Sum',
        });
        // Labelled on the dashboard only: an alarm on a labelled metric becomes a metric-math alarm.
        throttled.push(metric.with({ label: `${kind} throttles (${index ?? 'table'})` }));
        const where = index ? `index ${index}` : 'the table';
        alarm(
          `Table${index ? `Index-${index}-` : ''}${kind}Throttled`,
          metric,
          1,
          `DynamoDB throttled ${kind.toLowerCase()}s on ${where}`,
        );
      }
    }
    const deadLetters = props.deadLetters.metricApproximateNumberOfMessagesVisible({
      period: FIVE_MINUTES,
      statistic: 'Maximum',
    });
    alarm('DeadLetters', deadLetters, 1, 'An event failed all its retries: see the FailedEvents queue');
    if (props.webhookDeadLetters)
      alarm(
        'WebhookDeadLetters',
        props.webhookDeadLetters.metricApproximateNumberOfMessagesVisible({
          period: FIVE_MINUTES,
          statistic: 'Maximum',
        }),
        1,
        'A webhook delivery run failed all its retries (the table?): see the Webhooks DeadLetters queue',
      );

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
        dimensionsMap: { service: props.serviceName },
        period: FIVE_MINUTES,
        statistic: 'Sum',
      });
    const appMetricByOutcome = (metricName: string, label: string) =>
      new MathExpression({
        expression: `SEARCH('{${METRICS_NAMESPACE},outcome,service} MetricName="${metricName}" service="${props.serviceName}"', 'Sum', 300)`,
        label,
        period: FIVE_MINUTES,
      });
    // A track that plays but whose download the workflow could not prepare after its retries: the operator
    // runs `npm run backfill -- files` (docs/operations.md).
    alarm(
      'DownloadsNotPrepared',
      appMetric(metricNames.downloadsNotPrepared),
      1,
      'A track plays but its download was not prepared: run npm run backfill -- files',
    );
    // A track that plays but whose lyrics the workflow could not time after its retries (the transcription
    // failed): its lyrics page answers 404 until they are timed.
    alarm(
      'LyricsNotTimed',
      appMetric(metricNames.lyricsNotTimed),
      1,
      'A track plays but its lyrics were not timed (the transcription failed after retries)',
    );

    this.dashboard = new Dashboard(this, 'Dashboard', {
      // The stack's name carries the stage (Tunesmith-dev, Tunesmith-prod): one dashboard per stage.
      dashboardName: stackName,
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
            left: [...throttled, deadLetters],
            width: 12,
          }),
        ],
        [
          new GraphWidget({
            title:
              'Generations started, completed, failed, refunded; downloads not prepared, lyrics not timed, separations failed',
            left: [
              metricNames.generationsStarted,
              metricNames.generationsCompleted,
              metricNames.generationsFailed,
              metricNames.generationsRefunded,
              metricNames.downloadsNotPrepared,
              metricNames.lyricsNotTimed,
              metricNames.separationsFailed,
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

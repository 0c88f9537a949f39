import { routeGroups } from '@tunesmith/shared/routes';
import { describe, expect, it } from 'vitest';
import {
  flatten,
  functionsByEntry,
  logicalId,
  propsOf,
  type Resource,
  type Statement,
  stageContext,
  synth,
  synthBeforeAll,
} from './helpers';

// What an operator watches on day one: alarms to one topic, and a dashboard.

type PolicyStatement = Statement & { Principal?: unknown; Condition?: unknown };

const synthesized = synthBeforeAll();
const { resources, functionOf } = synthesized;

const alarms = () =>
  Object.values(resources)
    .filter((r) => r.Type === 'AWS::CloudWatch::Alarm')
    .map((r) => propsOf(r));
const topicId = () => logicalId(synthesized.stack, synthesized.stack.monitoring.topic.node.defaultChild);

describe('monitoring', () => {
  it('sends every alarm, raised and cleared, to one topic that is a stack output', () => {
    expect(alarms().length).toBeGreaterThan(20);
    for (const alarm of alarms()) {
      expect(flatten(alarm.AlarmActions), String(alarm.AlarmDescription)).toContain(topicId());
      expect(flatten(alarm.OKActions)).toContain(topicId());
    }
    const output = synthesized.template.toJSON().Outputs?.AlarmTopicArn as { Value: unknown };
    expect(flatten(output.Value)).toBe(`{Ref:${topicId()}}`);
  });

  it('watches errors and throttles of every route-group and workflow function', () => {
    const watched = (metric: string) =>
      alarms()
        .filter((a) => a.MetricName === metric && a.Namespace === 'AWS/Lambda')
        .map((a) => flatten((a.Dimensions as { Value: unknown }[])[0]?.Value));
    for (const group of routeGroups) {
      expect(watched('Errors'), group).toContain(`{Ref:${functionOf(group)}}`);
      expect(watched('Throttles'), group).toContain(`{Ref:${functionOf(group)}}`);
    }
    const workflowFunctions = Object.values(synthesized.stack.workflow.functions).map(
      (fn) => `{Ref:${logicalId(synthesized.stack, fn.node.defaultChild)}}`,
    );
    for (const fn of workflowFunctions) expect(watched('Errors')).toContain(fn);
  });

  it('watches API 5xx and latency, failed and timed-out generations, table throttling and dead letters', () => {
    const metrics = alarms().map((a) => `${a.Namespace}/${a.MetricName}`);
    expect(metrics).toEqual(
      expect.arrayContaining([
        'AWS/ApiGateway/5xx',
        'AWS/ApiGateway/Latency',
        'AWS/States/ExecutionsFailed',
        'AWS/States/ExecutionsTimedOut',
        'AWS/DynamoDB/ReadThrottleEvents',
        'AWS/DynamoDB/WriteThrottleEvents',
        'AWS/SQS/ApproximateNumberOfMessagesVisible',
        'AWS/SES/Reputation.BounceRate',
        'AWS/SES/Reputation.ComplaintRate',
      ]),
    );
  });

  it('alarms at the first track that plays but whose download was not prepared, for the files backfill', () => {
    const alarm = alarms().find((a) => a.MetricName === 'DownloadsNotPrepared');
    expect(alarm).toMatchObject({ Namespace: 'Tunesmith', Threshold: 1 });
    expect(JSON.stringify(alarm)).toContain('npm run backfill -- files');
  });

  it('has a dashboard', () => {
    const dashboards = Object.values(resources).filter((r) => r.Type === 'AWS::CloudWatch::Dashboard');
    expect(dashboards).toHaveLength(1);
    const body = JSON.stringify(propsOf(dashboards[0]).DashboardBody);
    for (const title of ['API 5xx', 'API p99 latency', 'Generations', 'Function errors'])
      expect(body).toContain(title);
    // The functions' own counts (Powertools Metrics): generations through their life, webhooks by outcome.
    for (const metric of [
      'GenerationsStarted',
      'GenerationsCompleted',
      'GenerationsFailed',
      'GenerationsRefunded',
      'FalWebhooks',
      'StripeWebhooks',
    ])
      expect(body).toContain(metric);
    expect(body).toContain('Tunesmith');
  });

  it('encrypts the topic with a key of its own whose policy lets CloudWatch publish, and lets CloudWatch publish to it', () => {
    const topic = propsOf(resources[topicId()]);
    // Not the AWS-managed aws/sns key, whose policy CloudWatch is not in: a key of this stack.
    const keyRef = topic.KmsMasterKeyId as { 'Fn::GetAtt'?: [string, string] };
    const keyId = keyRef['Fn::GetAtt']?.[0] as string;
    expect(resources[keyId]?.Type).toBe('AWS::KMS::Key');
    const key = propsOf(resources[keyId]);
    expect(key.EnableKeyRotation).toBe(true);
    const statements = (key.KeyPolicy as { Statement: PolicyStatement[] }).Statement;
    const cloudWatch = statements.find((s) => flatten(s.Principal).includes('cloudwatch.amazonaws.com'));
    expect(cloudWatch?.Effect).toBe('Allow');
    expect(cloudWatch?.Action).toEqual(expect.arrayContaining(['kms:Decrypt', 'kms:GenerateDataKey*']));
    expect(flatten(cloudWatch?.Condition)).toContain('aws:SourceAccount');

    const topicPolicies = Object.values(resources).filter(
      (r) =>
        r.Type === 'AWS::SNS::TopicPolicy' &&
        (propsOf(r).Topics as unknown[]).some((t) => flatten(t) === `{Ref:${topicId()}}`),
    );
    const published = topicPolicies
      .flatMap((r) => (propsOf(r).PolicyDocument as { Statement: PolicyStatement[] }).Statement)
      .find((s) => s.Effect === 'Allow' && flatten(s.Principal).includes('cloudwatch.amazonaws.com'));
    expect(published?.Action).toBe('sns:Publish');
  });

  it('mails no one unless asked', () => {
    expect(Object.values(resources).filter((r) => r.Type === 'AWS::SNS::Subscription')).toEqual([]);
  });

  it('alarms on read and write throttling of the table and of each of its indexes', () => {
    const table = logicalId(synthesized.stack, synthesized.stack.data.table.node.defaultChild);
    const indexes = (propsOf(resources[table]).GlobalSecondaryIndexes as { IndexName: string }[]).map(
      (index) => index.IndexName,
    );
    expect(indexes.length).toBeGreaterThan(0);
    const watched = alarms()
      .filter((a) => a.Namespace === 'AWS/DynamoDB')
      .map((a) => {
        const dims = Object.fromEntries(
          (a.Dimensions as { Name: string; Value: unknown }[]).map((d) => [d.Name, flatten(d.Value)]),
        );
        expect(dims.TableName).toBe(`{Ref:${table}}`);
        expect(a.Statistic).toBe('Sum');
        return `${a.MetricName} ${dims.GlobalSecondaryIndexName ?? 'table'}`;
      });
    const expected = ['table', ...indexes].flatMap((where) => [
      `ReadThrottleEvents ${where}`,
      `WriteThrottleEvents ${where}`,
    ]);
    expect(watched.sort()).toEqual(expected.sort());
  });
});

const environments = (resources: Record<string, Resource>) =>
  [...functionsByEntry(resources).values()]
    .flat()
    .map((id) => (propsOf(resources[id]).Environment as { Variables: Record<string, unknown> }).Variables);

describe('monitoring per stage', () => {
  it('gives each stage its own service name on every function and its own dashboard, reading its own metrics', () => {
    const seen: Record<string, string> = {};
    for (const stage of ['dev', 'prod']) {
      // The stage's own stack name (Tunesmith-dev, Tunesmith-prod), as `cdk deploy -c stage=...` names it.
      const { resources } = synth({ stackName: undefined, context: stageContext(stage) });
      const service = `Tunesmith-${stage}`;
      const envs = environments(resources);
      expect(envs.length).toBeGreaterThan(10);
      for (const env of envs) expect(env.POWERTOOLS_SERVICE_NAME).toBe(service);

      const [dashboard] = Object.values(resources).filter((r) => r.Type === 'AWS::CloudWatch::Dashboard');
      expect(propsOf(dashboard).DashboardName).toBe(service);
      const body = flatten(propsOf(dashboard).DashboardBody);
      // Every read of the functions' own metrics names this stage's service, and no other.
      const services = [
        ...[...body.matchAll(/"service","([^"]+)"/g)],
        ...[...body.matchAll(/service=\\"([^"\\]+)\\"/g)],
      ].map((m) => m[1]);
      expect(services.length).toBeGreaterThanOrEqual(6);
      expect(new Set(services)).toEqual(new Set([service]));
      seen[stage] = service;
    }
    expect(seen.dev).not.toBe(seen.prod);
  });

  it('subscribes the address of -c alarmEmail to the alarm topic, and refuses one that is not an address', () => {
    const { resources, stack } = synth({ context: { alarmEmail: 'ops@example.org' } });
    const topic = logicalId(stack, stack.monitoring.topic.node.defaultChild);
    const subscriptions = Object.values(resources).filter((r) => r.Type === 'AWS::SNS::Subscription');
    expect(subscriptions).toHaveLength(1);
    expect(propsOf(subscriptions[0])).toMatchObject({ Protocol: 'email', Endpoint: 'ops@example.org' });
    expect(flatten(propsOf(subscriptions[0]).TopicArn)).toBe(`{Ref:${topic}}`);

    expect(() => synth({ context: { alarmEmail: 'ops at example' } })).toThrow(/not an email address/);
  });
});

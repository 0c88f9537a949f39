import { routeGroups } from '@tunesmith/shared/routes';
import { describe, expect, it } from 'vitest';
import { flatten, logicalId, propsOf, synthBeforeAll } from './helpers';

// What an operator watches on day one: alarms to one topic, and a dashboard.

const synthesized = synthBeforeAll();
const { resources, functionOf } = synthesized;

const alarms = () =>
  Object.values(resources)
    .filter((r) => r.Type === 'AWS::CloudWatch::Alarm')
    .map((r) => propsOf(r));
const topicId = () => logicalId(synthesized.stack, synthesized.stack.monitoring.topic.node.defaultChild);

describe('monitoring', () => {
  it('sends every alarm, raised and cleared, to one encrypted topic that is a stack output', () => {
    expect(alarms().length).toBeGreaterThan(20);
    for (const alarm of alarms()) {
      expect(flatten(alarm.AlarmActions), String(alarm.AlarmDescription)).toContain(topicId());
      expect(flatten(alarm.OKActions)).toContain(topicId());
    }
    expect(propsOf(resources[topicId()]).KmsMasterKeyId).toBeDefined();
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
        'AWS/DynamoDB/ThrottledRequests',
        'AWS/SQS/ApproximateNumberOfMessagesVisible',
        'AWS/SES/Reputation.BounceRate',
        'AWS/SES/Reputation.ComplaintRate',
      ]),
    );
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
});

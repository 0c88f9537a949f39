import { routeGroups } from '@tunesmith/shared/routes';
import { describe, expect, it } from 'vitest';
import { WEBHOOK_DELIVERY_RETRIES } from '../lib/webhooks';
import {
  actionsOf,
  flatten,
  functionsByEntry,
  logicalId,
  propsOf,
  resourcesOf,
  type Statement,
  statementsOfFunction,
  synthBeforeAll,
} from './helpers';

// Webhooks for developers (decision 053): a function of their own, started by the workflow and every minute,
// whose failed runs land in a dead-letter queue of its own that is alarmed.

const synthesized = synthBeforeAll();
const { resources, functionOf } = synthesized;

const invokes = (statements: Statement[]): string[] =>
  statements
    .filter((s) => s.Effect === 'Allow' && actionsOf(s).includes('lambda:InvokeFunction'))
    .flatMap((s) => resourcesOf(s).map(flatten));

describe('webhook delivery', () => {
  const delivery = () => functionOf('webhook-delivery');
  const queue = () => logicalId(synthesized.stack, synthesized.stack.webhooks.deadLetters.node.defaultChild);

  it("sends its failed runs, retried twice, to a dead-letter queue of its own, not the other jobs' queue", () => {
    const { stack } = synthesized;
    const own = queue();
    expect(own).not.toBe(logicalId(stack, stack.failedEvents.queue.node.defaultChild));
    const props = propsOf(resources[delivery()]);
    expect(flatten((props.DeadLetterConfig as { TargetArn: unknown }).TargetArn)).toBe(`{${own}.Arn}`);
    const config = Object.values(resources).find(
      (r) =>
        r.Type === 'AWS::Lambda::EventInvokeConfig' &&
        flatten(r.Properties?.FunctionName) === `{Ref:${delivery()}}`,
    );
    expect(propsOf(config).MaximumRetryAttempts).toBe(WEBHOOK_DELIVERY_RETRIES);
  });

  it('raises an alarm at the first message in that queue', () => {
    const own = queue();
    const alarms = Object.values(resources).filter(
      (r) =>
        r.Type === 'AWS::CloudWatch::Alarm' &&
        r.Properties?.MetricName === 'ApproximateNumberOfMessagesVisible' &&
        flatten(r.Properties?.Dimensions).includes(own),
    );
    expect(alarms).toHaveLength(1);
    expect(propsOf(alarms[0]).Threshold).toBe(1);
  });

  it('runs every minute, its schedule failing into the same queue', () => {
    type Target = { Arn: unknown; DeadLetterConfig?: { Arn: unknown } };
    const targetsOf = (r: { Properties?: Record<string, unknown> }) =>
      (r.Properties?.Targets ?? []) as Target[];
    const rules = Object.values(resources).filter(
      (r) =>
        r.Type === 'AWS::Events::Rule' && targetsOf(r).some((t) => flatten(t.Arn) === `{${delivery()}.Arn}`),
    );
    expect(rules.map((r) => propsOf(r).ScheduleExpression)).toEqual(['rate(1 minute)']);
    const [target] = propsOf(rules[0]).Targets as Target[];
    expect(flatten(target?.DeadLetterConfig?.Arn)).toBe(`{${queue()}.Arn}`);
  });

  it('is started by the workflow functions that raise track events, and by no route group', () => {
    const starters = Object.keys(resources).filter(
      (id) =>
        resources[id]?.Type === 'AWS::Lambda::Function' &&
        invokes(statementsOfFunction(resources, id)).includes(`{${delivery()}.Arn}`),
    );
    expect(starters.length).toBeGreaterThan(0);
    const byEntry = functionsByEntry(resources);
    const groupFunctions = routeGroups.flatMap((group) => byEntry.get(group) ?? []);
    for (const id of starters) {
      expect(groupFunctions).not.toContain(id);
      const variables = (propsOf(resources[id]).Environment as { Variables: Record<string, unknown> })
        .Variables;
      expect(flatten(variables.WEBHOOKS_FUNCTION_NAME)).toBe(`{Ref:${delivery()}}`);
    }
  });

  it('reads and writes the table and nothing else of ours', () => {
    const actions = statementsOfFunction(resources, delivery())
      .filter((s) => s.Effect === 'Allow')
      .flatMap(actionsOf);
    expect(actions.filter((a) => /^(s3|states|ses|secretsmanager|kms|cognito-idp):/.test(a))).toEqual([]);
    expect(actions.some((a) => a.startsWith('dynamodb:'))).toBe(true);
  });
});

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { routes } from '@tunesmith/shared/routes';
import { describe, expect, it } from 'vitest';
import { routeThrottles, throttleClassOf } from '../lib/api';
import { LAMBDA_MIN_UNRESERVED, STANDARD_ACCOUNT_CONCURRENCY, stageConcurrency } from '../lib/capacity';
import { repoRoot } from '../lib/paths';
import { logicalId, propsOf, synthBeforeAll } from './helpers';

// What a stage needs of its account's Lambda concurrency (decision 035): the numbers the preflight
// checks are the ones the template asks for.

const synthesized = synthBeforeAll();
const { resources } = synthesized;
const need = stageConcurrency();

const reservationOf = (id: string) =>
  propsOf(resources[id]).ReservedConcurrentExecutions as number | undefined;

describe("the stage's Lambda concurrency", () => {
  it('reserves executions for every function of the workflow and for the jobs, as many as the preflight counts', () => {
    const { stack } = synthesized;
    const reservedFunctions = {
      ...Object.fromEntries(
        Object.values(stack.workflow.functions).map((fn) => [
          `Workflow-${fn.node.id.replace(/Function$/, '')}`,
          logicalId(stack, fn.node.defaultChild),
        ]),
      ),
      'Workflow-ExecutionEnded': logicalId(stack, stack.workflow.executionEnded.node.defaultChild),
      Jobs: logicalId(stack, stack.jobs.handler.node.defaultChild),
    };
    expect(Object.keys(reservedFunctions).sort()).toEqual(Object.keys(need.reserved).sort());
    for (const [name, id] of Object.entries(reservedFunctions)) {
      expect(reservationOf(id), name).toBe(need.reserved[name]);
      expect(reservationOf(id), name).toBeGreaterThan(0);
    }
  });

  it("reserves nothing else: the API's functions share the unreserved executions", () => {
    const reservations = Object.values(resources)
      .filter((r) => r.Type === 'AWS::Lambda::Function')
      .map((r) => r.Properties?.ReservedConcurrentExecutions as number | undefined)
      .filter((n): n is number => n !== undefined);
    expect(reservations.reduce((sum, n) => sum + n, 0)).toBe(need.reservedTotal);
    for (const fn of Object.values(synthesized.stack.api.functions))
      expect(reservationOf(logicalId(synthesized.stack, fn.node.defaultChild))).toBeUndefined();
  });

  it("counts the API at the stage's route throttles, every route at its limit at once", () => {
    const stage = Object.values(resources).find((r) => r.Type === 'AWS::ApiGatewayV2::Stage');
    const settings = propsOf(stage).RouteSettings as Record<string, { ThrottlingRateLimit: number }>;
    const demand = Object.entries(settings).reduce((sum, [key, setting]) => {
      const route = routes.find((r) => `${r.method} ${r.path}` === key);
      if (!route) throw new Error(`no manifest route for ${key}`);
      return sum + setting.ThrottlingRateLimit * routeThrottles[throttleClassOf(route)].seconds;
    }, 0);
    expect(need.api).toBe(Math.ceil(demand));
    expect(need.unreserved).toBe(need.api + need.other);
    expect(need.unreserved).toBeGreaterThanOrEqual(LAMBDA_MIN_UNRESERVED);
  });

  it("fits one stage in an account of Lambda's standard 1,000", () => {
    expect(need.total).toBe(need.unreserved + need.reservedTotal);
    expect(need.total).toBeLessThanOrEqual(STANDARD_ACCOUNT_CONCURRENCY);
  });

  it('is what the deploy page tells an operator the preflight asks of the account', () => {
    const page = readFileSync(join(repoRoot, 'docs/deploy.md'), 'utf8').replace(/\s+/g, ' ');
    const stated = /\(([\d,]+) concurrent executions: (\d+) reserved/.exec(page);
    expect(stated?.slice(1).map((n) => Number(n.replace(/,/g, '')))).toEqual([
      need.total,
      need.reservedTotal,
    ]);
  });
});

import { describe, expect, it } from 'vitest';
import {
  capacityVerdict,
  LAMBDA_CONCURRENCY_QUOTA_CODE,
  LAMBDA_MIN_UNRESERVED,
  type StageConcurrency,
  stageConcurrency,
} from '../infra/lib/capacity';
import { type PreflightClients, preflight, readAccountConcurrency } from './preflight';

// Before a deploy: does the account's Lambda concurrency hold what the stage needs (decision 035)?

const need = stageConcurrency();
const region = 'eu-west-1';

describe('capacityVerdict', () => {
  it('lets a stage into an account of the standard 1,000 with nothing else reserved', () => {
    const verdict = capacityVerdict('Tunesmith-dev', region, need, {
      limit: 1000,
      unreserved: 1000,
      reservedByStage: 0,
    });
    expect(verdict.fits).toBe(true);
  });

  it('refuses a new account and says how much to ask for and how', () => {
    const verdict = capacityVerdict('Tunesmith-prod', region, need, {
      limit: 10,
      unreserved: 10,
      reservedByStage: 0,
    });
    expect(verdict.fits).toBe(false);
    if (verdict.fits) return;
    expect(verdict.requestAtLeast).toBe(need.reservedTotal + need.unreserved);
    expect(verdict.message).toContain('Tunesmith-prod');
    expect(verdict.message).toContain('Concurrent executions');
    expect(verdict.message).toContain(
      `aws service-quotas request-service-quota-increase --service-code lambda --quota-code ${LAMBDA_CONCURRENCY_QUOTA_CODE} --desired-value ${verdict.requestAtLeast} --region ${region}`,
    );
  });

  it("does not count the stage's own reservations twice when it is deployed again", () => {
    const deployed = {
      limit: 1000,
      unreserved: 1000 - need.reservedTotal,
      reservedByStage: need.reservedTotal,
    };
    expect(capacityVerdict('Tunesmith-dev', region, need, deployed).fits).toBe(true);
  });

  it("counts other functions' reservations against the stage", () => {
    const crowded = { limit: 1000, unreserved: 800, reservedByStage: 0 };
    const verdict = capacityVerdict('Tunesmith-dev', region, need, crowded);
    expect(verdict.fits).toBe(false);
    if (verdict.fits) return;
    expect(verdict.requestAtLeast).toBe(200 + need.reservedTotal + need.unreserved);
    expect(verdict.message).toContain('other functions reserve 200');
  });

  it('fits exactly at the edge, and not one execution below it', () => {
    const edge = need.reservedTotal + need.unreserved;
    expect(
      capacityVerdict('T', region, need, { limit: edge, unreserved: edge, reservedByStage: 0 }).fits,
    ).toBe(true);
    expect(
      capacityVerdict('T', region, need, { limit: edge - 1, unreserved: edge - 1, reservedByStage: 0 }).fits,
    ).toBe(false);
  });

  it("keeps Lambda's minimum unreserved even for a stage that needs less", () => {
    const small: StageConcurrency = {
      ...need,
      api: 10,
      other: 0,
      unreserved: 10,
      total: 10 + need.reservedTotal,
    };
    const limit = need.reservedTotal + LAMBDA_MIN_UNRESERVED;
    expect(capacityVerdict('T', region, small, { limit, unreserved: limit, reservedByStage: 0 }).fits).toBe(
      true,
    );
    expect(
      capacityVerdict('T', region, small, { limit: limit - 1, unreserved: limit - 1, reservedByStage: 0 })
        .fits,
    ).toBe(false);
  });
});

/** Lambda and CloudFormation answering as an account with `functions` (name → reservation) in the stage's stack. */
function fakeAccount(
  account: { limit: number; unreserved: number },
  functions: Record<string, number | undefined> | 'no stack',
) {
  const calls: string[] = [];
  const names = functions === 'no stack' ? [] : Object.keys(functions);
  const clients: PreflightClients = {
    lambda: {
      send: async (command: { constructor: { name: string }; input: { FunctionName?: string } }) => {
        calls.push(command.constructor.name);
        if (command.constructor.name === 'GetAccountSettingsCommand')
          return {
            AccountLimit: {
              ConcurrentExecutions: account.limit,
              UnreservedConcurrentExecutions: account.unreserved,
            },
          };
        const reserved = functions === 'no stack' ? undefined : functions[command.input.FunctionName ?? ''];
        return reserved === undefined ? {} : { ReservedConcurrentExecutions: reserved };
      },
    } as unknown as PreflightClients['lambda'],
    cloudFormation: {
      send: async (command: { input: { StackName: string; NextToken?: string } }) => {
        calls.push('ListStackResourcesCommand');
        if (functions === 'no stack')
          throw Object.assign(new Error(`Stack with id ${command.input.StackName} does not exist`), {
            name: 'ValidationError',
          });
        // Two pages, a function and a bucket on each.
        const half = Math.ceil(names.length / 2);
        const page = command.input.NextToken ? names.slice(half) : names.slice(0, half);
        return {
          StackResourceSummaries: [
            ...page.map((name) => ({ ResourceType: 'AWS::Lambda::Function', PhysicalResourceId: name })),
            { ResourceType: 'AWS::S3::Bucket', PhysicalResourceId: 'a-bucket' },
          ],
          ...(command.input.NextToken ? {} : { NextToken: 'page-2' }),
        };
      },
    } as unknown as PreflightClients['cloudFormation'],
  };
  return { clients, calls };
}

describe('preflight', () => {
  it("adds up what the stage's deployed functions reserve, across pages of its resources", async () => {
    const { clients, calls } = fakeAccount(
      { limit: 1000, unreserved: 925 },
      { submit: 10, finish: 30, api: undefined, jobs: 35 },
    );
    expect(await readAccountConcurrency('Tunesmith-dev', clients)).toEqual({
      limit: 1000,
      unreserved: 925,
      reservedByStage: 75,
    });
    expect(calls.filter((c) => c === 'GetFunctionConcurrencyCommand')).toHaveLength(4);
    expect(calls.filter((c) => c === 'ListStackResourcesCommand')).toHaveLength(2);
  });

  it('takes a stage never deployed as reserving nothing', async () => {
    const { clients } = fakeAccount({ limit: 1000, unreserved: 1000 }, 'no stack');
    expect(await readAccountConcurrency('Tunesmith-dev', clients)).toEqual({
      limit: 1000,
      unreserved: 1000,
      reservedByStage: 0,
    });
    expect((await preflight('dev', region, clients)).fits).toBe(true);
  });

  it("refuses the stage in an account whose quota AWS has not raised, naming the stage's stack", async () => {
    const { clients } = fakeAccount({ limit: 50, unreserved: 50 }, 'no stack');
    const verdict = await preflight('prod', region, clients);
    expect(verdict.fits).toBe(false);
    if (!verdict.fits)
      expect(verdict.message).toMatch(/^Tunesmith-prod needs \d+ concurrent Lambda executions/);
  });

  it('refuses a stage it does not know', async () => {
    const { clients } = fakeAccount({ limit: 1000, unreserved: 1000 }, 'no stack');
    await expect(preflight('staging', region, clients)).rejects.toThrow(/Unknown stage "staging"/);
  });
});

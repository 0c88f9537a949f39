import { routeGroups } from '@tunesmith/shared/routes';
import { describe, expect, it } from 'vitest';
import { JOB_RETRIES } from '../lib/jobs';
import {
  actionsOf,
  flatten,
  logicalId,
  propsOf,
  resourcesOf,
  type Statement,
  statementsOfFunction,
  synthBeforeAll,
} from './helpers';

// Background jobs (decision 021): one function the API invokes asynchronously, retried, with its failures kept and alarmed.

const synthesized = synthBeforeAll();
const { resources, functionOf } = synthesized;

const variablesOf = (functionId: string): Record<string, unknown> =>
  (propsOf(resources[functionId]).Environment as { Variables: Record<string, unknown> }).Variables;

const grantsOf = (statements: Statement[], prefix: string): string[] =>
  statements
    .filter((s) => s.Effect === 'Allow')
    .flatMap((s) =>
      actionsOf(s)
        .filter((action) => action.startsWith(prefix))
        .flatMap((action) => resourcesOf(s).map((resource) => `${action} on ${flatten(resource)}`)),
    )
    .sort();

describe('the jobs function', () => {
  it('runs functions/src/lambdas/jobs.ts for up to 15 minutes with 1 GB, on the project defaults', () => {
    const props = propsOf(resources[functionOf('jobs')]);
    expect(props.Timeout).toBe(900);
    expect(props.MemorySize).toBe(1024);
    expect(props.Runtime).toBe('nodejs24.x');
    expect(props.Architectures).toEqual(['arm64']);
    expect(props.TracingConfig).toEqual({ Mode: 'Active' });
  });

  it('is retried twice and then sends the job to the failed-events queue', () => {
    const { stack } = synthesized;
    const queue = logicalId(stack, stack.failedEvents.queue.node.defaultChild);
    const props = propsOf(resources[functionOf('jobs')]);
    expect(flatten((props.DeadLetterConfig as { TargetArn: unknown }).TargetArn)).toBe(`{${queue}.Arn}`);
    const config = Object.values(resources).find(
      (r) =>
        r.Type === 'AWS::Lambda::EventInvokeConfig' &&
        flatten(r.Properties?.FunctionName) === `{Ref:${functionOf('jobs')}}`,
    );
    expect(propsOf(config).MaximumRetryAttempts).toBe(JOB_RETRIES);
    expect(JOB_RETRIES).toBe(2);
    const sends = grantsOf(statementsOfFunction(resources, functionOf('jobs')), 'sqs:SendMessage');
    expect(sends).toEqual([`sqs:SendMessage on {${queue}.Arn}`]);
  });

  it('gets the table, the site origin for links in mail, and may send mail', () => {
    const { stack } = synthesized;
    const variables = variablesOf(functionOf('jobs'));
    expect(flatten(variables.TABLE_NAME)).toBe(
      `{Ref:${logicalId(stack, stack.data.table.node.defaultChild)}}`,
    );
    expect(flatten(variables.PUBLIC_ORIGIN)).toContain(
      logicalId(stack, stack.web.distribution.node.defaultChild),
    );
    const statements = statementsOfFunction(resources, functionOf('jobs'));
    expect(grantsOf(statements, 'ses:SendEmail').length).toBeGreaterThan(0);
    expect(grantsOf(statements, 'dynamodb:UpdateItem').length).toBeGreaterThan(0);
  });

  it('reads track audio, writes export zips in parts (and aborts them), and signs their links; deletes a deleted account’s objects; nothing more in S3', () => {
    const { stack } = synthesized;
    const tracks = logicalId(stack, stack.data.tracks.node.defaultChild);
    const uploads = logicalId(stack, stack.data.uploads.node.defaultChild);
    const site = logicalId(stack, stack.web.bucket.node.defaultChild);
    const statements = statementsOfFunction(resources, functionOf('jobs'));
    expect([...new Set(grantsOf(statements, 's3:'))]).toEqual(
      [
        `s3:AbortMultipartUpload on {${tracks}.Arn}/exports/*`,
        `s3:GetObject on {${tracks}.Arn}/tracks/*`,
        `s3:ListBucket on {${tracks}.Arn}`,
        `s3:PutObject on {${tracks}.Arn}/exports/*`,
        // Deleting an account (decision 022), every version of its track files and zips (decision 034).
        `s3:DeleteObject on {${tracks}.Arn}/tracks/*`,
        `s3:DeleteObject on {${tracks}.Arn}/exports/*`,
        `s3:DeleteObjectVersion on {${tracks}.Arn}/tracks/*`,
        `s3:DeleteObjectVersion on {${tracks}.Arn}/exports/*`,
        `s3:ListBucketVersions on {${tracks}.Arn}`,
        `s3:DeleteObject on {${uploads}.Arn}/incoming/*`,
        `s3:DeleteObject on {${uploads}.Arn}/uploads/*`,
        // Share pages (decision 024): the site bucket's share area, and the shell they are made from.
        // and the community's (decisions 058, 059), which the cascade removes.
        `s3:DeleteObject on {${site}.Arn}/share/track/*`,
        `s3:DeleteObject on {${site}.Arn}/share/playlist/*`,
        `s3:DeleteObject on {${site}.Arn}/share/creator/*`,
        `s3:GetObject on {${site}.Arn}/index.html`,
        `s3:GetObject on {${site}.Arn}/pages/track.html`,
        // A deploy rewrites the playlist and creator documents there are, found by listing their areas.
        `s3:ListBucket on {${site}.Arn}`,
        `s3:PutObject on {${site}.Arn}/share/track/*`,
        `s3:PutObject on {${site}.Arn}/share/playlist/*`,
        `s3:PutObject on {${site}.Arn}/share/creator/*`,
        // The pricing page's document, filled in after a deploy (decision 038).
        `s3:GetObject on {${site}.Arn}/pages/pricing.html`,
        `s3:PutObject on {${site}.Arn}/pages/pricing.html`,
        `s3:ListBucket on {${uploads}.Arn}`,
      ].sort(),
    );
    // The site bucket is listed in the playlist and creator areas only.
    const siteListing = statements.filter((s) =>
      grantsOf([s], 's3:ListBucket').some((g) => g.includes(site)),
    ) as { Condition?: unknown }[];
    expect(siteListing.map((s) => s.Condition)).toEqual([
      { StringLike: { 's3:prefix': ['share/playlist/*', 'share/creator/*'] } },
    ]);
    const variables = variablesOf(functionOf('jobs'));
    expect(flatten(variables.TRACKS_BUCKET)).toBe(`{Ref:${tracks}}`);
    expect(variables.AUDIO_SIGNING_KEY_PAIR_ID).toBeDefined();
    expect(variables.AUDIO_SIGNING_SECRET_ARN).toBeDefined();
  });

  it('has its errors and throttles alarmed, as every function', () => {
    const alarmed = Object.values(resources)
      .filter((r) => r.Type === 'AWS::CloudWatch::Alarm' && r.Properties?.Namespace === 'AWS/Lambda')
      .map(
        (r) =>
          `${propsOf(r).MetricName} ${flatten((propsOf(r).Dimensions as { Value: unknown }[])[0]?.Value)}`,
      );
    expect(alarmed).toEqual(
      expect.arrayContaining([`Errors {Ref:${functionOf('jobs')}}`, `Throttles {Ref:${functionOf('jobs')}}`]),
    );
  });

  it('has a dead-letter queue that is alarmed at its first message', () => {
    const { stack } = synthesized;
    const queue = logicalId(stack, stack.failedEvents.queue.node.defaultChild);
    const alarm = Object.values(resources).find(
      (r) =>
        r.Type === 'AWS::CloudWatch::Alarm' &&
        r.Properties?.MetricName === 'ApproximateNumberOfMessagesVisible' &&
        flatten((propsOf(r).Dimensions as { Value: unknown }[])[0]?.Value) === `{${queue}.QueueName}`,
    );
    expect(propsOf(alarm).Threshold).toBe(1);
  });
});

describe('the account deletion job', () => {
  it("may delete the user's objects under the product areas only, list them, and delete the identity", () => {
    const { stack } = synthesized;
    const statements = statementsOfFunction(resources, functionOf('jobs'));
    const uploads = logicalId(stack, stack.data.uploads.node.defaultChild);
    const tracks = logicalId(stack, stack.data.tracks.node.defaultChild);
    const pool = logicalId(stack, stack.auth.userPool.node.defaultChild);
    const deletes = grantsOf(statements, 's3:DeleteObject');
    expect(deletes).toEqual(
      expect.arrayContaining([
        `s3:DeleteObject on {${tracks}.Arn}/tracks/*`,
        `s3:DeleteObject on {${tracks}.Arn}/exports/*`,
        `s3:DeleteObject on {${uploads}.Arn}/incoming/*`,
        `s3:DeleteObject on {${uploads}.Arn}/uploads/*`,
        // The tracks bucket keeps versions: its objects go with every version (decision 034).
        `s3:DeleteObjectVersion on {${tracks}.Arn}/tracks/*`,
        `s3:DeleteObjectVersion on {${tracks}.Arn}/exports/*`,
      ]),
    );
    // Never a whole bucket, and no versions to delete in the uploads bucket (it keeps none).
    expect(deletes.filter((grant) => grant.includes(uploads) && grant.includes('Version'))).toEqual([]);
    expect(deletes.filter((grant) => grant.endsWith('.Arn}/*'))).toEqual([]);
    expect(grantsOf(statements, 's3:ListBucket')).toEqual(
      expect.arrayContaining([`s3:ListBucket on {${uploads}.Arn}`, `s3:ListBucket on {${tracks}.Arn}`]),
    );
    expect(grantsOf(statements, 'cognito-idp:')).toEqual([`cognito-idp:AdminDeleteUser on {${pool}.Arn}`]);
  });

  it("may open Stripe's keys in the site settings (KMS decrypt)", () => {
    const statements = statementsOfFunction(resources, functionOf('jobs'));
    expect(grantsOf(statements, 'kms:Decrypt').length).toBeGreaterThan(0);
  });
});

describe('route groups and the jobs function', () => {
  it('lets only generation (export) and auth (delete my account) start jobs, by name, on this function only', () => {
    const jobs = functionOf('jobs');
    for (const group of routeGroups) {
      const invokes = grantsOf(statementsOfFunction(resources, functionOf(group)), 'lambda:');
      const variables = variablesOf(functionOf(group));
      if (group === 'generation' || group === 'auth') {
        expect(invokes, group).toEqual([`lambda:InvokeFunction on {${jobs}.Arn}`]);
        expect(flatten(variables.JOBS_FUNCTION_NAME), group).toBe(`{Ref:${jobs}}`);
      } else {
        expect(invokes, group).toEqual([]);
        expect(variables.JOBS_FUNCTION_NAME, group).toBeUndefined();
      }
    }
  });
});

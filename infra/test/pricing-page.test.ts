import { describe, expect, it } from 'vitest';
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

// The pricing page's document carries the plans (decision 038): the admin area brings it in line when it
// changes them, and the jobs function fills in the document a deploy writes; each may read and write that
// one object of the site bucket, and nothing else may.

const synthesized = synthBeforeAll();
const { resources, functionOf } = synthesized;

const grants = (statements: Statement[]): string[] =>
  statements
    .filter((s) => s.Effect === 'Allow')
    .flatMap((s) =>
      actionsOf(s).flatMap((action) => resourcesOf(s).map((r) => `${action} on ${flatten(r)}`)),
    );

describe('the pricing page on AWS', () => {
  it('lets the admin area and the jobs function read and write pages/pricing.html, in the site bucket they are told', () => {
    const { stack } = synthesized;
    const bucket = logicalId(stack, stack.web.bucket.node.defaultChild);
    for (const name of ['admin', 'jobs'] as const) {
      const id = functionOf(name);
      const variables = (propsOf(resources[id]).Environment as { Variables: Record<string, unknown> })
        .Variables;
      expect(flatten(variables.SITE_BUCKET), name).toBe(`{Ref:${bucket}}`);
      expect(
        grants(statementsOfFunction(resources, id))
          .filter((g) => g.endsWith('/pages/pricing.html'))
          .sort(),
        name,
      ).toEqual([
        `s3:GetObject on {${bucket}.Arn}/pages/pricing.html`,
        `s3:PutObject on {${bucket}.Arn}/pages/pricing.html`,
      ]);
    }
  });

  it('lets no other function of the API write it', () => {
    for (const group of ['catalog', 'auth', 'billing', 'generation', 'uploads'] as const) {
      const allowed = grants(statementsOfFunction(resources, functionOf(group)));
      expect(
        allowed.filter((g) => g.includes('/pages/pricing.html')),
        group,
      ).toEqual([]);
    }
  });

  it('has S3 start the jobs function when the document is written, so a deploy gets the plans filled in', () => {
    const { stack } = synthesized;
    const bucket = logicalId(stack, stack.web.bucket.node.defaultChild);
    const [notifications] = Object.values(resources).filter(
      (r) =>
        r.Type === 'Custom::S3BucketNotifications' && flatten(r.Properties?.BucketName) === `{Ref:${bucket}}`,
    );
    const { LambdaFunctionConfigurations } = propsOf(notifications).NotificationConfiguration as {
      LambdaFunctionConfigurations: unknown[];
    };
    expect(LambdaFunctionConfigurations).toContainEqual({
      Events: ['s3:ObjectCreated:*'],
      Filter: { Key: { FilterRules: [{ Name: 'prefix', Value: 'pages/pricing.html' }] } },
      LambdaFunctionArn: { 'Fn::GetAtt': [functionOf('jobs'), 'Arn'] },
    });
  });
});

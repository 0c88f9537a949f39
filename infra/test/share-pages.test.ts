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

// Share pages on AWS (decision 024): the functions that change tracks write documents to the site bucket and
// keys to a CloudFront KeyValueStore, with nothing more than that; a new track frame template
// (pages/track.html, decision 026) starts the rewrite job.

const synthesized = synthBeforeAll();
const { resources, functionOf } = synthesized;

const grants = (statements: Statement[]): string[] =>
  statements
    .filter((s) => s.Effect === 'Allow')
    .flatMap((s) =>
      actionsOf(s).flatMap((action) => resourcesOf(s).map((r) => `${action} on ${flatten(r)}`)),
    );

describe('share pages on AWS', () => {
  const writers = () => {
    const { stack } = synthesized;
    // Each writes the documents of what it changes: tracks', and the community's playlists' and profiles'.
    const all = ['track', 'playlist', 'creator'];
    return {
      generation: { id: functionOf('generation'), areas: ['track'] },
      admin: { id: functionOf('admin'), areas: all },
      community: { id: functionOf('community'), areas: ['playlist', 'creator'] },
      // A deploy's rewrite also lists the playlist and creator documents there are.
      jobs: { id: functionOf('jobs'), areas: all, lists: true },
      finish: {
        id: logicalId(stack, stack.workflow.functions.FinishFunctionArn.node.defaultChild),
        areas: ['track'],
      },
    };
  };

  it('keeps one KeyValueStore, which the site function reads', () => {
    const stores = Object.values(resources).filter((r) => r.Type === 'AWS::CloudFront::KeyValueStore');
    expect(stores).toHaveLength(1);
  });

  it('gives every function that changes tracks the site bucket, the store, and only the share area', () => {
    const { stack } = synthesized;
    const bucket = logicalId(stack, stack.web.bucket.node.defaultChild);
    const store = logicalId(stack, stack.web.shareKeys.node.defaultChild);
    for (const [name, writer] of Object.entries(writers())) {
      const { id, areas } = writer;
      const variables = (propsOf(resources[id]).Environment as { Variables: Record<string, unknown> })
        .Variables;
      expect(flatten(variables.SITE_BUCKET), name).toBe(`{Ref:${bucket}}`);
      expect(flatten(variables.SHARE_KVS_ARN), name).toBe(`{${store}.Arn}`);
      const allowed = grants(statementsOfFunction(resources, id));
      // The pricing page's document (decision 038) is a grant of its own: test/pricing-page.test.ts.
      const onSite = allowed.filter((g) => g.includes(`${bucket}.Arn`) && !g.endsWith('/pages/pricing.html'));
      expect(onSite.sort(), name).toEqual(
        [
          ...areas.flatMap((area) => [
            `s3:DeleteObject on {${bucket}.Arn}/share/${area}/*`,
            `s3:PutObject on {${bucket}.Arn}/share/${area}/*`,
          ]),
          `s3:GetObject on {${bucket}.Arn}/index.html`,
          `s3:GetObject on {${bucket}.Arn}/pages/track.html`,
          ...('lists' in writer ? [`s3:ListBucket on {${bucket}.Arn}`] : []),
        ].sort(),
      );
      expect(allowed.filter((g) => g.startsWith('cloudfront-keyvaluestore:')).sort(), name).toEqual([
        `cloudfront-keyvaluestore:DeleteKey on {${store}.Arn}`,
        `cloudfront-keyvaluestore:DescribeKeyValueStore on {${store}.Arn}`,
        `cloudfront-keyvaluestore:PutKey on {${store}.Arn}`,
      ]);
    }
  });

  it('other functions get neither the store nor the site bucket', () => {
    const { stack } = synthesized;
    const store = logicalId(stack, stack.web.shareKeys.node.defaultChild);
    for (const group of ['catalog', 'auth', 'billing'] as const) {
      const allowed = grants(statementsOfFunction(resources, functionOf(group)));
      expect(
        allowed.filter((g) => g.includes(store) || g.includes('/share/')),
        group,
      ).toEqual([]);
    }
  });

  it('has S3 start the jobs function when the track frame template is written, so a deploy rewrites every share page', () => {
    const { stack } = synthesized;
    const bucket = logicalId(stack, stack.web.bucket.node.defaultChild);
    const notifications = Object.values(resources).filter(
      (r) =>
        r.Type === 'Custom::S3BucketNotifications' && flatten(r.Properties?.BucketName) === `{Ref:${bucket}}`,
    );
    expect(notifications).toHaveLength(1);
    const { LambdaFunctionConfigurations } = propsOf(notifications[0]).NotificationConfiguration as {
      LambdaFunctionConfigurations: unknown[];
    };
    expect(LambdaFunctionConfigurations).toContainEqual({
      Events: ['s3:ObjectCreated:*'],
      Filter: { Key: { FilterRules: [{ Name: 'prefix', Value: 'pages/track.html' }] } },
      LambdaFunctionArn: { 'Fn::GetAtt': [functionOf('jobs'), 'Arn'] },
    });
  });
});

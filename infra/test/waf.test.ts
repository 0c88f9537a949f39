import { routes } from '@tunesmith/shared/routes';
import { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { routeThrottles, throttleClassOf } from '../lib/api';
import { buildApp } from '../lib/app';
import {
  API_REQUESTS_PER_ADDRESS,
  COMMON_RULES_COUNTED,
  type EdgeProtectionStack,
  SIGN_IN_REQUESTS_PER_ADDRESS,
  WEB_ACL_RULES,
  webAclParameterName,
} from '../lib/waf';
import { flatten, PROD_API_ORIGIN, readNagReport, SYNTH_TIMEOUT_MS, TEST_SENDER, tempDir } from './helpers';

// The web ACL (decision 013): a us-east-1 companion stack, on prod always and on dev with -c waf=on.

const build = (context: Record<string, unknown>) => {
  const outdir = tempDir('tunesmith-waf-');
  const built = buildApp({
    bundle: false,
    outdir,
    webAssetsPath: '/nonexistent',
    context: { mailFrom: TEST_SENDER, ...(context.stage === 'prod' ? PROD_API_ORIGIN : {}), ...context },
  });
  built.app.synth();
  return { ...built, outdir };
};

type Statement = Record<string, unknown>;
interface Rule {
  Name: string;
  Priority: number;
  Action?: Record<string, unknown>;
  OverrideAction?: Record<string, unknown>;
  Statement: Statement;
}

const distributionOf = (template: Template) => {
  const distributions = Object.values(template.findResources('AWS::CloudFront::Distribution'));
  expect(distributions).toHaveLength(1);
  return distributions[0]?.Properties.DistributionConfig as { WebACLId?: unknown };
};

/** The URI paths a statement matches, as `MATCH path`, however deep in And/Or/Not. */
const pathsIn = (statement: unknown): string[] => {
  if (!statement || typeof statement !== 'object') return [];
  const object = statement as Record<string, unknown>;
  const byteMatch = object.ByteMatchStatement as
    | { PositionalConstraint: string; SearchString: string; TextTransformations: { Type: string }[] }
    | undefined;
  if (byteMatch) {
    // Paths are compared after //, /./ and /../ are resolved.
    expect(byteMatch.TextTransformations.map((t) => t.Type)).toEqual(['NORMALIZE_PATH']);
    return [`${byteMatch.PositionalConstraint} ${byteMatch.SearchString}`];
  }
  return Object.values(object).flatMap((value) =>
    Array.isArray(value) ? value.flatMap(pathsIn) : pathsIn(value),
  );
};

const webhookPaths = routes.filter((route) => route.auth === 'webhook').map((route) => route.path);

describe('the prod web ACL', () => {
  let edge: EdgeProtectionStack;
  let edgeTemplate: Template;
  let mainTemplate: Template;
  let outdir: string;
  let rules: Rule[];

  beforeAll(() => {
    const built = build({ stage: 'prod' });
    if (!built.edge) throw new Error('prod has no edge stack');
    edge = built.edge;
    outdir = built.outdir;
    edgeTemplate = Template.fromStack(edge);
    mainTemplate = Template.fromStack(built.stack);
    expect(built.stack.dependencies).toContain(edge);
    const acls = Object.values(edgeTemplate.findResources('AWS::WAFv2::WebACL'));
    expect(acls).toHaveLength(1);
    const acl = acls[0]?.Properties as { Scope: string; DefaultAction: unknown; Rules: Rule[] };
    expect(acl.Scope).toBe('CLOUDFRONT');
    expect(acl.DefaultAction).toEqual({ Allow: {} });
    rules = acl.Rules;
  }, SYNTH_TIMEOUT_MS);

  it('lives in a stack of its own in us-east-1, which the stage deploys first', () => {
    expect(edge.region).toBe('us-east-1');
    expect(edge.stackName).toBe('Tunesmith-prod-edge');
    // The stage's own stack stays free of any region: it deploys from wherever the CLI points.
    expect(mainTemplate.toJSON().Resources).not.toHaveProperty('WebAcl');
  });

  it('has exactly four rules: the per-address rate limits on /api/* and on sign-in, then the common and known-bad-inputs groups', () => {
    expect(rules.map((rule) => rule.Name)).toEqual([
      'RateLimitApiPerAddress',
      'RateLimitSignInPerAddress',
      'AWSManagedRulesCommonRuleSet',
      'AWSManagedRulesKnownBadInputsRuleSet',
    ]);
    expect(rules.map((rule) => rule.Name)).toEqual([...WEB_ACL_RULES]);
    expect(rules.map((rule) => rule.Priority)).toEqual([0, 1, 2, 3]);
  });

  it('blocks one client address past its rate on /api/*, webhooks aside', () => {
    const rate = rules[0] as Rule;
    expect(rate.Action).toEqual({ Block: {} });
    const statement = rate.Statement.RateBasedStatement as {
      AggregateKeyType: string;
      Limit: number;
      EvaluationWindowSec: number;
      ScopeDownStatement: { AndStatement: { Statements: Statement[] } };
    };
    expect(statement.AggregateKeyType).toBe('IP');
    expect(statement.Limit).toBe(API_REQUESTS_PER_ADDRESS);
    expect(statement.EvaluationWindowSec).toBe(300);
    // A person polling a generation every 3 s for five minutes stays under it.
    expect(statement.Limit).toBeGreaterThan((300 / 3) * 3);
    const [api, notWebhook] = statement.ScopeDownStatement.AndStatement.Statements;
    expect(pathsIn(api)).toEqual(['STARTS_WITH /api/']);
    expect(notWebhook).toHaveProperty('NotStatement');
    expect(pathsIn(notWebhook).sort()).toEqual(webhookPaths.map((path) => `EXACTLY ${path}`).sort());
  });

  it('blocks one client address past a lower rate on every route of the sign-in class', () => {
    const rate = rules[1] as Rule;
    expect(rate.Action).toEqual({ Block: {} });
    const statement = rate.Statement.RateBasedStatement as {
      AggregateKeyType: string;
      Limit: number;
      EvaluationWindowSec: number;
      ScopeDownStatement: Statement;
    };
    expect(statement.AggregateKeyType).toBe('IP');
    expect(statement.Limit).toBe(SIGN_IN_REQUESTS_PER_ADDRESS);
    // WAF's lowest limit is 10 and its windows are 60, 120, 300 and 600 s.
    expect(statement.Limit).toBeGreaterThanOrEqual(10);
    expect([60, 120, 300, 600]).toContain(statement.EvaluationWindowSec);
    // Every sign-in route, by its path up to a path parameter; nothing of another class.
    const signIn = routes.filter((route) => throttleClassOf(route) === 'sign-in');
    expect(signIn.map((route) => route.id)).toEqual(
      expect.arrayContaining(['login', 'register', 'adminLogin']),
    );
    const expected = signIn.map((route) =>
      route.path.includes('{')
        ? `STARTS_WITH ${route.path.slice(0, route.path.indexOf('{'))}`
        : `EXACTLY ${route.path}`,
    );
    expect(pathsIn(statement.ScopeDownStatement).sort()).toEqual([...new Set(expected)].sort());
    for (const other of routes.filter((route) => throttleClassOf(route) !== 'sign-in')) {
      const matched = pathsIn(statement.ScopeDownStatement).some((m) => {
        const [kind, path = ''] = m.split(' ');
        return kind === 'EXACTLY' ? other.path === path : other.path.startsWith(path);
      });
      expect(matched, other.id).toBe(false);
    }
    // One address alone, or a few, cannot keep a sign-in route's shared bucket full.
    const perSecond = statement.Limit / statement.EvaluationWindowSec;
    expect(routeThrottles['sign-in'].rateLimit ?? 0).toBeGreaterThanOrEqual(10 * perSecond);
  });

  it("runs AWS's managed groups on everything but the signed webhooks, counting only the 8 KB body limit", () => {
    const [, , common, badInputs] = rules as [Rule, Rule, Rule, Rule];
    for (const [rule, name] of [
      [common, 'AWSManagedRulesCommonRuleSet'],
      [badInputs, 'AWSManagedRulesKnownBadInputsRuleSet'],
    ] as const) {
      expect(rule.OverrideAction).toEqual({ None: {} });
      const group = rule.Statement.ManagedRuleGroupStatement as {
        VendorName: string;
        Name: string;
        ScopeDownStatement: Statement;
        RuleActionOverrides?: { Name: string; ActionToUse: unknown }[];
      };
      expect(group.VendorName).toBe('AWS');
      expect(group.Name).toBe(name);
      expect(group.ScopeDownStatement).toHaveProperty('NotStatement');
      expect(pathsIn(group.ScopeDownStatement).sort()).toEqual(
        webhookPaths.map((path) => `EXACTLY ${path}`).sort(),
      );
      const overrides = group.RuleActionOverrides ?? [];
      expect(overrides.every((override) => JSON.stringify(override.ActionToUse) === '{"Count":{}}')).toBe(
        true,
      );
      expect(overrides.map((override) => override.Name)).toEqual(
        name === 'AWSManagedRulesCommonRuleSet' ? [...COMMON_RULES_COUNTED] : [],
      );
    }
    expect(COMMON_RULES_COUNTED).toContain('SizeRestrictions_BODY');
  });

  it("is the web ACL of the stage's distribution, read from the edge stack's parameter in us-east-1", () => {
    const parameters = Object.values(edgeTemplate.findResources('AWS::SSM::Parameter'));
    expect(parameters).toHaveLength(1);
    const acl = Object.keys(edgeTemplate.findResources('AWS::WAFv2::WebACL'))[0];
    expect(parameters[0]?.Properties.Name).toBe(webAclParameterName('Tunesmith-prod'));
    expect(flatten(parameters[0]?.Properties.Value)).toBe(`{${acl}.Arn}`);

    const webAclId = flatten(distributionOf(mainTemplate).WebACLId);
    const reader = /^\{(.+)\.Parameter\.Value\}$/.exec(webAclId)?.[1] as string;
    const read = mainTemplate.toJSON().Resources[reader] as { Type: string; Properties: { Create: unknown } };
    expect(read.Type).toBe('Custom::AWS');
    const create = JSON.parse(flatten(read.Properties.Create)) as Record<string, unknown>;
    expect(create).toMatchObject({
      service: 'SSM',
      action: 'getParameter',
      region: 'us-east-1',
      parameters: { Name: webAclParameterName('Tunesmith-prod') },
    });
  });

  it('passes cdk-nag in both stacks, with no suppression of the WAF check', () => {
    for (const stack of ['Tunesmith-prod', 'Tunesmith-prod-edge']) {
      const report = readNagReport(outdir, stack);
      expect(
        report.filter((row) => row.compliance === 'Non-Compliant'),
        stack,
      ).toEqual([]);
    }
    const cfr2 = readNagReport(outdir, 'Tunesmith-prod').filter((row) => row.ruleId === 'AwsSolutions-CFR2');
    expect(cfr2.map((row) => row.compliance)).toEqual(['Compliant']);
  });
});

describe('dev', () => {
  it('has no web ACL, and gets one with -c waf=on', () => {
    const plain = build({});
    expect(plain.edge).toBeUndefined();
    expect(distributionOf(Template.fromStack(plain.stack)).WebACLId).toBeUndefined();
    expect(plain.app.node.children.map((child) => child.node.id)).not.toContain('Tunesmith-dev-edge');

    const asked = build({ waf: 'on' });
    expect(asked.edge?.region).toBe('us-east-1');
    expect(asked.edge?.stackName).toBe('Tunesmith-dev-edge');
    const acl = Template.fromStack(asked.edge as EdgeProtectionStack).findResources('AWS::WAFv2::WebACL');
    expect(Object.values(acl).map((resource) => resource.Properties.Scope)).toEqual(['CLOUDFRONT']);
    expect(flatten(distributionOf(Template.fromStack(asked.stack)).WebACLId)).toMatch(
      /\.Parameter\.Value\}$/,
    );
  });

  it('refuses to take the web ACL off prod, and a waf value that is neither on nor off', () => {
    expect(() => build({ stage: 'prod', waf: 'off' })).toThrow(/prod stage always has its web ACL/);
    expect(() => build({ waf: 'yes' })).toThrow(/waf "yes" is neither on nor off/);
  });
});

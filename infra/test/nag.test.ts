import { Annotations, Match } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { fakeWebBuild, readNagReport, SYNTH_TIMEOUT_MS, type Synthesized, synth } from './helpers';

type AppliesTo = string | { regex: string };
interface Suppression {
  id: string;
  reason: string;
  applies_to?: AppliesTo[];
}

const matches = (appliesTo: AppliesTo, finding: string | undefined): boolean => {
  if (finding === undefined) return false;
  if (typeof appliesTo === 'string') return appliesTo === finding;
  const [, pattern = '', flags = ''] = /^\/(.*)\/([a-z]*)$/.exec(appliesTo.regex) ?? [];
  return new RegExp(pattern, flags).test(finding);
};

// The shapes of the stack: before the first web build, with the site upload (its own CDK handler), and with SES.
describe.each([
  ['without a web build', {}],
  ['with a web build', { webAssetsPath: fakeWebBuild() }],
  // The SES domain identity and a real sender, as deployed with -c mailFrom=... -c mailDomain=...
  [
    'with a mail domain',
    { context: { mailFrom: 'Tunesmith <no-reply@example.org>', mailDomain: 'example.org' } },
  ],
  // The test mail sink, as deployed for the suite against a stage with -c mailSinkDomain=...
  ['with a test mail sink', { context: { mailSinkDomain: 'inbox.example.org' } }],
  // The web ACL's ARN read from its us-east-1 stack (an AwsCustomResource), as on prod or with -c waf=on.
  ['with a web ACL', { context: { waf: 'on' } }],
  // The API's own domain for CloudFront, the execute-api endpoint off (-c apiOriginDomain=... -c apiOriginCertificateArn=...).
  [
    'with an API domain of its own',
    {
      context: {
        apiOriginDomain: 'api-origin.example.org',
        apiOriginCertificateArn:
          'arn:aws:acm:eu-west-1:123456789012:certificate/0a1b2c3d-4e5f-6789-abcd-ef0123456789',
      },
    },
  ],
])('cdk-nag AwsSolutions and ServerlessChecks %s', (_name, options) => {
  let stack: Synthesized['stack'];
  let template: Synthesized['template'];
  let outdir: string;
  let suppressions: { path: string; rules: Suppression[] }[];

  beforeAll(() => {
    ({ stack, template, outdir } = synth(options));
    const resources = template.toJSON().Resources as Record<string, { Metadata?: Record<string, unknown> }>;
    suppressions = Object.values(resources)
      .map((resource) => ({
        path: resource.Metadata?.['aws:cdk:path'] as string,
        rules:
          (resource.Metadata?.cdk_nag as { rules_to_suppress?: Suppression[] } | undefined)
            ?.rules_to_suppress ?? [],
      }))
      .filter((resource) => resource.rules.length > 0);
  }, SYNTH_TIMEOUT_MS);

  it('has no unsuppressed errors', () => {
    const errors = Annotations.fromStack(stack).findError(
      '*',
      Match.stringLikeRegexp('(AwsSolutions|Serverless)-'),
    );
    expect(errors.map((error) => `${error.id}: ${String(error.entry.data).split(':')[0]}`)).toEqual([]);
  });

  it('has no unsuppressed warnings', () => {
    const warnings = Annotations.fromStack(stack).findWarning(
      '*',
      Match.stringLikeRegexp('(AwsSolutions|Serverless)-'),
    );
    expect(warnings.map((warning) => `${warning.id}: ${String(warning.entry.data).split(':')[0]}`)).toEqual(
      [],
    );
  });

  it('actually checked the stack', () => {
    const report = readNagReport(outdir);
    expect(report.filter((row) => row.compliance === 'Compliant').length).toBeGreaterThan(50);
    // Both packs ran.
    expect(report.some((row) => row.ruleId.startsWith('Serverless-'))).toBe(true);
    expect(report.some((row) => row.ruleId.startsWith('AwsSolutions-'))).toBe(true);
    expect(report.filter((row) => row.compliance === 'Non-Compliant')).toEqual([]);
  });

  it('gives every suppression a specific reason', () => {
    expect(suppressions.length).toBeGreaterThan(0);
    for (const { path, rules } of suppressions) {
      for (const rule of rules) {
        expect(rule.reason.trim().length, `${rule.id} on ${path}`).toBeGreaterThanOrEqual(30);
      }
    }
  });

  it('suppresses per resource, never for the whole stack', () => {
    expect(JSON.stringify(template.toJSON().Metadata ?? {})).not.toContain('cdk_nag');
  });

  it('has no stale suppressions: each one (and each appliesTo entry) covers a real finding', () => {
    const suppressed = readNagReport(outdir).filter((row) => row.compliance === 'Suppressed');
    const carriers = new Map<string, { rule: Suppression; paths: Set<string> }>();
    for (const { path, rules } of suppressions) {
      for (const rule of rules) {
        const key = JSON.stringify(rule);
        const entry = carriers.get(key) ?? { rule, paths: new Set<string>() };
        entry.paths.add(path);
        carriers.set(key, entry);
      }
    }
    const stale: string[] = [];
    for (const { rule, paths } of carriers.values()) {
      const rows = suppressed.filter((row) => row.ruleId === rule.id && paths.has(row.resourcePath));
      if (!rule.applies_to) {
        if (rows.length === 0) stale.push(`${rule.id} on ${[...paths].join(', ')}`);
        continue;
      }
      for (const appliesTo of rule.applies_to) {
        if (!rows.some((row) => matches(appliesTo, row.finding))) {
          stale.push(`${rule.id} ${JSON.stringify(appliesTo)} on ${[...paths].join(', ')}`);
        }
      }
    }
    expect(stale).toEqual([]);
  });
});

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MUSIC_MODELS, providerCostUsd } from '@tunesmith/shared/models';
import { Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../lib/app';
import { repoRoot } from '../lib/paths';
import { SYNTH_TIMEOUT_MS, stageContext, TEST_SENDER, tempDir } from './helpers';

// docs/cost.md's floor of an idle stage is counted from the stack's own
// resources: a change to the stack that adds an alarm, a dashboard, a key or a
// secret fails here until the cost page says what it costs.

type Row = {
  item: string;
  price: number;
  counts: Record<'dev' | 'prod', string>;
  amounts: Record<'dev' | 'prod', number>;
};

const money = (text: string) => Number(text.replace(/[*$,\s]/g, ''));

function floorTable(): Row[] {
  const doc = readFileSync(join(repoRoot, 'docs/cost.md'), 'utf8');
  const section = doc.slice(doc.indexOf('## The floor of a stage'));
  const table = section.slice(0, section.indexOf('\n\n', section.indexOf('| item |')));
  return table
    .split('\n')
    .filter((line) => line.startsWith('| ') && !line.startsWith('| item') && !line.startsWith('|---'))
    .map((line) => {
      const [item, price, dev, prod, devAmount, prodAmount] = line
        .split('|')
        .slice(1, -1)
        .map((cell) => cell.trim());
      return {
        item: item as string,
        price: money((price ?? '').split(' ')[0] ?? ''),
        counts: { dev: dev as string, prod: prod as string },
        amounts: { dev: money(devAmount ?? ''), prod: money(prodAmount ?? '') },
      };
    });
}

const stages = ['dev', 'prod'] as const;
const resourcesOf: Record<string, { Type: string; Properties?: Record<string, unknown> }[]> = {};

beforeAll(() => {
  for (const stage of stages) {
    const { app } = buildApp({
      bundle: false,
      outdir: tempDir('tunesmith-cost-'),
      webAssetsPath: join(tempDir('tunesmith-cost-web-'), 'none'),
      context: { ...stageContext(stage), mailFrom: TEST_SENDER },
    });
    // Every stack of the stage's app (a companion stack, such as one for a CloudFront web ACL, counts too).
    resourcesOf[stage] = app.node.children
      .filter((child): child is Stack => Stack.isStack(child))
      .flatMap((stack) => Object.values(Template.fromStack(stack).toJSON().Resources ?? {}));
  }
}, SYNTH_TIMEOUT_MS * 2);

const count = (stage: string, type: string) => resourcesOf[stage]?.filter((r) => r.Type === type).length;
const row = (prefix: string) => {
  const found = floorTable().find((r) => r.item.startsWith(prefix));
  if (!found) throw new Error(`docs/cost.md has no floor row "${prefix}"`);
  return found;
};

describe('docs/cost.md, the floor of a stage', () => {
  it.each([
    ['CloudWatch alarms', 'AWS::CloudWatch::Alarm', 0.1],
    ['CloudWatch dashboards', 'AWS::CloudWatch::Dashboard', 3],
    ['KMS keys', 'AWS::KMS::Key', 1],
    ['Secrets Manager secrets', 'AWS::SecretsManager::Secret', 0.4],
  ])('counts the %s of each stage as its template has them, at $%s each', (item, type, price) => {
    const line = row(item);
    expect(line.price).toBe(price);
    for (const stage of stages) {
      const n = count(stage, type) ?? -1;
      expect(n, `${item} in ${stage}`).toBeGreaterThan(0);
      expect(line.counts[stage], `${item} in ${stage}`).toBe(String(n));
      expect(line.amounts[stage]).toBeCloseTo(n * price, 2);
    }
  });

  it.each([
    ['WAF web ACL on the distribution', 'CLOUDFRONT'],
    ['WAF web ACL on the Cognito pools', 'REGIONAL'],
  ])(
    'prices the %s at $5 and $1 a rule, and counts the web ACLs of that scope each stage synthesises',
    (item, scope) => {
      const line = row(item);
      const rules = Number(/with (\d+) rules?/.exec(line.item)?.[1]);
      expect(rules).toBeGreaterThan(0);
      for (const stage of stages) {
        const acls = Number(line.counts[stage]);
        expect(line.amounts[stage]).toBeCloseTo(acls * (5 + rules), 2);
        const synthesised =
          resourcesOf[stage]?.filter(
            (r) => r.Type === 'AWS::WAFv2::WebACL' && r.Properties?.Scope === scope,
          ) ?? [];
        expect(acls, stage).toBe(synthesised.length);
        for (const acl of synthesised)
          expect((acl.Properties?.Rules as unknown[] | undefined)?.length).toBe(rules);
      }
    },
  );

  it('says how many functions have their own errors and throttles alarms', () => {
    const doc = readFileSync(join(repoRoot, 'docs/cost.md'), 'utf8');
    const said = Number(/errors and throttles of each of the (\d+)\s+functions/.exec(doc)?.[1]);
    for (const stage of stages) {
      const alarmed = new Set(
        (resourcesOf[stage] ?? [])
          .filter(
            (r) =>
              r.Type === 'AWS::CloudWatch::Alarm' &&
              r.Properties?.Namespace === 'AWS/Lambda' &&
              r.Properties?.MetricName === 'Errors',
          )
          .map((r) => JSON.stringify(r.Properties?.Dimensions)),
      );
      expect(alarmed.size, stage).toBeGreaterThan(0);
      expect(said, stage).toBe(alarmed.size);
    }
  });

  it('adds up', () => {
    const rows = floorTable();
    const total = rows.find((r) => r.item.includes('floor'));
    for (const stage of stages) {
      const sum = rows.filter((r) => r !== total).reduce((acc, r) => acc + r.amounts[stage], 0);
      expect(total?.amounts[stage], stage).toBeCloseTo(sum, 2);
    }
  });
});

describe('docs/cost.md, a track of each model', () => {
  it("prices a 60 s track of each registered model as the registry's prices do", () => {
    const doc = readFileSync(join(repoRoot, 'docs/cost.md'), 'utf8');
    const section = doc.slice(doc.indexOf('## Per model'), doc.indexOf('## Timing a track'));
    for (const model of MUSIC_MODELS) {
      const row = section.split('\n').find((line) => line.startsWith(`| ${model.name} |`));
      expect(row, model.name).toBeDefined();
      const sixty = Number(/^\| [^|]+ \| \$([\d.]+)/.exec(row ?? '')?.[1]);
      expect(sixty, model.name).toBeCloseTo(providerCostUsd(model, 60), 4);
      const units = Number(/\| (\d+) \|$/.exec(row ?? '')?.[1]);
      expect(units, model.name).toBe(model.defaultQuotaCost);
    }
  });
});

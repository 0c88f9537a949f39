import { routeGroups } from '@tunesmith/shared/routes';
import { beforeAll, describe, expect, it } from 'vitest';
import { ORIGIN_SECRET_ARN } from '../lib/origin-secret';
import {
  actionsOf,
  flatten,
  logicalId,
  propsOf,
  type Resource,
  resourcesOf,
  SYNTH_TIMEOUT_MS,
  statementsOfFunction,
  synth,
  synthBeforeAll,
} from './helpers';

// The origin lock (decision 007): CloudFront adds a secret header to every API
// request and every route-group function checks it, so the execute-api
// endpoint is no way around CloudFront (the signed webhooks aside).

const synthesized = synthBeforeAll();
const { resources, functionOf } = synthesized;
const secretId = () => logicalId(synthesized.stack, synthesized.stack.originSecret.secret.node.defaultChild);

describe('the origin lock', () => {
  it('is a generated secret, never a value in the template', () => {
    const props = propsOf(resources[secretId()]);
    expect(props.GenerateSecretString).toMatchObject({ PasswordLength: 48, ExcludePunctuation: true });
    expect(props.SecretString).toBeUndefined();
  });

  it('is the header CloudFront adds on the API origin, by dynamic reference to the current version', () => {
    const value = flatten(originHeaderOf(resources));
    expect(value).toBe(`{{resolve:secretsmanager:{Ref:${secretId()}}:SecretString:::}}`);
  });

  it('is an output, so a rotation can name the secret', () => {
    const outputs = synthesized.template.toJSON().Outputs as Record<string, { Value: unknown }>;
    expect(flatten(outputs.OriginSecretArn?.Value)).toBe(`{Ref:${secretId()}}`);
  });

  it('is checked by every route-group function: the ARN and read access to that one secret', () => {
    for (const group of routeGroups) {
      const id = functionOf(group);
      const variables = (propsOf(resources[id]).Environment as { Variables: Record<string, unknown> })
        .Variables;
      expect(flatten(variables[ORIGIN_SECRET_ARN]), group).toBe(`{Ref:${secretId()}}`);
      const grants = statementsOfFunction(resources, id)
        .filter(
          (s) => s.Effect === 'Allow' && resourcesOf(s).some((r) => flatten(r) === `{Ref:${secretId()}}`),
        )
        .flatMap(actionsOf);
      expect(grants, group).toContain('secretsmanager:GetSecretValue');
      expect(
        grants.every((a) => a === 'secretsmanager:GetSecretValue' || a === 'secretsmanager:DescribeSecret'),
      ).toBe(true);
    }
  });
});

/** The value CloudFront adds as x-origin-verify on the API origin. */
function originHeaderOf(resources: Record<string, Resource>): unknown {
  const distribution = Object.values(resources).find((r) => r.Type === 'AWS::CloudFront::Distribution');
  const origins = (propsOf(distribution).DistributionConfig as { Origins: Record<string, unknown>[] })
    .Origins;
  const api = origins.find((o) => JSON.stringify(o.DomainName).includes('execute-api'));
  const headers = api?.OriginCustomHeaders as { HeaderName: string; HeaderValue: unknown }[];
  expect(headers.map((h) => h.HeaderName)).toEqual(['x-origin-verify']);
  return headers[0]?.HeaderValue;
}

// CloudFormation resolves a dynamic reference again only when the resource holding it changes
// (decision 035): a deploy after a rotation must change the distribution, and only the distribution.
describe('rotating the origin secret', () => {
  const first = '3f1c2b4a-5d6e-4f70-8a9b-0c1d2e3f4a5b';
  const second = 'a0b1c2d3-e4f5-4a6b-8c7d-9e0f1a2b3c4d';
  let before: Record<string, Resource>;
  let after: Record<string, Resource>;
  let id: string;

  beforeAll(() => {
    const one = synth({ context: { originSecretVersion: first } });
    before = one.resources;
    id = logicalId(one.stack, one.stack.originSecret.secret.node.defaultChild);
    after = synth({ context: { originSecretVersion: second } }).resources;
  }, SYNTH_TIMEOUT_MS * 2);

  it('names the version the deploy asked for in the header value', () => {
    expect(flatten(originHeaderOf(before))).toBe(
      `{{resolve:secretsmanager:{Ref:${id}}:SecretString:::${first}}}`,
    );
    expect(flatten(originHeaderOf(after))).toBe(
      `{{resolve:secretsmanager:{Ref:${id}}:SecretString:::${second}}}`,
    );
  });

  it('changes the distribution when the version changes, and nothing else', () => {
    const changed = Object.keys(after).filter(
      (key) => JSON.stringify(after[key]) !== JSON.stringify(before[key]),
    );
    expect(changed.map((key) => after[key]?.Type)).toEqual(['AWS::CloudFront::Distribution']);
    expect(Object.keys(after).sort()).toEqual(Object.keys(before).sort());
  });

  it(
    'changes nothing when the version is the same',
    () => {
      const again = synth({ context: { originSecretVersion: first } }).resources;
      expect(JSON.stringify(again)).toBe(JSON.stringify(before));
    },
    SYNTH_TIMEOUT_MS,
  );

  it('refuses a version that is not a version id', () => {
    for (const bad of ['1', 'AWSCURRENT', `${first}:x`, 'x'.repeat(65)])
      expect(() => synth({ context: { originSecretVersion: bad } }), bad).toThrow(
        /not a Secrets Manager version id/,
      );
  });
});

import { routeGroups } from '@tunesmith/shared/routes';
import { describe, expect, it } from 'vitest';
import { ORIGIN_SECRET_ARN } from '../lib/origin-secret';
import {
  actionsOf,
  flatten,
  logicalId,
  propsOf,
  resourcesOf,
  statementsOfFunction,
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

  it('is the header CloudFront adds on the API origin, by dynamic reference', () => {
    const distribution = Object.values(resources).find((r) => r.Type === 'AWS::CloudFront::Distribution');
    const origins = (propsOf(distribution).DistributionConfig as { Origins: Record<string, unknown>[] })
      .Origins;
    const api = origins.find((o) => JSON.stringify(o.DomainName).includes('execute-api'));
    const headers = api?.OriginCustomHeaders as { HeaderName: string; HeaderValue: unknown }[];
    expect(headers.map((h) => h.HeaderName)).toEqual(['x-origin-verify']);
    const value = JSON.stringify(headers[0]?.HeaderValue);
    expect(value).toContain('{{resolve:secretsmanager:');
    expect(value).toContain(secretId());
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

import { audioViewerResponseCode } from '@tunesmith/functions/adapters/cloudfront/edge-download';
import { routeGroups } from '@tunesmith/shared/routes';
import { beforeAll, describe, expect, it } from 'vitest';
import { groupAccess } from '../lib/api';
import { AUDIO_SIGNING_KEY_PAIR_ID, AUDIO_SIGNING_SECRET_ARN } from '../lib/audio-signing';
import {
  actionsOf,
  bucketPolicyAllows,
  flatten,
  functionsByEntry,
  logicalId,
  propsOf,
  resourcesOf,
  SYNTH_TIMEOUT_MS,
  type Synthesized,
  statementsOfFunction,
  synth,
  synthBeforeAll,
} from './helpers';

// Audio through CloudFront (decision 008): /tracks/* on the site's distribution, the tracks bucket behind
// origin access control, signed links only (a trusted key group), keys made at deploy time.

const synthesized = synthBeforeAll();
const { resources, functionOf } = synthesized;

/** The groups that hand out play or download links. */
// The community group signs plays of the tracks its lists show (decision 060).
const SIGNERS = ['admin', 'api-v1', 'catalog', 'community', 'generation'];

interface Behavior {
  PathPattern: string;
  TargetOriginId: string;
  AllowedMethods?: string[];
  CachePolicyId: unknown;
  Compress?: boolean;
  TrustedKeyGroups?: unknown[];
  ViewerProtocolPolicy: string;
  FunctionAssociations?: { EventType: string; FunctionARN: unknown }[];
}

const distributionConfig = () => {
  const { stack } = synthesized;
  return propsOf(resources[logicalId(stack, stack.web.distribution.node.defaultChild)])
    .DistributionConfig as {
    CacheBehaviors: Behavior[];
    DefaultCacheBehavior: Behavior;
    Origins: { Id: string; DomainName: unknown; OriginAccessControlId?: unknown }[];
  };
};
const behaviorAt = (pattern: string) => {
  const behaviors = distributionConfig().CacheBehaviors.filter((b) => b.PathPattern === pattern);
  expect(behaviors).toHaveLength(1);
  return behaviors[0] as Behavior;
};
const audioBehavior = () => behaviorAt('/tracks/*');
const peaksBehavior = () => behaviorAt('/tracks/*.peaks.json');
const exportsBehavior = () => behaviorAt('/exports/*');
const SIGNED_PATTERNS = ['/tracks/*', '/tracks/*.peaks.json', '/exports/*'];
const refId = (value: unknown) =>
  /^\{Ref:(.+)\}$/.exec(flatten(value))?.[1] ?? /^\{(.+)\.\w+\}$/.exec(flatten(value))?.[1];
const secretIds = () =>
  synthesized.stack.audioSigning.keys.map((key) =>
    logicalId(synthesized.stack, key.secret.node.defaultChild),
  );
const variablesOf = (id: string) =>
  (propsOf(resources[id]).Environment as { Variables?: Record<string, unknown> } | undefined)?.Variables ??
  {};

describe('the audio behaviour', () => {
  it('serves /tracks/* from the tracks bucket through origin access control, over HTTPS, GET and HEAD only', () => {
    const { stack } = synthesized;
    const behavior = audioBehavior();
    const origin = distributionConfig().Origins.find((o) => o.Id === behavior.TargetOriginId);
    expect(flatten(origin?.DomainName)).toBe(
      `{${logicalId(stack, stack.data.tracks.node.defaultChild)}.RegionalDomainName}`,
    );
    const oac = resources[refId(origin?.OriginAccessControlId) as string];
    expect(propsOf(oac).OriginAccessControlConfig).toMatchObject({
      OriginAccessControlOriginType: 's3',
      SigningBehavior: 'always',
      SigningProtocol: 'sigv4',
    });
    expect(behavior.ViewerProtocolPolicy).toBe('redirect-to-https');
    expect(behavior.AllowedMethods?.sort()).toEqual(['GET', 'HEAD']);
  });

  it('answers signed links only: it trusts the key group that holds every audio key', () => {
    const { stack } = synthesized;
    const keyGroupId = logicalId(stack, stack.audioSigning.keyGroup.node.defaultChild);
    expect(audioBehavior().TrustedKeyGroups?.map(flatten)).toEqual([`{Ref:${keyGroupId}}`]);
    const items = (propsOf(resources[keyGroupId]).KeyGroupConfig as { Items: unknown[] }).Items.map(flatten);
    expect(items).toEqual(
      stack.audioSigning.keys.map((key) => `{Ref:${logicalId(stack, key.publicKey.node.defaultChild)}}`),
    );
    // Nothing else on the distribution is signed-only.
    expect(peaksBehavior().TrustedKeyGroups?.map(flatten)).toEqual([`{Ref:${keyGroupId}}`]);
    expect(exportsBehavior().TrustedKeyGroups?.map(flatten)).toEqual([`{Ref:${keyGroupId}}`]);
    const others = [distributionConfig().DefaultCacheBehavior, ...distributionConfig().CacheBehaviors].filter(
      (b) => !SIGNED_PATTERNS.includes(b.PathPattern),
    );
    for (const behavior of others) expect(behavior.TrustedKeyGroups).toBeUndefined();
  });

  it('keeps one cached copy per object: no query string, header or cookie in the cache key', () => {
    const policy = resources[refId(audioBehavior().CachePolicyId) as string];
    const config = propsOf(policy).CachePolicyConfig as {
      ParametersInCacheKeyAndForwardedToOrigin: Record<string, unknown>;
      DefaultTTL: number;
    };
    expect(config.ParametersInCacheKeyAndForwardedToOrigin).toEqual({
      QueryStringsConfig: { QueryStringBehavior: 'none' },
      HeadersConfig: { HeaderBehavior: 'none' },
      CookiesConfig: { CookieBehavior: 'none' },
      EnableAcceptEncodingGzip: false,
      EnableAcceptEncodingBrotli: false,
    });
    expect(config.DefaultTTL).toBeGreaterThanOrEqual(24 * 60 * 60);
    expect(audioBehavior().Compress).toBe(false);
  });

  it("serves a track's waveform peaks as the audio, signed, from the same origin, compressed", () => {
    const behaviors = distributionConfig().CacheBehaviors.map((b) => b.PathPattern);
    // CloudFront takes the first pattern that matches: the peaks' before the audio's.
    expect(behaviors.indexOf('/tracks/*.peaks.json')).toBeLessThan(behaviors.indexOf('/tracks/*'));
    const peaks = peaksBehavior();
    const audio = audioBehavior();
    expect(peaks.TargetOriginId).toBe(audio.TargetOriginId);
    expect(peaks.ViewerProtocolPolicy).toBe('redirect-to-https');
    expect(peaks.AllowedMethods?.sort()).toEqual(['GET', 'HEAD']);
    expect(peaks.FunctionAssociations).toEqual(audio.FunctionAssociations);
    expect(peaks.Compress).toBe(true);
    const config = propsOf(resources[refId(peaks.CachePolicyId) as string]).CachePolicyConfig as {
      ParametersInCacheKeyAndForwardedToOrigin: Record<string, unknown>;
      DefaultTTL: number;
    };
    expect(config.ParametersInCacheKeyAndForwardedToOrigin).toEqual({
      QueryStringsConfig: { QueryStringBehavior: 'none' },
      HeadersConfig: { HeaderBehavior: 'none' },
      CookiesConfig: { CookieBehavior: 'none' },
      EnableAcceptEncodingGzip: true,
      EnableAcceptEncodingBrotli: true,
    });
    expect(config.DefaultTTL).toBeGreaterThanOrEqual(24 * 60 * 60);
  });

  it('names downloads with the shared viewer-response function', () => {
    const associations = audioBehavior().FunctionAssociations ?? [];
    expect(associations.map((a) => a.EventType)).toEqual(['viewer-response']);
    const fn = resources[refId(associations[0]?.FunctionARN) as string];
    expect(propsOf(fn).FunctionCode).toBe(audioViewerResponseCode);
    expect(propsOf(fn).FunctionConfig).toMatchObject({ Runtime: 'cloudfront-js-2.0' });
  });

  it('serves export zips (/exports/*) from the same origin, signed, named by the same function, never cached', () => {
    const zips = exportsBehavior();
    const audio = audioBehavior();
    expect(zips.TargetOriginId).toBe(audio.TargetOriginId);
    expect(zips.ViewerProtocolPolicy).toBe('redirect-to-https');
    expect(zips.AllowedMethods?.sort()).toEqual(['GET', 'HEAD']);
    expect(zips.FunctionAssociations).toEqual(audio.FunctionAssociations);
    // CloudFront's managed CachingDisabled policy.
    expect(flatten(zips.CachePolicyId)).toBe('4135ea2d-6df8-44a3-9df3-4b5a84be39ad');
  });

  it('lets this distribution read the tracks and exports areas of the bucket, and nothing else there', () => {
    const { stack } = synthesized;
    const tracks = logicalId(stack, stack.data.tracks.node.defaultChild);
    const allow = bucketPolicyAllows(resources, tracks);
    expect(allow).toHaveLength(1);
    expect(allow[0]).toMatchObject({
      Principal: { Service: 'cloudfront.amazonaws.com' },
      Action: 's3:GetObject',
    });
    expect(((allow[0]?.Resource ?? []) as unknown[]).map(flatten).sort()).toEqual([
      `{${tracks}.Arn}/exports/*`,
      `{${tracks}.Arn}/tracks/*`,
    ]);
    const distribution = logicalId(stack, stack.web.distribution.node.defaultChild);
    expect(
      flatten(
        (allow[0]?.Condition as { StringEquals: Record<string, unknown> } | undefined)?.StringEquals[
          'AWS:SourceArn'
        ],
      ),
    ).toBe(`arn:{Ref:AWS::Partition}:cloudfront::{Ref:AWS::AccountId}:distribution/{Ref:${distribution}}`);
  });
});

describe('the audio signing keys', () => {
  it('are made at deploy time: the custom resource writes the private key into its secret and answers the public key', () => {
    const { stack } = synthesized;
    expect(stack.audioSigning.keys.map((key) => key.name)).toEqual(['k1']);
    for (const key of stack.audioSigning.keys) {
      const secretId = logicalId(stack, key.secret.node.defaultChild);
      const pair = Object.entries(resources).find(
        ([, r]) =>
          r.Type === 'Custom::TunesmithAudioSigningKey' &&
          flatten(r.Properties?.SecretId) === `{Ref:${secretId}}`,
      );
      expect(pair).toBeDefined();
      expect(flatten(pair?.[1].Properties?.ServiceToken)).toMatch(/^\{.*Provider.*\.Arn\}$/);
      const publicKey = propsOf(resources[logicalId(stack, key.publicKey.node.defaultChild)]);
      expect(flatten((publicKey.PublicKeyConfig as { EncodedKey: unknown }).EncodedKey)).toBe(
        `{${pair?.[0]}.PublicKeyPem}`,
      );
      // No key material in the template: the secret starts with a throwaway generated value.
      expect(propsOf(resources[secretId]).SecretString).toBeUndefined();
    }
    expect(JSON.stringify(synthesized.template.toJSON())).not.toContain('PRIVATE KEY-----');
  });

  it('are read by the signing groups and the jobs function (export links) only, each getting the key pair id and the secret ARN', () => {
    expect(routeGroups.filter((group) => groupAccess[group].audio).sort()).toEqual(SIGNERS);
    const { stack } = synthesized;
    const [secretId] = secretIds();
    const publicKeyId = logicalId(stack, stack.audioSigning.signingKey.publicKey.node.defaultChild);
    for (const group of [...SIGNERS, 'jobs']) {
      const id = functionOf(group);
      expect(flatten(variablesOf(id)[AUDIO_SIGNING_KEY_PAIR_ID]), group).toBe(`{Ref:${publicKeyId}}`);
      expect(flatten(variablesOf(id)[AUDIO_SIGNING_SECRET_ARN]), group).toBe(`{Ref:${secretId}}`);
      const onSecret = statementsOfFunction(resources, id)
        .filter((s) => s.Effect === 'Allow' && resourcesOf(s).some((r) => flatten(r) === `{Ref:${secretId}}`))
        .flatMap(actionsOf);
      expect(onSecret.sort(), group).toEqual([
        'secretsmanager:DescribeSecret',
        'secretsmanager:GetSecretValue',
      ]);
    }
  });

  it('are touched by no other role or policy than the signers, the jobs function and the key pair handler', () => {
    const roleOf = (id: string) =>
      (propsOf(resources[id]).Role as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'][0];
    const allowed = new Set([
      ...[...SIGNERS, 'jobs'].map((group) => roleOf(functionOf(group))),
      roleOf(functionOf('audio-signing-key')),
    ]);
    const handlerGrants = statementsOfFunction(resources, functionOf('audio-signing-key'))
      .filter((s) => resourcesOf(s).some((r) => secretIds().some((id) => flatten(r) === `{Ref:${id}}`)))
      .flatMap(actionsOf);
    expect(handlerGrants.sort()).toEqual(['secretsmanager:GetSecretValue', 'secretsmanager:PutSecretValue']);
    for (const [id, resource] of Object.entries(resources)) {
      if (resource.Type === 'AWS::Lambda::Function' && !allowed.has(roleOf(id))) {
        expect(variablesOf(id)[AUDIO_SIGNING_SECRET_ARN], id).toBeUndefined();
      }
      if (resource.Type !== 'AWS::IAM::Policy') continue;
      const document = JSON.stringify(resource.Properties?.PolicyDocument);
      if (!secretIds().some((secret) => document.includes(`"Ref":"${secret}"`))) continue;
      const roles = (propsOf(resource).Roles as { Ref: string }[]).map((ref) => ref.Ref);
      expect(
        roles.every((role) => allowed.has(role)),
        id,
      ).toBe(true);
    }
  });
});

describe('rotating the audio signing key', () => {
  let rotated: Synthesized;
  beforeAll(() => {
    rotated = synth({ context: { audioSigningKeys: 'k2,k1' } });
  }, SYNTH_TIMEOUT_MS);

  it('trusts both keys while the new one signs', () => {
    const { stack, resources: rotatedResources } = rotated;
    expect(stack.audioSigning.keys.map((key) => key.name)).toEqual(['k2', 'k1']);
    const keyGroup = propsOf(
      rotatedResources[logicalId(stack, stack.audioSigning.keyGroup.node.defaultChild)],
    );
    expect((keyGroup.KeyGroupConfig as { Items: unknown[] }).Items).toHaveLength(2);
    const k2 = stack.audioSigning.keys[0];
    const [catalogId] = functionsByEntry(rotatedResources).get('catalog') ?? [];
    const variables = (
      propsOf(rotatedResources[catalogId as string]).Environment as {
        Variables: Record<string, unknown>;
      }
    ).Variables;
    expect(flatten(variables[AUDIO_SIGNING_KEY_PAIR_ID])).toBe(
      `{Ref:${logicalId(stack, k2?.publicKey.node.defaultChild)}}`,
    );
    expect(flatten(variables[AUDIO_SIGNING_SECRET_ARN])).toBe(
      `{Ref:${logicalId(stack, k2?.secret.node.defaultChild)}}`,
    );
  });

  it('refuses key names that cannot name resources', () => {
    expect(() => synth({ context: { audioSigningKeys: 'k1,k1' } })).toThrow(/audioSigningKeys/);
    expect(() => synth({ context: { audioSigningKeys: 'new key' } })).toThrow(/audioSigningKeys/);
  });
});

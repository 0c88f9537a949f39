import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';
import { Annotations, Match } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { spaRewriteCode } from '../lib/web';
import {
  bucketPolicyAllows,
  fakeWebBuild,
  flatten,
  logicalId,
  propsOf,
  type Resource,
  synth,
  synthBeforeAll,
} from './helpers';

/** Managed policy ids (CloudFront docs): CachingDisabled, CachingOptimized, AllViewerExceptHostHeader. */
const CACHING_DISABLED = '4135ea2d-6df8-44a3-9df3-4b5a84be39ad';
const CACHING_OPTIMIZED = '658327ea-f89d-4fab-a63d-7e88639e58f6';
const ALL_VIEWER_EXCEPT_HOST_HEADER = 'b689b0a8-53d0-40ab-baf2-68738e2966ac';

interface Behavior {
  PathPattern?: string;
  TargetOriginId: string;
  AllowedMethods?: string[];
  CachePolicyId: string;
  OriginRequestPolicyId?: string;
  ResponseHeadersPolicyId: unknown;
  ViewerProtocolPolicy: string;
  FunctionAssociations?: { EventType: string; FunctionARN: unknown }[];
}
interface Origin {
  Id: string;
  DomainName: unknown;
  OriginAccessControlId?: unknown;
  CustomOriginConfig?: Record<string, unknown>;
}

const synthesized = synthBeforeAll();
const { resources } = synthesized;
let config: {
  DefaultCacheBehavior: Behavior;
  CacheBehaviors: Behavior[];
  Origins: Origin[];
  CustomErrorResponses?: unknown;
  Logging?: unknown;
  DefaultRootObject?: string;
};

beforeAll(() => {
  const { stack } = synthesized;
  config = resources[logicalId(stack, stack.web.distribution.node.defaultChild)]?.Properties
    ?.DistributionConfig as typeof config;
});

const originOf = (behavior: Behavior) =>
  config.Origins.find((origin) => origin.Id === behavior.TargetOriginId);

describe('distribution', () => {
  it('serves the SPA from the private bucket through origin access control', () => {
    const { stack } = synthesized;
    const behavior = config.DefaultCacheBehavior;
    const origin = originOf(behavior);
    expect(flatten(origin?.DomainName)).toBe(
      `{${logicalId(stack, stack.web.bucket.node.defaultChild)}.RegionalDomainName}`,
    );
    const oacId = /^\{(.+)\.Id\}$/.exec(flatten(origin?.OriginAccessControlId))?.[1] as string;
    expect(resources[oacId]?.Properties?.OriginAccessControlConfig).toMatchObject({
      OriginAccessControlOriginType: 's3',
      SigningBehavior: 'always',
      SigningProtocol: 'sigv4',
    });
    expect(behavior.CachePolicyId).toBe(CACHING_OPTIMIZED);
    expect(behavior.ViewerProtocolPolicy).toBe('redirect-to-https');
    expect(config.DefaultRootObject).toBe('index.html');
  });

  it('forwards /api/* to the HTTP API uncached, with every method and all but the Host header', () => {
    const { stack } = synthesized;
    const api = config.CacheBehaviors.filter((behavior) => behavior.PathPattern === '/api/*');
    expect(api).toHaveLength(1);
    const behavior = api[0] as Behavior;
    expect(behavior.CachePolicyId).toBe(CACHING_DISABLED);
    expect(behavior.OriginRequestPolicyId).toBe(ALL_VIEWER_EXCEPT_HOST_HEADER);
    expect(behavior.AllowedMethods?.sort()).toEqual([
      'DELETE',
      'GET',
      'HEAD',
      'OPTIONS',
      'PATCH',
      'POST',
      'PUT',
    ]);
    expect(behavior.ViewerProtocolPolicy).toBe('redirect-to-https');
    // The SPA rewrite must never see API paths, or API 404s would become index.html.
    expect(behavior.FunctionAssociations ?? []).toEqual([]);
    const origin = originOf(behavior);
    const apiId = logicalId(stack, stack.api.httpApi.node.defaultChild);
    expect(flatten(origin?.DomainName)).toBe(
      `{Ref:${apiId}}.execute-api.{Ref:AWS::Region}.{Ref:AWS::URLSuffix}`,
    );
    expect(origin?.CustomOriginConfig).toMatchObject({
      OriginProtocolPolicy: 'https-only',
      OriginSSLProtocols: ['TLSv1.2'],
    });
  });

  it('uses no error responses (they would rewrite API errors too) and logs to the access log bucket', () => {
    const { stack } = synthesized;
    expect(config.CustomErrorResponses).toBeUndefined();
    expect(flatten((config.Logging as { Bucket: unknown }).Bucket)).toBe(
      `{${logicalId(stack, stack.data.accessLogs.node.defaultChild)}.RegionalDomainName}`,
    );
  });

  it('lets only this distribution read the site bucket', () => {
    const { stack } = synthesized;
    const bucket = logicalId(stack, stack.web.bucket.node.defaultChild);
    const allow = bucketPolicyAllows(resources, bucket);
    expect(allow).toHaveLength(1);
    expect(allow[0]).toMatchObject({
      Principal: { Service: 'cloudfront.amazonaws.com' },
      Action: 's3:GetObject',
    });
    expect(JSON.stringify(allow[0]?.Condition)).toContain('AWS:SourceArn');
  });
});

describe('SPA fallback and share page function', () => {
  /** The function's code run as CloudFront runs it, with a fake `cloudfront` module whose store holds `shared`. */
  const handlerOf = (code: string, kvs: { exists(key: string): Promise<boolean> }) => {
    const cf = { kvs: (id: string) => (id === 'kvs-test' ? kvs : undefined) };
    const script = code.replace(/^import cf from 'cloudfront';$/m, '');
    expect(script).not.toBe(code);
    return runInNewContext(`${script}; handler`, { cf }) as (event: unknown) => Promise<{ uri: string }>;
  };
  const storeOf = (shared: string[], asked: string[] = []) => ({
    exists: async (key: string) => {
      asked.push(key);
      return shared.includes(key);
    },
  });
  const rewrite = async (
    uri: string,
    shared: string[] = [],
    asked: string[] = [],
    cookies: Record<string, { value: string }> = {},
  ): Promise<string> => {
    const handler = handlerOf(spaRewriteCode('kvs-test'), storeOf(shared, asked));
    return (await handler({ request: { uri, method: 'GET', headers: {}, querystring: {}, cookies } })).uri;
  };
  const signedIn = { ts_signed_in: { value: '1' } };

  it('is attached to the default behavior on viewer request, with the share keys store', () => {
    expect(config.DefaultCacheBehavior.FunctionAssociations).toEqual([
      { EventType: 'viewer-request', FunctionARN: expect.anything() },
    ]);
    const functions = Object.values(resources).filter(
      (r) =>
        r.Type === 'AWS::CloudFront::Function' &&
        (r.Properties?.FunctionConfig as { Comment?: string } | undefined)?.Comment?.includes('SPA routes'),
    );
    expect(functions).toHaveLength(1);
    const props = functions[0]?.Properties ?? {};
    expect(props.FunctionConfig).toMatchObject({
      Runtime: 'cloudfront-js-2.0',
      KeyValueStoreAssociations: [{ KeyValueStoreARN: expect.anything() }],
    });
    // The deployed code is this module's, with the store's id put in.
    expect(JSON.stringify(props.FunctionCode)).toContain("import cf from 'cloudfront'");
    expect(Object.values(resources).filter((r) => r.Type === 'AWS::CloudFront::KeyValueStore')).toHaveLength(
      1,
    );
  });

  it('sends extension-less paths to /index.html', async () => {
    for (const uri of ['/library', '/pricing/', '/track/abc-123', '/verify-email/t0k3n', '/admin/users/']) {
      expect(await rewrite(uri), uri).toBe('/index.html');
    }
  });

  it("sends a visitor to a prerendered page's document, and a browser with the signed-in hint to the shell", async () => {
    expect(await rewrite('/')).toBe('/pages/home.html');
    expect(await rewrite('/pricing')).toBe('/pages/pricing.html');
    expect(await rewrite('/auth')).toBe('/pages/auth.html');
    expect(await rewrite('/', [], [], { other: { value: 'x' } })).toBe('/pages/home.html');
    expect(await rewrite('/', [], [], signedIn)).toBe('/index.html');
    expect(await rewrite('/pricing', [], [], { '__Host-ts_signed_in': { value: '1' } })).toBe('/index.html');
    // A request without a cookies object (as in older events) is a visitor's.
    const handler = handlerOf(spaRewriteCode('kvs-test'), storeOf([]));
    expect(
      (await handler({ request: { uri: '/auth', method: 'GET', headers: {}, querystring: {} } })).uri,
    ).toBe('/pages/auth.html');
  });

  it('leaves files alone', async () => {
    for (const uri of ['/assets/index-3f2a.js', '/favicon.svg', '/media/background.mp4', '/index.html']) {
      expect(await rewrite(uri), uri).toBe(uri);
    }
  });

  it('serves a track page its share document when the store has the track, else the shell', async () => {
    const asked: string[] = [];
    expect(await rewrite('/track/abc-123', ['abc-123'], asked)).toBe('/share/track/abc-123.html');
    expect(await rewrite('/track/abc-123/', ['abc-123'])).toBe('/share/track/abc-123.html');
    expect(await rewrite('/track/other', ['abc-123'], asked)).toBe('/index.html');
    expect(asked).toEqual(['abc-123', 'other']);
  });

  it("serves a public playlist's page and a creator's page their documents (decisions 058, 059), else the shell", async () => {
    const asked: string[] = [];
    const shared = ['playlist/pl-1', '@ada'];
    expect(await rewrite('/playlist/pl-1', shared, asked)).toBe('/share/playlist/pl-1.html');
    expect(await rewrite('/playlist/pl-2/', shared, asked)).toBe('/index.html');
    expect(await rewrite('/@Ada', shared, asked)).toBe('/share/creator/ada.html');
    expect(await rewrite('/@grace', shared, asked)).toBe('/index.html');
    expect(asked).toEqual(['playlist/pl-1', 'playlist/pl-2', '@ada', '@grace']);
    // A signed-in browser gets the shell without a lookup; a path that cannot be one is never looked up.
    expect(await rewrite('/playlist/pl-1', shared, asked, signedIn)).toBe('/index.html');
    expect(await rewrite('/@ada', shared, asked, signedIn)).toBe('/index.html');
    for (const uri of ['/@a', '/@ada/tracks', '/@a.b', '/playlist/a.b', '/playlist/a/b'])
      expect((await rewrite(uri, shared, asked)).startsWith('/share/'), uri).toBe(false);
    expect(asked).toHaveLength(4);
  });

  it('serves a browser with the signed-in hint the shell for a track page, without asking the store', async () => {
    const asked: string[] = [];
    expect(await rewrite('/track/abc-123', ['abc-123'], asked, signedIn)).toBe('/index.html');
    expect(
      await rewrite('/track/abc-123', ['abc-123'], asked, { '__Host-ts_signed_in': { value: '1' } }),
    ).toBe('/index.html');
    expect(asked).toEqual([]);
    // Other cookies leave a visitor a visitor: a link preview, or a visitor's browser, gets the document.
    expect(await rewrite('/track/abc-123', ['abc-123'], asked, { theme: { value: 'dark' } })).toBe(
      '/share/track/abc-123.html',
    );
  });

  it('never looks up an id that is not well formed, and never serves another path from the share area', async () => {
    const asked: string[] = [];
    for (const uri of [
      '/track/..%2Findex',
      '/track/a.b',
      '/track/a/b',
      `/track/${'x'.repeat(129)}`,
      '/track/',
    ]) {
      const out = await rewrite(uri, ['a', 'a.b', '..%2Findex'], asked);
      expect(out.startsWith('/share/'), uri).toBe(false);
    }
    expect(asked).toEqual([]);
  });

  it('serves the shell when the store cannot be read', async () => {
    const handler = handlerOf(spaRewriteCode('kvs-test'), {
      exists: async () => Promise.reject(new Error('KeyValueStore unavailable')),
    });
    const out = await handler({
      request: { uri: '/track/abc-123', method: 'GET', headers: {}, querystring: {} },
    });
    expect(out.uri).toBe('/index.html');
  });
});

describe('response headers policy', () => {
  const policy = () => {
    const policies = Object.entries(resources).filter(
      ([, r]) => r.Type === 'AWS::CloudFront::ResponseHeadersPolicy',
    );
    expect(policies).toHaveLength(1);
    const [id, resource] = policies[0] as [string, Resource];
    return {
      id,
      headers: (
        propsOf(resource).ResponseHeadersPolicyConfig as { SecurityHeadersConfig: Record<string, unknown> }
      ).SecurityHeadersConfig,
    };
  };

  it('applies to the site and the API', () => {
    const { id } = policy();
    for (const behavior of [config.DefaultCacheBehavior, ...config.CacheBehaviors]) {
      expect(flatten(behavior.ResponseHeadersPolicyId)).toBe(`{Ref:${id}}`);
    }
  });

  it('sets HSTS for two years with subdomains and preload, nosniff, DENY and the referrer policy', () => {
    const { headers } = policy();
    expect(headers.StrictTransportSecurity).toEqual({
      AccessControlMaxAgeSec: 63_072_000,
      IncludeSubdomains: true,
      Preload: true,
      Override: true,
    });
    expect(headers.ContentTypeOptions).toEqual({ Override: true });
    expect(headers.FrameOptions).toEqual({ FrameOption: 'DENY', Override: true });
    expect(headers.ReferrerPolicy).toEqual({
      ReferrerPolicy: 'strict-origin-when-cross-origin',
      Override: true,
    });
  });

  it('sets a CSP that allows only the site and presigned uploads (audio plays from the site)', () => {
    const { stack } = synthesized;
    const csp = flatten(
      (policy().headers.ContentSecurityPolicy as { ContentSecurityPolicy: unknown }).ContentSecurityPolicy,
    );
    const directives = new Map(
      csp.split(';').map((directive) => {
        const [name, ...sources] = directive.trim().split(/\s+/);
        return [name as string, sources];
      }),
    );
    expect(directives.get('default-src')).toEqual(["'self'"]);
    expect(directives.get('frame-ancestors')).toEqual(["'none'"]);
    expect(directives.get('object-src')).toEqual(["'none'"]);
    expect(directives.get('base-uri')).toEqual(["'self'"]);
    expect(directives.get('img-src')).toEqual(["'self'", 'data:', 'blob:']);
    // Track audio is on the site's own origin (/tracks/*, CloudFront signed links; decision 008).
    expect(directives.get('media-src')).toEqual(["'self'", 'blob:']);
    // connect-src must name the uploads bucket's regional endpoint exactly, or presigned PUTs are blocked.
    const uploadsName = flatten(
      resources[logicalId(stack, stack.data.uploads.node.defaultChild)]?.Properties?.BucketName,
    );
    expect(directives.get('connect-src')).toEqual([
      "'self'",
      `https://${uploadsName}.s3.{Ref:AWS::Region}.{Ref:AWS::URLSuffix}`,
    ]);
    expect(directives.get('script-src')).toEqual(["'self'"]);
    // The waveform's library styles its shadow root with a <style> element (shared/src/content-security-policy.ts).
    expect(directives.get('style-src')).toEqual(["'self'", "'unsafe-inline'"]);
    expect(directives.get('font-src')).toEqual(["'self'"]);
  });
});

describe('site upload', () => {
  it('uploads nothing, with a note, when there is no web build', () => {
    const { stack, resources } = synthesized;
    expect(Object.values(resources).filter((r) => r.Type === 'Custom::CDKBucketDeployment')).toEqual([]);
    Annotations.fromStack(stack).hasInfo('/Tunesmith/Web', Match.stringLikeRegexp('No web build'));
  });

  it('uploads hashed files as immutable and the rest as revalidated, keeping earlier chunks', () => {
    const { stack, resources } = synth({ webAssetsPath: fakeWebBuild() });
    const deployments = Object.entries(resources).filter(([, r]) => r.Type === 'Custom::CDKBucketDeployment');
    expect(deployments).toHaveLength(2);
    const site = `{Ref:${logicalId(stack, stack.web.bucket.node.defaultChild)}}`;
    const [hashedId, hashed] =
      deployments.find(([, r]) => propsOf(r).DestinationBucketKeyPrefix === 'assets/') ?? [];
    const [, shell] = deployments.find(([, r]) => propsOf(r).DestinationBucketKeyPrefix === undefined) ?? [];
    for (const deployment of [hashed, shell]) {
      expect(flatten(propsOf(deployment).DestinationBucketName)).toBe(site);
      // Old chunks survive a deploy: an open tab still loads its lazy pages.
      expect(propsOf(deployment).Prune).toBe(false);
    }
    expect(propsOf(hashed).SystemMetadata).toMatchObject({
      'cache-control': 'public, max-age=31536000, immutable',
    });
    expect(propsOf(shell).SystemMetadata).toMatchObject({ 'cache-control': 'public, no-cache' });
    // The shell goes up after the chunks it names, and only it is invalidated.
    expect(shell?.DependsOn).toContain(hashedId);
    expect(flatten(propsOf(shell).DistributionId)).toBe(
      `{Ref:${logicalId(stack, stack.web.distribution.node.defaultChild)}}`,
    );
    expect((propsOf(shell).DistributionPaths as string[]).sort()).toEqual(['/favicon.svg', '/index.html']);
    expect(propsOf(hashed).DistributionId).toBeUndefined();
  });

  it("never uploads the build's brotli and gzip copies: CloudFront compresses at the edge", () => {
    const build = fakeWebBuild();
    for (const file of ['index.html', 'favicon.svg', join('assets', 'index-AbCd1234.js')]) {
      writeFileSync(join(build, `${file}.br`), 'br');
      writeFileSync(join(build, `${file}.gz`), 'gz');
    }
    const { resources, outdir } = synth({ webAssetsPath: build });
    const staged = readdirSync(outdir, { recursive: true, encoding: 'utf8' }).filter((name) =>
      /^asset\.[^/]+\//.test(name),
    );

    expect(staged.some((name) => name.endsWith('index.html'))).toBe(true);
    expect(staged.some((name) => name.endsWith('index-AbCd1234.js'))).toBe(true);
    expect(staged.filter((name) => /\.(br|gz)$/.test(name))).toEqual([]);
    const [, shell] =
      Object.entries(resources).find(
        ([, r]) =>
          r.Type === 'Custom::CDKBucketDeployment' && propsOf(r).DestinationBucketKeyPrefix === undefined,
      ) ?? [];
    expect((propsOf(shell).DistributionPaths as string[]).sort()).toEqual(['/favicon.svg', '/index.html']);
  });
});

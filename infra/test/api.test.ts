import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { LYRICS_DEADLINE_MS } from '@tunesmith/functions/adapters/fal/fal-provider';
import { routeGroups, routes } from '@tunesmith/shared/routes';
import { Annotations, Match } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { apiOriginOf, groupAccess, routeThrottles, type ThrottleClass, throttleClassOf } from '../lib/api';
import {
  actionsOf,
  flatten,
  functionsByEntry,
  logicalId,
  propsOf,
  resourcesOf,
  type Statement,
  statementsOfFunction,
  synth,
  synthBeforeAll,
} from './helpers';

const synthesized = synthBeforeAll();
const { resources, functionOf } = synthesized;

const ofType = (type: string) => Object.entries(resources).filter(([, r]) => r.Type === type);

describe('route manifest -> HTTP API', () => {
  it('creates exactly one route per manifest entry, with the exact route key', () => {
    const keys = ofType('AWS::ApiGatewayV2::Route').map(([, r]) => r.Properties?.RouteKey as string);
    expect(keys.sort()).toEqual(routes.map((route) => `${route.method} ${route.path}`).sort());
    expect(keys).toHaveLength(112);
  });

  it('creates exactly one function per route group, each from an existing entry file', () => {
    const byEntry = functionsByEntry(resources);
    for (const group of routeGroups) {
      expect(byEntry.get(group), group).toHaveLength(1);
      const entry = fileURLToPath(new URL(`../../functions/src/lambdas/${group}.ts`, import.meta.url));
      expect(existsSync(entry), entry).toBe(true);
    }
    // The route groups, the daily analytics job, the seed, the audio signing key pair, the workflow's tasks, the background
    // jobs and webhook delivery:
    // nothing else is built from functions/src/lambdas.
    expect([...byEntry.keys()].sort()).toEqual(
      [
        ...routeGroups,
        'analytics',
        'seed',
        'audio-signing-key',
        'workflow',
        'jobs',
        'webhook-delivery',
      ].sort(),
    );
  });

  it("sends every route to its own group's function", () => {
    for (const route of routes) {
      const [, resource] = ofType('AWS::ApiGatewayV2::Route').find(
        ([, r]) => r.Properties?.RouteKey === `${route.method} ${route.path}`,
      ) ?? [undefined, undefined];
      const target = flatten(resource?.Properties?.Target);
      const integrationId = /^integrations\/\{Ref:(.+)\}$/.exec(target)?.[1] as string;
      const integration = resources[integrationId];
      expect(integration?.Properties?.IntegrationType).toBe('AWS_PROXY');
      expect(integration?.Properties?.PayloadFormatVersion).toBe('2.0');
      expect(flatten(integration?.Properties?.IntegrationUri)).toBe(`{${functionOf(route.group)}.Arn}`);
    }
  });

  it('lets API Gateway invoke each function only for the paths of its own routes', () => {
    const invokable = new Map<string, string[]>();
    for (const [, permission] of ofType('AWS::Lambda::Permission')) {
      const fn = flatten(permission.Properties?.FunctionName);
      const source = flatten(permission.Properties?.SourceArn);
      if (permission.Properties?.Principal !== 'apigateway.amazonaws.com') continue;
      const path = /\/\*\/\*(\/.*)$/.exec(source)?.[1];
      expect(path, source).toBeDefined();
      invokable.set(fn, [...(invokable.get(fn) ?? []), path as string]);
    }
    for (const group of routeGroups) {
      const paths = new Set(invokable.get(`{${functionOf(group)}.Arn}`));
      const own = new Set(routes.filter((route) => route.group === group).map((route) => route.path));
      expect([...paths].sort(), group).toEqual([...own].sort());
    }
  });

  it('has one $default stage with access logs', () => {
    const stages = ofType('AWS::ApiGatewayV2::Stage');
    expect(stages).toHaveLength(1);
    const stage = stages[0]?.[1].Properties ?? {};
    expect(stage.StageName).toBe('$default');
    expect(stage.AutoDeploy).toBe(true);
    const logs = stage.AccessLogSettings as { DestinationArn: unknown; Format: string };
    expect(logs.DestinationArn).toBeDefined();
    expect(JSON.parse(logs.Format)).toMatchObject({
      requestId: '$context.requestId',
      status: '$context.status',
    });
  });
});

describe('route-group functions', () => {
  it('run Node.js 24 on arm64 with tracing, source maps and their own log group', () => {
    for (const group of [...routeGroups, 'seed']) {
      const props = resources[functionOf(group)]?.Properties ?? {};
      expect(props.Runtime, group).toBe('nodejs24.x');
      expect(props.Architectures).toEqual(['arm64']);
      expect(props.Handler).toBe('index.handler');
      expect(props.TracingConfig).toEqual({ Mode: 'Active' });
      expect(props.MemorySize).toBeGreaterThanOrEqual(256);
      // API Gateway gives up on an integration after 30 s.
      if (group !== 'seed') expect(props.Timeout).toBeLessThan(30);
      // The lyrics call answers (and cancels its fal job) before the function times out.
      if (group === 'generation')
        expect(props.Timeout as number).toBeGreaterThan(LYRICS_DEADLINE_MS / 1000 + 1);
      const variables = (props.Environment as { Variables: Record<string, unknown> }).Variables;
      expect(variables.NODE_OPTIONS).toBe('--enable-source-maps');
      const logGroupId = /^\{Ref:(.+)\}$/.exec(
        flatten((props.LoggingConfig as { LogGroup: unknown }).LogGroup),
      )?.[1];
      expect(resources[logGroupId as string]?.Properties?.RetentionInDays).toBeGreaterThan(0);
      expect((props.LoggingConfig as { LogFormat?: string }).LogFormat, group).toBe('JSON');
    }
  });

  it('get the stack settings in their environment, PUBLIC_ORIGIN being the CloudFront URL', () => {
    const { stack } = synthesized;
    const distribution = logicalId(stack, stack.web.distribution.node.defaultChild);
    for (const group of routeGroups) {
      const variables = (
        propsOf(resources[functionOf(group)]).Environment as { Variables: Record<string, unknown> }
      ).Variables;
      expect(flatten(variables.TABLE_NAME)).toBe(
        `{Ref:${logicalId(stack, stack.data.table.node.defaultChild)}}`,
      );
      expect(flatten(variables.USER_POOL_ID)).toBe(
        `{Ref:${logicalId(stack, stack.auth.userPool.node.defaultChild)}}`,
      );
      expect(flatten(variables.ADMIN_POOL_ID)).toBe(
        `{Ref:${logicalId(stack, stack.auth.adminPool.node.defaultChild)}}`,
      );
      expect(flatten(variables.USER_POOL_CLIENT_ID)).toBe(
        `{Ref:${logicalId(stack, stack.auth.userPoolClient.node.defaultChild)}}`,
      );
      expect(flatten(variables.ADMIN_POOL_CLIENT_ID)).toBe(
        `{Ref:${logicalId(stack, stack.auth.adminPoolClient.node.defaultChild)}}`,
      );
      expect(flatten(variables.UPLOADS_BUCKET)).toBe(
        `{Ref:${logicalId(stack, stack.data.uploads.node.defaultChild)}}`,
      );
      expect(flatten(variables.TRACKS_BUCKET)).toBe(
        `{Ref:${logicalId(stack, stack.data.tracks.node.defaultChild)}}`,
      );
      expect(flatten(variables.PUBLIC_ORIGIN)).toBe(`https://{${distribution}.DomainName}`);
      expect(variables.MAIL_FROM).toBe(stack.mail.from);
      expect(variables.SITE_NAME).toBe('Tunesmith');
      // Emulator endpoints are for the local cloud only.
      for (const local of ['DYNAMODB_ENDPOINT', 'S3_ENDPOINT', 'COGNITO_ENDPOINT', 'SES_ENDPOINT']) {
        expect(variables[local], `${group} ${local}`).toBeUndefined();
      }
    }
  });

  it('give every group with user or admin routes what session checks need', () => {
    // Verifying a session: the pool ids and clients (JWT issuer, REFRESH_TOKEN_AUTH), the profile
    // (TABLE_NAME) and the Origin check (PUBLIC_ORIGIN).
    const needed = [
      'USER_POOL_ID',
      'USER_POOL_CLIENT_ID',
      'ADMIN_POOL_ID',
      'ADMIN_POOL_CLIENT_ID',
      'PUBLIC_ORIGIN',
      'TABLE_NAME',
    ];
    const sessionGroups = [
      ...new Set(
        routes.filter((route) => route.auth === 'user' || route.auth === 'admin').map((r) => r.group),
      ),
    ];
    expect(sessionGroups.sort()).toEqual([
      'admin',
      'admin-session',
      'auth',
      'billing',
      'community',
      'developers',
      'generation',
      'uploads',
    ]);
    for (const group of sessionGroups) {
      const variables = (
        propsOf(resources[functionOf(group)]).Environment as { Variables: Record<string, unknown> }
      ).Variables;
      for (const name of needed) expect(flatten(variables[name] ?? ''), `${group} ${name}`).not.toBe('');
    }
  });
});

describe('least privilege', () => {
  const writeActions = ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem'];

  it('gives each group exactly the table access of the grants table', () => {
    // The public catalogue only reads; every other group writes (sessions, counters, receipts).
    for (const group of routeGroups) {
      expect(groupAccess[group].table, group).toBe(group === 'catalog' ? 'read' : 'readWrite');
    }
    for (const group of routeGroups) {
      const actions = statementsOfFunction(resources, functionOf(group)).flatMap(actionsOf);
      expect(actions, group).toContain('dynamodb:Query');
      for (const action of writeActions) {
        expect(actions.includes(action), `${group} ${action}`).toBe(groupAccess[group].table === 'readWrite');
      }
      expect(actions.filter((action) => action === 'dynamodb:*' || action === 's3:*')).toEqual([]);
      // Nothing the code does not do: no scans, no batch writes, no table management.
      const unused = [
        'dynamodb:Scan',
        'dynamodb:BatchWriteItem',
        'dynamodb:DescribeTable',
        'dynamodb:ConditionCheckItem',
      ];
      expect(
        actions.filter((action) => unused.includes(action)),
        group,
      ).toEqual([]);
      // A session's token state and account are read in one batch (decision 041); the signed webhooks and
      // the developer API's key calls (decision 052) carry none.
      expect(actions.includes('dynamodb:BatchGetItem'), group).toBe(
        group !== 'webhooks' && group !== 'api-v1',
      );
    }
  });

  it('grants the Cognito admin actions exactly: auth and admin (delete, email) on the user pool, admin-session (with the second factor) on the admin pool, nobody else', () => {
    const { stack } = synthesized;
    const userPool = `{${logicalId(stack, stack.auth.userPool.node.defaultChild)}.Arn}`;
    const adminPool = `{${logicalId(stack, stack.auth.adminPool.node.defaultChild)}.Arn}`;
    // What the account adapters call (sign-in is AdminInitiateAuth; refresh and RevokeToken need no IAM).
    const identityAdmin = [
      'cognito-idp:AdminInitiateAuth',
      'cognito-idp:AdminCreateUser',
      'cognito-idp:AdminDeleteUser',
      'cognito-idp:AdminSetUserPassword',
      'cognito-idp:AdminUpdateUserAttributes',
      'cognito-idp:AdminUserGlobalSignOut',
    ];
    const expected: Record<string, string[]> = {
      auth: identityAdmin.map((action) => `${action} on ${userPool}`),
      // Plus the second factor: AssociateSoftwareToken and VerifySoftwareToken are public calls (the session authorises them).
      'admin-session': [
        ...identityAdmin,
        'cognito-idp:AdminRespondToAuthChallenge',
        'cognito-idp:AdminSetUserMFAPreference',
      ].map((action) => `${action} on ${adminPool}`),
      // Deleting a user removes their identity; an email change moves the identity's email.
      admin: ['cognito-idp:AdminDeleteUser', 'cognito-idp:AdminUpdateUserAttributes'].map(
        (action) => `${action} on ${userPool}`,
      ),
    };
    for (const group of routeGroups) {
      const granted = statementsOfFunction(resources, functionOf(group))
        .filter((s) => s.Effect === 'Allow')
        .flatMap((s) =>
          actionsOf(s)
            .filter((action) => action.startsWith('cognito-idp:'))
            .flatMap((action) => resourcesOf(s).map((resource) => `${action} on ${flatten(resource)}`)),
        );
      expect(granted.sort(), group).toEqual((expected[group] ?? []).sort());
    }
  });

  it('lets only the auth group send mail, as the configured sender only', () => {
    const { stack } = synthesized;
    for (const group of routeGroups) {
      const ses = statementsOfFunction(resources, functionOf(group)).filter((s) =>
        actionsOf(s).some((action) => action.startsWith('ses:')),
      );
      if (group !== 'auth') {
        expect(ses, group).toEqual([]);
        continue;
      }
      expect(ses).toHaveLength(1);
      const [statement] = ses as [Statement & { Condition?: unknown }];
      expect(statement.Effect).toBe('Allow');
      expect(actionsOf(statement).sort()).toEqual(['ses:SendEmail', 'ses:SendRawEmail']);
      const configurationSet = logicalId(stack, stack.mail.configurationSet.node.defaultChild);
      expect(resourcesOf(statement).map(flatten).sort()).toEqual([
        `arn:{Ref:AWS::Partition}:ses:{Ref:AWS::Region}:{Ref:AWS::AccountId}:configuration-set/{Ref:${configurationSet}}`,
        'arn:{Ref:AWS::Partition}:ses:{Ref:AWS::Region}:{Ref:AWS::AccountId}:identity/*',
      ]);
      expect(statement.Condition).toEqual({
        StringEqualsIgnoreCase: { 'ses:FromAddress': stack.mail.address },
      });
    }
  });

  it('grants S3 object actions only on the buckets a group touches', () => {
    const { stack } = synthesized;
    const uploads = logicalId(stack, stack.data.uploads.node.defaultChild);
    const tracks = logicalId(stack, stack.data.tracks.node.defaultChild);
    const s3Of = (group: string) =>
      statementsOfFunction(resources, functionOf(group))
        .filter((s) => actionsOf(s).some((action) => action.startsWith('s3:')))
        .flatMap((s) =>
          resourcesOf(s).map((resource) => ({ resource: flatten(resource), actions: actionsOf(s) })),
        );

    // The catalogue signs CloudFront links to finished tracks (decision 008): CloudFront reads them, it touches no bucket.
    expect(s3Of('catalog')).toEqual([]);
    expect(s3Of('billing')).toEqual([]);
    expect(s3Of('auth')).toEqual([]);
    const uploadsGroup = s3Of('uploads');
    expect(uploadsGroup.find((s) => s.resource === `{${uploads}.Arn}/incoming/*`)?.actions).toEqual(
      expect.arrayContaining(['s3:PutObject', 's3:GetObject', 's3:DeleteObject']),
    );
    expect(uploadsGroup.some((s) => s.resource.startsWith(`{${tracks}`))).toBe(false);
    // The workflow writes track audio; the generation routes only delete it with the track (and a remix's upload):
    // plays and downloads are CloudFront links. The tracks bucket keeps versions: every one goes (decision 034).
    const generation = s3Of('generation');
    const actionsOn = (statements: typeof generation, resource: string) =>
      statements
        .filter((s) => s.resource === resource)
        .flatMap((s) => s.actions)
        .sort();
    expect(actionsOn(generation, `{${tracks}.Arn}/tracks/*`)).toEqual([
      's3:DeleteObject',
      's3:DeleteObjectVersion',
    ]);
    expect(actionsOn(generation, `{${tracks}.Arn}`)).toEqual(['s3:ListBucketVersions']);
    expect(actionsOn(generation, `{${uploads}.Arn}/uploads/*`)).toEqual(['s3:DeleteObject', 's3:GetObject']);
    const admin = s3Of('admin');
    expect(actionsOn(admin, `{${tracks}.Arn}/tracks/*`)).toEqual([
      's3:DeleteObject',
      's3:DeleteObjectVersion',
      's3:GetObject',
    ]);
    // It writes nothing but share pages (decisions 024, 058, 059) and the pricing page's document (decision 038).
    expect(admin.filter((s) => s.actions.includes('s3:PutObject')).map((s) => s.resource)).toEqual([
      expect.stringMatching(/WebBucket.*\/share\/creator\/\*$/),
      expect.stringMatching(/WebBucket.*\/share\/playlist\/\*$/),
      expect.stringMatching(/WebBucket.*\/share\/track\/\*$/),
      expect.stringMatching(/WebBucket.*\/pages\/pricing\.html$/),
    ]);
    // A deleted user's export zips go with them, every version: delete only.
    expect(actionsOn(admin, `{${tracks}.Arn}/exports/*`)).toEqual([
      's3:DeleteObject',
      's3:DeleteObjectVersion',
    ]);
    // Uploads in parts (decision 015): their parts listed and aborted by the uploads group, in incoming/ only.
    expect(actionsOn(uploadsGroup, `{${uploads}.Arn}/incoming/*`)).toEqual([
      's3:AbortMultipartUpload',
      's3:DeleteObject',
      's3:GetObject',
      's3:ListMultipartUploadParts',
      's3:PutObject',
    ]);
    expect(actionsOn(uploadsGroup, `{${uploads}.Arn}/uploads/*`)).toEqual([
      's3:DeleteObject',
      's3:GetObject',
      's3:PutObject',
    ]);
    // Only the product's areas, never a whole bucket, and multipart actions nowhere else.
    const bucketActions = new Set(['s3:ListBucket', 's3:ListBucketVersions']);
    for (const group of routeGroups) {
      for (const { resource, actions } of s3Of(group)) {
        if (actions.every((a) => bucketActions.has(a))) continue;
        // Share pages (decisions 024, 026): the site bucket's share area and its templates (generation and
        // admin); the pricing page's document (admin, decision 038).
        if (/WebBucket/.test(resource)) {
          expect(resource, group).toMatch(
            /\/(share\/(track|playlist|creator)\/\*|index\.html|pages\/(track|pricing)\.html)$/,
          );
          continue;
        }
        expect(resource, group).toMatch(/\/(incoming|uploads|tracks|exports)\/\*$/);
        if (group === 'uploads' && resource === `{${uploads}.Arn}/incoming/*`) continue;
        expect(
          actions.filter((a) => /Multipart/.test(a)),
          group,
        ).toEqual([]);
      }
    }
  });

  it('uses Resource "*" only for X-Ray, which has no resource-level permissions', () => {
    for (const group of [...routeGroups, 'seed']) {
      const wildcard = statementsOfFunction(resources, functionOf(group)).filter((s) =>
        resourcesOf(s).includes('*'),
      );
      expect(
        wildcard.flatMap(actionsOf).every((action) => action.startsWith('xray:')),
        group,
      ).toBe(true);
    }
  });
});

describe('route throttles', () => {
  const stageOf = () => {
    const stages = ofType('AWS::ApiGatewayV2::Stage');
    expect(stages).toHaveLength(1);
    return stages[0] as [string, (typeof resources)[string]];
  };
  const settingsOf = () =>
    propsOf(stageOf()[1]).RouteSettings as Record<
      string,
      { ThrottlingRateLimit: number; ThrottlingBurstLimit: number }
    >;

  it('give every route of the manifest its own limits, and name no route the API lacks', () => {
    const settings = settingsOf();
    const routeKeys = ofType('AWS::ApiGatewayV2::Route').map(([, r]) => r.Properties?.RouteKey as string);
    expect(Object.keys(settings).sort()).toEqual([...routeKeys].sort());
    for (const route of routes) {
      const limits = routeThrottles[throttleClassOf(route)];
      expect(settings[`${route.method} ${route.path}`], route.id).toEqual({
        ThrottlingRateLimit: limits.rateLimit,
        ThrottlingBurstLimit: limits.burstLimit,
      });
    }
  });

  it('create the stage after its routes, since API Gateway refuses settings for a route it does not have', () => {
    const [, stage] = stageOf();
    const routeIds = ofType('AWS::ApiGatewayV2::Route').map(([id]) => id);
    expect(stage.DependsOn ?? []).toEqual(expect.arrayContaining(routeIds));
  });

  it('keep webhooks, status polling, generation starts and sign-in in buckets of their own', () => {
    const classOf = (id: string) => throttleClassOf(routes.find((route) => route.id === id) as never);
    expect(classOf('stripeWebhook')).toBe('webhook');
    expect(classOf('falWebhook')).toBe('webhook');
    expect(classOf('getGenerationStatus')).toBe('status');
    expect(classOf('generateTextToMusic')).toBe('start');
    expect(classOf('generateAudioToMusic')).toBe('start');
    // Lyrics wait for fal: a class of its own, so the starts do not pay for its seconds.
    expect(classOf('generateLyrics')).toBe('lyrics');
    expect(routeThrottles.lyrics.seconds).toBeGreaterThan(routeThrottles.start.seconds);
    // The studio's calls each start a generation too.
    expect(classOf('createVariation')).toBe('start');
    expect(classOf('extendGeneration')).toBe('start');
    expect(classOf('repaintGeneration')).toBe('start');
    // A remix starts a generation from the community group (decision 060); the rest of the group has its own.
    expect(classOf('remixTrack')).toBe('start');
    expect(classOf('likeTrack')).toBe('community');
    expect(classOf('setRemixable')).toBe('community');
    expect(classOf('listRemixes')).toBe('community');
    expect(classOf('login')).toBe('sign-in');
    expect(classOf('adminLogin')).toBe('sign-in');
    expect(classOf('adminListUsers')).toBe('admin');
    // The developer API and its keys (decision 052), apart from the app's calls.
    expect(classOf('v1CreateTrack')).toBe('api');
    expect(classOf('v1ListTracks')).toBe('api');
    expect(classOf('createApiKey')).toBe('developer');
    expect(classOf('listPublicTracks')).toBe('standard');
    // A shared link's audio: one redirect per preview fetch or play of a pasted link, a page's worth.
    expect(classOf('getTrackAudio')).toBe('standard');
    // 300 people polling every 3 s fit in the status bucket.
    expect(routeThrottles.status.rateLimit).toBeGreaterThanOrEqual(300 / 3);
  });

  it('class a route added later by its group and kind', () => {
    const later = (route: Partial<Parameters<typeof throttleClassOf>[0]>) =>
      throttleClassOf({ group: 'uploads', method: 'GET', path: '/api/x', auth: 'user', ...route });
    expect(later({ group: 'webhooks', method: 'POST', auth: 'webhook' })).toBe('webhook');
    expect(later({ group: 'generation', path: '/api/remix/{id}/status' })).toBe('status');
    expect(later({ group: 'generation', method: 'POST' })).toBe('start');
    expect(later({ group: 'community', method: 'POST', path: '/api/generation/{id}/remix' })).toBe('start');
    expect(later({ group: 'community', method: 'PUT', path: '/api/track/{id}/like' })).toBe('community');
    expect(later({ group: 'auth', method: 'POST', auth: 'public' })).toBe('sign-in');
    expect(later({ group: 'admin', auth: 'admin' })).toBe('admin');
    expect(later({ method: 'POST', path: '/api/s3/multipart' })).toBe('standard');
  });

  it('let every class burst to at least its rate (what the API needs of Lambda: capacity.test.ts)', () => {
    for (const name of Object.keys(routeThrottles) as ThrottleClass[]) {
      const limits = routeThrottles[name];
      expect(limits.burstLimit, name).toBeGreaterThanOrEqual(limits.rateLimit ?? 0);
    }
  });

  it('put anything else on the standard default', () => {
    const defaults = propsOf(stageOf()[1]).DefaultRouteSettings as Record<string, number>;
    expect(defaults.ThrottlingRateLimit).toBe(routeThrottles.standard.rateLimit);
    expect(defaults.ThrottlingBurstLimit).toBe(routeThrottles.standard.burstLimit);
  });
});

describe('the way around CloudFront', () => {
  const certificateArn =
    'arn:aws:acm:eu-west-1:123456789012:certificate/0a1b2c3d-4e5f-6789-abcd-ef0123456789';
  const apiOrigin = (resources: Record<string, { Type: string; Properties?: Record<string, unknown> }>) => {
    const distribution = Object.values(resources).find((r) => r.Type === 'AWS::CloudFront::Distribution');
    const config = propsOf(distribution).DistributionConfig as {
      Origins: { Id: string; DomainName: unknown }[];
      CacheBehaviors: { PathPattern: string; TargetOriginId: string }[];
    };
    const target = config.CacheBehaviors.find((b) => b.PathPattern === '/api/*')?.TargetOriginId;
    return flatten(config.Origins.find((origin) => origin.Id === target)?.DomainName);
  };

  it('is closed with an API domain of its own: execute-api off, CloudFront calls the domain', () => {
    const { resources: withDomain, template } = synth({
      context: { apiOriginDomain: 'API-Origin.example.org', apiOriginCertificateArn: certificateArn },
    });
    const apis = Object.values(withDomain).filter((r) => r.Type === 'AWS::ApiGatewayV2::Api');
    expect(apis.map((api) => propsOf(api).DisableExecuteApiEndpoint)).toEqual([true]);
    const domains = Object.entries(withDomain).filter(([, r]) => r.Type === 'AWS::ApiGatewayV2::DomainName');
    expect(domains).toHaveLength(1);
    const [domainId, domain] = domains[0] as [string, (typeof withDomain)[string]];
    expect(propsOf(domain).DomainName).toBe('api-origin.example.org');
    expect(propsOf(domain).DomainNameConfigurations).toEqual([
      expect.objectContaining({
        CertificateArn: certificateArn,
        EndpointType: 'REGIONAL',
        SecurityPolicy: 'TLS_1_2',
      }),
    ]);
    const mappings = Object.values(withDomain).filter((r) => r.Type === 'AWS::ApiGatewayV2::ApiMapping');
    expect(mappings).toHaveLength(1);
    const stageId = Object.entries(withDomain).find(([, r]) => r.Type === 'AWS::ApiGatewayV2::Stage')?.[0];
    // The $default stage, by name, after the stage exists.
    expect(propsOf(mappings[0]).Stage).toBe('$default');
    expect(mappings[0]?.DependsOn).toContain(stageId);
    expect(flatten(propsOf(mappings[0]).DomainName)).toBe(`{Ref:${domainId}}`);
    expect(apiOrigin(withDomain)).toBe('api-origin.example.org');
    const outputs = template.toJSON().Outputs as Record<string, { Value: unknown }>;
    expect(flatten(outputs.ApiOriginDnsTarget?.Value)).toBe(`{${domainId}.RegionalDomainName}`);
  });

  it('stays open without one, since CloudFront needs it, and the synthesis says so', () => {
    const apis = ofType('AWS::ApiGatewayV2::Api');
    expect(apis.map(([, api]) => propsOf(api).DisableExecuteApiEndpoint)).toEqual([undefined]);
    expect(apiOrigin(resources)).toMatch(/execute-api/);
    Annotations.fromStack(synthesized.stack).hasWarning(
      '/Tunesmith/Api',
      Match.stringLikeRegexp('execute-api endpoint stays on'),
    );
  });

  it('takes both settings or neither, each well-formed', () => {
    expect(apiOriginOf(undefined, '')).toBeUndefined();
    expect(() => apiOriginOf('api.example.org', undefined)).toThrow(/go together/);
    expect(() => apiOriginOf(undefined, certificateArn)).toThrow(/go together/);
    expect(() => apiOriginOf('not a domain', certificateArn)).toThrow(/is not a domain name/);
    expect(() => apiOriginOf('api.example.org', 'arn:aws:iam::123456789012:role/x')).toThrow(
      /is not an ACM certificate ARN/,
    );
  });
});

describe('seed', () => {
  it('runs the seed function through a Provider-backed custom resource with table write access', () => {
    const seeds = ofType('Custom::TunesmithSeed');
    expect(seeds).toHaveLength(1);
    expect(flatten(seeds[0]?.[1].Properties?.ServiceToken)).toMatch(/^\{.*Provider.*\.Arn\}$/);
    const actions = statementsOfFunction(resources, functionOf('seed')).flatMap(actionsOf);
    expect(actions).toEqual(expect.arrayContaining(['dynamodb:PutItem', 'dynamodb:Query']));
    const variables = (
      propsOf(resources[functionOf('seed')]).Environment as { Variables: Record<string, unknown> }
    ).Variables;
    expect(variables.TABLE_NAME).toBeDefined();
  });
});

describe('outputs', () => {
  it('exports what a deployer and the admin script need, and no way to the API around CloudFront', () => {
    const outputs = Object.keys(synthesized.template.toJSON().Outputs ?? {});
    expect(outputs).not.toContain('ApiUrl');
    expect(JSON.stringify(synthesized.template.toJSON().Outputs)).not.toContain('execute-api');
    expect(outputs).toEqual(
      expect.arrayContaining([
        'SiteUrl',
        'TableName',
        'UserPoolId',
        'UserPoolClientId',
        'AdminPoolId',
        'AdminPoolClientId',
      ]),
    );
  });
});

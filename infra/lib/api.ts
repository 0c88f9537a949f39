import { EXPORTS_AREA } from '@tunesmith/functions/domain/exports/ports';
import { TRACK_AUDIO_AREA } from '@tunesmith/functions/domain/tracks/track';
import { INCOMING_AREA, UPLOADS_AREA } from '@tunesmith/functions/domain/uploads/uploads';
import { type RouteDef, type RouteGroup, routeGroups, routes } from '@tunesmith/shared/routes';
import { Annotations, Aws } from 'aws-cdk-lib';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import {
  ApiMapping,
  type CfnStage,
  DomainName,
  HttpApi,
  HttpMethod,
  HttpRoute,
  HttpRouteKey,
  HttpStage,
  LogGroupLogDestination,
  SecurityPolicy,
  type ThrottleSettings,
} from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import { Certificate } from 'aws-cdk-lib/aws-certificatemanager';
import type { IUserPool } from 'aws-cdk-lib/aws-cognito';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import { NagSuppressions } from 'cdk-nag';
import { Construct } from 'constructs';
import type { AudioSigning } from './audio-signing';
import type { BackgroundJobs } from './jobs';
import type { Mail } from './mail';
import { NodeFunction } from './node-function';
import { grantDeleteEveryVersion, grantUploadsInParts } from './object-access';
import type { SettingsKey } from './settings-key';
import type { StripeKeys } from './stripe-keys';
import { grantTable } from './table-access';
import type { GenerationWorkflow } from './workflow';

type BucketAccess = 'read' | 'write' | 'delete';

/** What one route group's function may touch. */
interface GroupAccess {
  readonly table: 'read' | 'readWrite';
  /**
   * Reads items by key in batches (BatchGetItem): a session's token state and account
   * together (decision 041), and the admin user list's pages of profiles.
   */
  readonly batchRead?: boolean;
  readonly uploads?: readonly BucketAccess[];
  /** Uploads in parts into `incoming/` (decision 015): listing an upload's parts and aborting it. */
  readonly uploadsInParts?: boolean;
  /** Track files (`tracks/` in the tracks bucket); a delete there removes every version (object-access.ts). */
  readonly tracks?: readonly BucketAccess[];
  /** Export zips (`exports/` in the tracks bucket); a delete removes every version, as for `tracks`. */
  readonly exports?: readonly BucketAccess[];
  /** `cognito-idp` admin actions on the user pool. */
  readonly userPool?: readonly string[];
  /** `cognito-idp` admin actions on the admin pool. */
  readonly adminPool?: readonly string[];
  /** Sends account mail through SES, as the configured sender only. */
  readonly mail?: boolean;
  /** Reads Stripe's keys from their Secrets Manager secret (and gets STRIPE_SECRET_ARN). */
  readonly stripe?: boolean;
  /** Signs play and download links with the audio signing key (decision 008; gets AUDIO_SIGNING_*). */
  readonly audio?: boolean;
  /** Secret site settings: `open` reads them (kms:Decrypt), `seal` also writes them (admin). */
  readonly settings?: 'open' | 'seal';
  /**
   * The generation workflow: `start` starts executions (and gets STATE_MACHINE_ARN),
   * `respond` answers a waiting task (SendTaskSuccess/SendTaskFailure).
   */
  readonly workflow?: 'start' | 'respond';
  /** Starts background jobs (an asynchronous invoke of the jobs function; gets JOBS_FUNCTION_NAME). */
  readonly jobs?: boolean;
  /** Variables only this group needs, on top of the shared environment. */
  readonly environment?: Readonly<Record<string, string>>;
}

/** Where fal publishes the keys its webhooks are signed with (fal docs, Webhooks). */
export const FAL_WEBHOOK_JWKS_URL = 'https://rest.fal.ai/.well-known/jwks.json';

/**
 * The Cognito admin APIs the account services call (functions/src/adapters/cognito):
 * sign in (the clients allow no sign-in without IAM, decision 014), create
 * with a permanent password, confirm and change email, set a password, end
 * every session, delete. Refresh and revoking one token (InitiateAuth with
 * REFRESH_TOKEN_AUTH, RevokeToken) are public Cognito APIs and need no IAM.
 */
const identityAdminActions = [
  'cognito-idp:AdminInitiateAuth',
  'cognito-idp:AdminCreateUser',
  'cognito-idp:AdminSetUserPassword',
  'cognito-idp:AdminUpdateUserAttributes',
  'cognito-idp:AdminUserGlobalSignOut',
  'cognito-idp:AdminDeleteUser',
] as const;

/**
 * Least privilege, one line per route group. A `Record` over `RouteGroup`, so a
 * new group in the manifest does not compile until it is given its access here.
 * Every group verifies session cookies (JWKS over https, a profile read,
 * REFRESH_TOKEN_AUTH), which needs only the table and no Cognito grant; only
 * `auth` and `admin-session` manage identities.
 */
export const groupAccess: Record<RouteGroup, GroupAccess> = {
  // Track pages and the gallery sign plays of finished audio (CloudFront reads it); sessions are optional here.
  catalog: { table: 'read', batchRead: true, audio: true },
  // Deleting one's own account cancels the subscription at once (Stripe's keys: the secret, or the sealed
  // site settings) before the background job deletes the rest.
  auth: {
    table: 'readWrite',
    batchRead: true,
    userPool: identityAdminActions,
    mail: true,
    jobs: true,
    stripe: true,
    settings: 'open',
  },
  // Starts the workflow (which writes the audio); deleting a track removes its audio and a remix's upload.
  // Plays and downloads are CloudFront links (decision 008): no read of track audio.
  generation: {
    table: 'readWrite',
    batchRead: true,
    uploads: ['read', 'delete'],
    tracks: ['delete'],
    audio: true,
    workflow: 'start',
    // Export everything is a background job.
    jobs: true,
    // The lyrics helper calls fal with the fal_api_key setting.
    settings: 'open',
  },
  uploads: {
    table: 'readWrite',
    batchRead: true,
    uploads: ['read', 'write', 'delete'],
    uploadsInParts: true,
  },
  // Stripe customers and profiles (billing); plan changes and event receipts (webhooks).
  billing: { table: 'readWrite', batchRead: true, stripe: true, settings: 'open' },
  webhooks: {
    table: 'readWrite',
    stripe: true,
    settings: 'open',
    workflow: 'respond',
    environment: { FAL_WEBHOOK_JWKS_URL },
  },
  // Admin sign-in also answers the pool's second-factor challenges and makes a new authenticator the preferred factor.
  'admin-session': {
    table: 'readWrite',
    batchRead: true,
    adminPool: [
      ...identityAdminActions,
      'cognito-idp:AdminRespondToAuthChallenge',
      'cognito-idp:AdminSetUserMFAPreference',
    ],
  },
  // Deleting a user removes their identity, objects and subscription; an email change moves the identity's email.
  admin: {
    table: 'readWrite',
    // Sessions; and the user list reads the profiles of a page of search hits by key.
    batchRead: true,
    uploads: ['read', 'delete'],
    tracks: ['read', 'delete'],
    // A deleted user's export zips go with them (listed through the tracks bucket's ListBucket).
    exports: ['delete'],
    userPool: ['cognito-idp:AdminDeleteUser', 'cognito-idp:AdminUpdateUserAttributes'],
    stripe: true,
    audio: true,
    settings: 'seal',
  },
  // Profile → Developers: a user's API keys (decision 052) and webhook endpoints (decision 053).
  developers: { table: 'readWrite', batchRead: true },
  // The developer API: keys, their owners and plans, the per-key rate counters (decision 052), and the app's
  // calls: uploads signed and taken in, the workflow started, finished audio linked (decision 055). No sessions.
  'api-v1': { table: 'readWrite', uploads: ['read', 'write', 'delete'], audio: true, workflow: 'start' },
  // Likes, plays, playlists, profiles, follows, remixes and reports (decision 056): its lists sign plays of
  // the tracks they show, and a remix starts the workflow. No bucket access: the workflow links the source
  // track's audio for the provider at submit, as it does an extend's parent (decision 060).
  community: { table: 'readWrite', batchRead: true, audio: true, workflow: 'start' },
};

/**
 * Who may use how much of the API. API Gateway keeps one token bucket per
 * route (shared by every client; the per-address limit is the WAF's, decision
 * 013), so a flood on one kind of call answers 429 on that call only: 300
 * people watching their generations cannot starve sign-in or Stripe's
 * webhooks. Every route gets the limits of its class; {@link throttleClassOf}
 * puts a route added later into a class by its group and kind, so none is
 * left on the stage default by accident.
 */
export type ThrottleClass =
  | 'webhook'
  | 'status'
  | 'start'
  | 'lyrics'
  | 'sign-in'
  | 'admin'
  | 'api'
  | 'developer'
  | 'community'
  | 'standard';

/**
 * The numbers, in one place. A route at its rate limit needs about
 * `rateLimit × seconds` concurrent executions; with every route of the
 * manifest at its limit at once, the API's functions need what
 * `stageConcurrency` (infra/lib/capacity.ts) adds up, from the account's
 * unreserved concurrency. The workflow and the jobs have reservations of
 * their own, so the API cannot take what generations need, and `npm run
 * preflight` checks before a deploy that the account has all of it
 * (decision 035).
 *
 * - webhook: Stripe and fal post a few events per payment or generation and
 *   retry on 429 for days; their own bucket keeps them clear of user traffic.
 * - status: the SPA polls a generation every 3 s (spec 1), so 150/s is 450
 *   people watching at once, with bursts of twice that.
 * - start: a generation (a remix among them, decision 060) costs provider
 *   money and is also limited per account by the plan's allowance; a few a
 *   second is a busy site. A start records the track and starts a workflow
 *   or a job: well within a second.
 * - lyrics: as many as the starts, but each waits for fal's answer.
 * - sign-in: the account calls (sign-in, registration, resets) call Cognito
 *   and SES, which have their own low quotas; the handlers also limit per
 *   account and per address (DESIGN.md).
 * - admin: a handful of administrators.
 * - api: the developer API, `/api/v1` (decision 052): programs, not people,
 *   each key limited to 60 calls and 10 starts a minute by the handler; its
 *   own bucket so a busy integration cannot take the app's. Small, so the
 *   stage still fits an account of 1,000 executions (decision 035).
 * - developer: Profile → Developers, a person managing keys and webhooks now and then.
 * - community: likes, counted plays, playlists, profiles, follows and reports
 *   (decision 056): a few table reads or one transaction each; 15 a second
 *   on each route is 54,000 counted plays an hour, and the class is what
 *   pays for the group's 21 routes within an account of 1,000 (decision 060).
 * - standard: pages, library, catalogue, uploads and billing.
 */
export const routeThrottles: Record<ThrottleClass, ThrottleSettings & { readonly seconds: number }> = {
  webhook: { rateLimit: 25, burstLimit: 50, seconds: 1 },
  status: { rateLimit: 150, burstLimit: 300, seconds: 0.2 },
  // The generations only record a track and start a workflow (decision 060: 8 s was lyrics' wait, paid by every start).
  start: { rateLimit: 5, burstLimit: 10, seconds: 1 },
  // Lyrics wait for fal up to LYRICS_DEADLINE_MS (8 s).
  lyrics: { rateLimit: 5, burstLimit: 10, seconds: 8 },
  'sign-in': { rateLimit: 10, burstLimit: 20, seconds: 0.5 },
  admin: { rateLimit: 5, burstLimit: 10, seconds: 0.5 },
  // A call is a key check and a few table reads or writes; a start also starts the workflow.
  api: { rateLimit: 5, burstLimit: 10, seconds: 0.2 },
  developer: { rateLimit: 2, burstLimit: 4, seconds: 0.25 },
  community: { rateLimit: 15, burstLimit: 30, seconds: 0.5 },
  standard: { rateLimit: 25, burstLimit: 50, seconds: 0.5 },
};

/** The throttle class of a route, from its group, auth and kind (see {@link routeThrottles}). */
export function throttleClassOf(route: Pick<RouteDef, 'group' | 'method' | 'path' | 'auth'>): ThrottleClass {
  if (route.auth === 'webhook' || route.group === 'webhooks') return 'webhook';
  if (route.group === 'generation' && route.method === 'GET' && route.path.endsWith('/status'))
    return 'status';
  if (route.group === 'generation' && route.method === 'POST' && route.path === '/api/generate-lyrics')
    return 'lyrics';
  // A remix (group community) starts a generation like the studio's calls beside it.
  if (route.method === 'POST' && (route.group === 'generation' || route.path.startsWith('/api/generation/')))
    return 'start';
  if (route.group === 'auth' || route.group === 'admin-session') return 'sign-in';
  if (route.group === 'admin') return 'admin';
  if (route.group === 'api-v1') return 'api';
  if (route.group === 'developers') return 'developer';
  if (route.group === 'community') return 'community';
  return 'standard';
}

/**
 * Object-level S3 actions per access kind; named one by one rather than CDK's `s3:GetObject*` style grants.
 * infra/test/s3-access.test.ts checks them against the S3 requests each function's code sends.
 */
const objectActions: Record<BucketAccess, string[]> = {
  read: ['s3:GetObject'],
  // Also starts, fills and completes an upload in parts (CreateMultipartUpload, UploadPart, CompleteMultipartUpload).
  write: ['s3:PutObject'],
  delete: ['s3:DeleteObject'],
};

export interface ApiProps {
  readonly table: ITable;
  readonly uploads: IBucket;
  readonly tracks: IBucket;
  readonly userPool: IUserPool;
  readonly adminPool: IUserPool;
  /** Account mail: the sender the `mail` groups may send as. */
  readonly mail: Mail;
  /** Stripe's keys: the secret the `stripe` groups may read. */
  readonly stripeKeys: StripeKeys;
  /** The key the `audio` groups sign play and download links with. */
  readonly audioSigning: AudioSigning;
  /** The key sealing secret site settings, for the `settings` groups. */
  readonly settingsKey: SettingsKey;
  /** Environment of every route-group function. */
  readonly environment: Record<string, string>;
  /**
   * Stage-wide default throttling, for anything that is not a manifest route
   * (each route has its own, {@link routeThrottles}); API Gateway answers 429 above it.
   * @default the `standard` class of {@link routeThrottles}
   */
  readonly throttle?: ThrottleSettings;
  /**
   * The API's own domain for CloudFront to call (decision 013), with
   * `-c apiOriginDomain=... -c apiOriginCertificateArn=...`: with it the
   * execute-api endpoint is turned off, so nothing reaches a function around
   * CloudFront. API Gateway serves a disabled default endpoint to no one, and a
   * custom domain needs a name the operator owns, so without one the
   * execute-api endpoint stays on and the origin lock guards it.
   * @default - none: CloudFront calls the execute-api endpoint
   */
  readonly origin?: ApiOrigin;
  /**
   * How long API access logs are kept.
   * @default RetentionDays.THREE_MONTHS
   */
  readonly accessLogRetention?: RetentionDays;
}

/** A domain of the API's own (regional, TLS 1.2) that only CloudFront calls. */
export interface ApiOrigin {
  /** e.g. `api-origin.example.com`; a DNS CNAME to the `ApiOriginDnsTarget` output must point it at API Gateway. */
  readonly domainName: string;
  /** ARN of an ACM certificate for the domain, in the stage's region. */
  readonly certificateArn: string;
}

const DOMAIN = /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;
const ACM_ARN = /^arn:aws[a-z-]*:acm:[a-z0-9-]+:\d{12}:certificate\/[A-Za-z0-9-]+$/;

/**
 * The API origin from `-c apiOriginDomain` and `-c apiOriginCertificateArn`:
 * both or neither, each well-formed, else synthesis stops with what is wrong.
 */
export function apiOriginOf(domain: unknown, certificateArn: unknown): ApiOrigin | undefined {
  const name = typeof domain === 'string' ? domain.trim().toLowerCase() : '';
  const arn = typeof certificateArn === 'string' ? certificateArn.trim() : '';
  if (!name && !arn) return undefined;
  if (!name || !arn)
    throw new Error('apiOriginDomain and apiOriginCertificateArn go together: give both, or neither.');
  if (!DOMAIN.test(name)) throw new Error(`apiOriginDomain "${name}" is not a domain name.`);
  if (!ACM_ARN.test(arn)) throw new Error(`apiOriginCertificateArn "${arn}" is not an ACM certificate ARN.`);
  return { domainName: name, certificateArn: arn };
}

/**
 * The HTTP API built from the route manifest: one function per route group,
 * one route per manifest entry, grants from {@link groupAccess}. No API
 * Gateway authorizers: handlers verify the session cookies themselves
 * (DESIGN.md, Accounts and sessions), since a cookie is not a bearer header.
 */
export class Api extends Construct {
  readonly httpApi: HttpApi;
  readonly stage: HttpStage;
  readonly functions: Record<RouteGroup, NodeFunction>;
  /** The host CloudFront sends `/api/*` to: the API's own domain, else its execute-api domain. */
  readonly originHost: string;
  /** The API's own domain, when it has one (then the execute-api endpoint is off). */
  readonly originDomain?: DomainName;

  constructor(scope: Construct, id: string, props: ApiProps) {
    super(scope, id);

    this.httpApi = new HttpApi(this, 'HttpApi', {
      description: 'Tunesmith API, served to browsers through CloudFront under /api',
      createDefaultStage: false,
      // Only with a domain of its own for CloudFront to call: a disabled default endpoint answers no one.
      ...(props.origin ? { disableExecuteApiEndpoint: true } : {}),
    });

    const accessLogs = new LogGroup(this, 'AccessLogs', {
      retention: props.accessLogRetention ?? RetentionDays.THREE_MONTHS,
    });
    this.stage = new HttpStage(this, 'DefaultStage', {
      httpApi: this.httpApi,
      stageName: '$default',
      autoDeploy: true,
      throttle: props.throttle ?? {
        rateLimit: routeThrottles.standard.rateLimit,
        burstLimit: routeThrottles.standard.burstLimit,
      },
      accessLogSettings: {
        destination: new LogGroupLogDestination(accessLogs),
        format: AccessLogFormat.custom(
          JSON.stringify({
            requestId: '$context.requestId',
            ip: '$context.identity.sourceIp',
            requestTime: '$context.requestTime',
            method: '$context.httpMethod',
            routeKey: '$context.routeKey',
            path: '$context.path',
            status: '$context.status',
            responseLength: '$context.responseLength',
            latencyMs: '$context.responseLatency',
            integrationError: '$context.integrationErrorMessage',
          }),
        ),
      },
    });

    if (props.origin) {
      this.originDomain = new DomainName(this, 'OriginDomain', {
        domainName: props.origin.domainName,
        certificate: Certificate.fromCertificateArn(this, 'OriginCertificate', props.origin.certificateArn),
        securityPolicy: SecurityPolicy.TLS_1_2,
      });
      new ApiMapping(this, 'OriginMapping', {
        api: this.httpApi,
        domainName: this.originDomain,
        stage: this.stage,
      });
      this.originHost = props.origin.domainName;
    } else {
      this.originHost = `${this.httpApi.apiId}.execute-api.${Aws.REGION}.${Aws.URL_SUFFIX}`;
      Annotations.of(this).addWarningV2(
        'tunesmith:executeApiOn',
        'The execute-api endpoint stays on, since CloudFront calls it: only the origin lock keeps callers around CloudFront out of the handlers. Give the API a domain of its own (-c apiOriginDomain=... -c apiOriginCertificateArn=...; docs/deploy.md) to turn it off.',
      );
    }

    const functions = {} as Record<RouteGroup, NodeFunction>;
    const integrations = {} as Record<RouteGroup, HttpLambdaIntegration>;
    for (const group of routeGroups) {
      const fn = new NodeFunction(this, `${pascal(group)}Function`, {
        entryName: group,
        description: `Tunesmith route group ${group}`,
        environment: { ...props.environment, ...groupAccess[group].environment },
      });
      this.grant(fn, groupAccess[group], props);
      functions[group] = fn;
      integrations[group] = new HttpLambdaIntegration(`${pascal(group)}Integration`, fn);
    }
    this.functions = functions;

    const routesScope = new Construct(this, 'Routes');
    const routeSettings: Record<string, { ThrottlingRateLimit?: number; ThrottlingBurstLimit?: number }> = {};
    for (const route of routes) {
      const routeKey = HttpRouteKey.with(route.path, HttpMethod[route.method]);
      new HttpRoute(routesScope, route.id, {
        httpApi: this.httpApi,
        routeKey,
        integration: integrations[route.group],
      });
      const limits = routeThrottles[throttleClassOf(route)];
      routeSettings[routeKey.key] = {
        ThrottlingRateLimit: limits.rateLimit,
        ThrottlingBurstLimit: limits.burstLimit,
      };
    }
    // Route settings name routes by key, and API Gateway refuses a key it does not have yet: the stage
    // comes after its routes.
    (this.stage.node.defaultChild as CfnStage).routeSettings = routeSettings;
    this.stage.node.addDependency(routesScope);
    NagSuppressions.addResourceSuppressions(
      routesScope,
      [
        {
          id: 'AwsSolutions-APIG4',
          reason:
            'Authorization happens in the route-group Lambda, which verifies the HttpOnly session cookie (aws-jwt-verify) against the pool and sessionsValidAfter; public routes are public by the spec.',
        },
      ],
      true,
    );
  }

  /** Adds a variable to every route-group function, for values known only after the API exists. */
  addEnvironment(name: string, value: string): void {
    for (const fn of Object.values(this.functions)) fn.addEnvironment(name, value);
  }

  /**
   * Grants the groups with `workflow` access in {@link groupAccess} their part of
   * the generation workflow. Separate from the constructor because the workflow
   * needs the API's endpoint for its webhook URL.
   */
  connectWorkflow(workflow: GenerationWorkflow): void {
    for (const group of routeGroups) {
      const access = groupAccess[group].workflow;
      if (access === 'start') workflow.allowStart(this.functions[group]);
      else if (access === 'respond') workflow.allowTaskResponse(this.functions[group]);
    }
  }

  /** Lets the groups with `jobs` access in {@link groupAccess} start background jobs. */
  connectJobs(jobs: BackgroundJobs): void {
    for (const group of routeGroups) if (groupAccess[group].jobs) jobs.allowStart(this.functions[group]);
  }

  private grant(fn: NodeFunction, access: GroupAccess, props: ApiProps): void {
    // No group scans or batch-writes; only the admin area batch-reads.
    grantTable(props.table, fn, access.table, { batchRead: access.batchRead ?? false });

    // Object actions only under the areas the product keeps there, never the whole bucket. The tracks bucket
    // keeps versions: what is deleted there goes with every version of it.
    const buckets: [IBucket, readonly BucketAccess[] | undefined, string[], 'versions' | 'plain'][] = [
      [props.uploads, access.uploads, [INCOMING_AREA, UPLOADS_AREA], 'plain'],
      [props.tracks, access.tracks, [TRACK_AUDIO_AREA], 'versions'],
      [props.tracks, access.exports, [EXPORTS_AREA], 'versions'],
    ];
    const everyVersion: string[] = [];
    for (const [bucket, kinds, areas, deletes] of buckets) {
      if (!kinds?.length) continue;
      if (deletes === 'versions' && kinds.includes('delete')) everyVersion.push(...areas);
      const actions = kinds
        .filter((kind) => !(deletes === 'versions' && kind === 'delete'))
        .flatMap((kind) => objectActions[kind]);
      if (actions.length) {
        fn.addToRolePolicy(
          new PolicyStatement({ actions, resources: areas.map((area) => bucket.arnForObjects(`${area}*`)) }),
        );
      }
      // Without ListBucket a missing key answers 403 instead of 404.
      if (kinds.includes('read')) {
        fn.addToRolePolicy(
          new PolicyStatement({ actions: ['s3:ListBucket'], resources: [bucket.bucketArn] }),
        );
      }
    }
    if (everyVersion.length) grantDeleteEveryVersion(fn, props.tracks, everyVersion);
    if (access.uploadsInParts) grantUploadsInParts(fn, props.uploads, INCOMING_AREA);

    if (access.userPool?.length) props.userPool.grant(fn, ...access.userPool);
    if (access.adminPool?.length) props.adminPool.grant(fn, ...access.adminPool);
    if (access.mail) props.mail.grantSend(fn);
    if (access.stripe) props.stripeKeys.grantRead(fn);
    if (access.audio) props.audioSigning.grantSign(fn);
    if (access.settings === 'open') props.settingsKey.grantOpen(fn);
    if (access.settings === 'seal') props.settingsKey.grantSealAndOpen(fn);

    NagSuppressions.addResourceSuppressions(
      fn,
      [
        {
          id: 'AwsSolutions-IAM5',
          reason:
            'DynamoDB grants cover the table and its GSIs (index/*): the access patterns query gsi1, gsi2 and gallery.',
          appliesTo: [{ regex: '/^Resource::<.*Table[0-9A-F]{8}\\.Arn>\\/index\\/\\*$/' }],
        },
        ...(access.uploads?.length || access.tracks?.length || access.exports?.length
          ? [
              {
                id: 'AwsSolutions-IAM5',
                reason:
                  'Object keys are per user and per track under the product areas (incoming/, uploads/, tracks/, exports/), so object actions apply to area/*; the actions themselves are listed one by one.',
                appliesTo: [
                  {
                    regex:
                      '/^Resource::<.*(Uploads|Tracks)[0-9A-F]{8}\\.Arn>\\/(incoming|uploads|tracks|exports)\\/\\*$/',
                  },
                ],
              },
            ]
          : []),
      ],
      true,
    );
  }
}

const pascal = (name: string): string =>
  name.replace(/(^|-)([a-z])/g, (_match: string, _dash: string, letter: string) => letter.toUpperCase());

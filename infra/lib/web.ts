import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { audioViewerResponseCode } from '@tunesmith/functions/adapters/cloudfront/edge-download';
import { PEAKS_EXTENSION } from '@tunesmith/functions/domain/audio/peaks';
import { CREATOR_SHARE_AREA } from '@tunesmith/functions/domain/community/creator-share';
import { PLAYLIST_SHARE_AREA } from '@tunesmith/functions/domain/community/playlist-share-page';
import { EXPORTS_AREA } from '@tunesmith/functions/domain/exports/ports';
import { SHARE_PAGE_AREA, SHARE_TEMPLATE_KEY } from '@tunesmith/functions/domain/tracks/share-page';
import { TRACK_AUDIO_AREA } from '@tunesmith/functions/domain/tracks/track';
import { contentSecurityPolicy } from '@tunesmith/shared/content-security-policy';
import {
  PRERENDERED_AREA,
  PRERENDERED_PAGES,
  PRICING_PAGE_KEY,
  SIGNED_IN_HINT_NAMES,
} from '@tunesmith/shared/pages';
import { Annotations, Aws, Duration, Stack } from 'aws-cdk-lib';
import {
  AllowedMethods,
  CacheCookieBehavior,
  CacheHeaderBehavior,
  CachePolicy,
  CacheQueryStringBehavior,
  Function as CloudFrontFunction,
  Distribution,
  FunctionCode,
  FunctionEventType,
  FunctionRuntime,
  HeadersFrameOption,
  HeadersReferrerPolicy,
  HttpVersion,
  type IKeyGroup,
  type IOrigin,
  KeyValueStore,
  type OriginBindConfig,
  type OriginBindOptions,
  OriginProtocolPolicy,
  OriginRequestPolicy,
  OriginSslPolicy,
  PriceClass,
  ResponseHeadersPolicy,
  S3OriginAccessControl,
  Signing,
  ViewerProtocolPolicy,
} from 'aws-cdk-lib/aws-cloudfront';
import { HttpOrigin, S3BucketOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import { PolicyStatement, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import { Bucket, EventType, type IBucket } from 'aws-cdk-lib/aws-s3';
import { BucketDeployment, CacheControl, Source } from 'aws-cdk-lib/aws-s3-deployment';
import { LambdaDestination } from 'aws-cdk-lib/aws-s3-notifications';
import { NagSuppressions } from 'cdk-nag';
import { Construct } from 'constructs';
import { privateBucket } from './data';

/**
 * The build's brotli and gzip copies (web/build/precompress.ts) are for the
 * local static server only: CloudFront compresses at the edge, so they are
 * never uploaded.
 */
const PRECOMPRESSED = ['**/*.br', '**/*.gz'];

/** The site bucket's areas of share documents: tracks' (decision 024), playlists' (058), creators' (059). */
export const SHARE_AREAS = [SHARE_PAGE_AREA, PLAYLIST_SHARE_AREA, CREATOR_SHARE_AREA] as const;
export type ShareArea = (typeof SHARE_AREAS)[number];
/** The community's documents: public playlists' and profiles'. */
export const COMMUNITY_SHARE_AREAS = [PLAYLIST_SHARE_AREA, CREATOR_SHARE_AREA] as const;

/** Where Vite puts content-hashed files (its `build.assetsDir`). */
const HASHED_DIR = 'assets';

/**
 * CloudFront Function (viewer request, default behavior only): paths without a
 * file extension are SPA routes and get index.html. Done here rather than with
 * distribution error responses, which would also turn the API's JSON 404s into
 * index.html. A track's page, `/track/{id}` with a well-formed id, gets the
 * track's share document instead (decision 024) when the KeyValueStore
 * `kvsId` holds the id: a public, finished track's title and image for link
 * previews and the track page's first frame, at the cost of one key lookup
 * and no origin call of its own. Only a visitor (no signed-in hint cookie)
 * gets it; a signed-in browser gets index.html without a lookup, as it sees
 * its own page, never a visitor's frame first (decision 026). A visitor asking
 * for a prerendered page gets its document, `pages/{name}.html`
 * (shared/src/pages.ts, decision 025). A public playlist's page
 * (`/playlist/{id}`, key `playlist/{id}`, decision 058) and a creator's
 * (`/@{handle}`, key `@{handle lowercased}`, decision 059) get theirs the same way.
 */
export function spaRewriteCode(kvsId: string): string {
  return `import cf from 'cloudfront';
const kvs = cf.kvs(${JSON.stringify(kvsId)});
const track = /^\\/track\\/([A-Za-z0-9_-]{1,128})\\/?$/;
const playlist = /^\\/playlist\\/([A-Za-z0-9_-]{1,128})\\/?$/;
const creator = /^\\/@([A-Za-z0-9_-]{3,30})\\/?$/;
const pages = ${JSON.stringify(PRERENDERED_PAGES)};
const hints = ${JSON.stringify(SIGNED_IN_HINT_NAMES)};
async function shareable(key) {
  try {
    return await kvs.exists(key);
  } catch (e) {
    return false;
  }
}
async function handler(event) {
  var request = event.request;
  var cookies = request.cookies || {};
  var visitor = !hints.some(function (name) { return cookies[name] !== undefined; });
  var page = track.exec(request.uri);
  if (page) {
    var shared = visitor && (await shareable(page[1]));
    request.uri = shared ? '/${SHARE_PAGE_AREA}' + page[1] + '.html' : '/index.html';
    return request;
  }
  var list = playlist.exec(request.uri);
  if (list) {
    var listed = visitor && (await shareable('playlist/' + list[1]));
    request.uri = listed ? '/${PLAYLIST_SHARE_AREA}' + list[1] + '.html' : '/index.html';
    return request;
  }
  var profile = creator.exec(request.uri);
  if (profile) {
    var handle = profile[1].toLowerCase();
    var known = visitor && (await shareable('@' + handle));
    request.uri = known ? '/${CREATOR_SHARE_AREA}' + handle + '.html' : '/index.html';
    return request;
  }
  var prerendered = pages.hasOwnProperty(request.uri) ? pages[request.uri] : undefined;
  if (prerendered !== undefined && visitor) {
    request.uri = '/${PRERENDERED_AREA}' + prerendered + '.html';
    return request;
  }
  var last = request.uri.substring(request.uri.lastIndexOf('/') + 1);
  if (last.indexOf('.') === -1) {
    request.uri = '/index.html';
  }
  return request;
}`;
}

export interface WebProps {
  /**
   * Host of the API for `/api/*`: its own domain (then its execute-api endpoint
   * is off), else its execute-api endpoint (`{apiId}.execute-api.{region}.amazonaws.com`).
   */
  readonly apiDomain: string;
  /** The value CloudFront adds to every API request as `x-origin-verify` (the origin lock). */
  readonly originVerify?: string;
  /** Origin the browser sends presigned uploads to; allowed in the CSP's connect-src. */
  readonly uploadsOrigin: string;
  /**
   * Track audio, served under `/tracks/*` to signed links only (decision 008):
   * the tracks bucket (reached through origin access control) and the key
   * group whose keys sign the links.
   */
  readonly audio: { readonly bucket: IBucket; readonly keyGroup: IKeyGroup };
  /** Bucket for the site bucket's S3 access logs and the distribution's standard logs. */
  readonly logsBucket: IBucket;
  /**
   * The edge locations the distribution serves from (a stage setting, infra/lib/stages.ts).
   * @default PriceClass.PRICE_CLASS_100, the cheapest
   */
  readonly priceClass?: PriceClass;
  /**
   * ARN of the WAF web ACL (us-east-1, CLOUDFRONT scope) on the distribution.
   * @default - none (dev; `-c waf=on` adds one)
   */
  readonly webAclArn?: string;
  /**
   * Folder with the built SPA (`npm run build -w web`). When it does not exist
   * nothing is uploaded, so the app synthesises before the first web build.
   * @default - nothing is uploaded
   */
  readonly assetsPath?: string;
}

/**
 * The site: a private bucket behind CloudFront with origin access control,
 * `/api/*` forwarded to the HTTP API on the same origin (so cookies are
 * first-party and no CORS is needed), track audio under `/tracks/*` to signed
 * links only, and security headers on every answer.
 */
export class Web extends Construct {
  readonly bucket: Bucket;
  readonly distribution: Distribution;
  readonly responseHeadersPolicy: ResponseHeadersPolicy;
  /** `https://` origin of the site, e.g. `https://d1234.cloudfront.net`. */
  readonly url: string;
  /** Track ids that have a share document, read by the viewer-request function (decision 024). */
  readonly shareKeys: KeyValueStore;

  constructor(scope: Construct, id: string, props: WebProps) {
    super(scope, id);

    this.bucket = new Bucket(this, 'Bucket', {
      ...privateBucket,
      serverAccessLogsBucket: props.logsBucket,
      serverAccessLogsPrefix: 'site/',
    });

    const csp = contentSecurityPolicy([props.uploadsOrigin]);

    this.responseHeadersPolicy = new ResponseHeadersPolicy(this, 'Headers', {
      comment: 'Tunesmith security headers',
      securityHeadersBehavior: {
        contentSecurityPolicy: { contentSecurityPolicy: csp, override: true },
        strictTransportSecurity: {
          accessControlMaxAge: Duration.days(730),
          includeSubdomains: true,
          preload: true,
          override: true,
        },
        contentTypeOptions: { override: true },
        frameOptions: { frameOption: HeadersFrameOption.DENY, override: true },
        referrerPolicy: {
          referrerPolicy: HeadersReferrerPolicy.STRICT_ORIGIN_WHEN_CROSS_ORIGIN,
          override: true,
        },
      },
    });

    // Which tracks have a share document (decision 024): a key per track id, written by the functions.
    this.shareKeys = new KeyValueStore(this, 'ShareKeys', {
      comment: 'Tunesmith: track ids that have a share page',
    });
    const spaRewrite = new CloudFrontFunction(this, 'SpaRewrite', {
      comment: 'index.html for SPA routes; a track page with a share document gets it',
      runtime: FunctionRuntime.JS_2_0,
      code: FunctionCode.fromInline(spaRewriteCode(this.shareKeys.keyValueStoreId)),
      keyValueStore: this.shareKeys,
    });

    const audioPath = `/${TRACK_AUDIO_AREA}*`;
    // The signed query string (Expires, Signature, Key-Pair-Id, download) is verified before the cache
    // lookup and is no part of the key, so every link to an object, play or download, hits one copy.
    // No Accept-Encoding either: audio is not compressed, and media elements send their own.
    const audioCache = new CachePolicy(this, 'AudioCache', {
      comment: 'Tunesmith track audio: one cached copy per object, whatever the signed query string',
      queryStringBehavior: CacheQueryStringBehavior.none(),
      headerBehavior: CacheHeaderBehavior.none(),
      cookieBehavior: CacheCookieBehavior.none(),
      enableAcceptEncodingGzip: false,
      enableAcceptEncodingBrotli: false,
      minTtl: Duration.seconds(0),
      // Objects under tracks/ are written once (a new rendition is a new key); a deleted track stays
      // reachable only through links signed before, which end within READ_LINK_SECONDS + an hour.
      defaultTtl: Duration.days(30),
      maxTtl: Duration.days(365),
    });
    // A track's waveform peaks (audiowaveform JSON, tracks/{id}.peaks.json) are text: the same signed
    // links and cache life as the audio, compressed at the edge (gzip or brotli, as the browser accepts).
    const peaksPath = `/${TRACK_AUDIO_AREA}*${PEAKS_EXTENSION}`;
    const peaksCache = new CachePolicy(this, 'PeaksCache', {
      comment:
        'Tunesmith waveform peaks: one cached copy per object and encoding, whatever the signed query string',
      queryStringBehavior: CacheQueryStringBehavior.none(),
      headerBehavior: CacheHeaderBehavior.none(),
      cookieBehavior: CacheCookieBehavior.none(),
      enableAcceptEncodingGzip: true,
      enableAcceptEncodingBrotli: true,
      minTtl: Duration.seconds(0),
      defaultTtl: Duration.days(30),
      maxTtl: Duration.days(365),
    });
    const audioResponse = new CloudFrontFunction(this, 'AudioResponse', {
      comment: 'Download links: Content-Disposition attachment from the signed download parameter',
      runtime: FunctionRuntime.JS_2_0,
      code: FunctionCode.fromInline(audioViewerResponseCode),
    });

    // Every file of a track (audio, peaks): the tracks bucket, signed links only, GET and HEAD.
    const trackFiles = {
      origin: new TrackAudioOrigin(this, props.audio.bucket),
      viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
      allowedMethods: AllowedMethods.ALLOW_GET_HEAD,
      trustedKeyGroups: [props.audio.keyGroup],
      responseHeadersPolicy: this.responseHeadersPolicy,
      functionAssociations: [{ function: audioResponse, eventType: FunctionEventType.VIEWER_RESPONSE }],
    };

    this.distribution = new Distribution(this, 'Distribution', {
      comment: `Tunesmith (${Stack.of(this).stackName})`,
      defaultRootObject: 'index.html',
      httpVersion: HttpVersion.HTTP2_AND_3,
      priceClass: props.priceClass ?? PriceClass.PRICE_CLASS_100,
      ...(props.webAclArn ? { webAclId: props.webAclArn } : {}),
      enableLogging: true,
      logBucket: props.logsBucket,
      logFilePrefix: 'cloudfront/',
      defaultBehavior: {
        origin: S3BucketOrigin.withOriginAccessControl(this.bucket),
        viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
        cachePolicy: CachePolicy.CACHING_OPTIMIZED,
        responseHeadersPolicy: this.responseHeadersPolicy,
        functionAssociations: [{ function: spaRewrite, eventType: FunctionEventType.VIEWER_REQUEST }],
      },
      additionalBehaviors: {
        '/api/*': {
          origin: new HttpOrigin(props.apiDomain, {
            protocolPolicy: OriginProtocolPolicy.HTTPS_ONLY,
            originSslProtocols: [OriginSslPolicy.TLS_V1_2],
            ...(props.originVerify ? { customHeaders: { 'x-origin-verify': props.originVerify } } : {}),
          }),
          viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
          allowedMethods: AllowedMethods.ALLOW_ALL,
          cachePolicy: CachePolicy.CACHING_DISABLED,
          // API Gateway routes by its own Host header; everything else (cookies, Origin, query) must reach the Lambda.
          originRequestPolicy: OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
          responseHeadersPolicy: this.responseHeadersPolicy,
        },
        // Before /tracks/*: CloudFront takes the first pattern that matches.
        [peaksPath]: { ...trackFiles, cachePolicy: peaksCache, compress: true },
        [audioPath]: { ...trackFiles, cachePolicy: audioCache, compress: false },
        // Export zips (decision 021): the same bucket, signed links and download names, never cached at the
        // edge (each is one person's, fetched once or twice, and up to gigabytes).
        [`/${EXPORTS_AREA}*`]: { ...trackFiles, cachePolicy: CachePolicy.CACHING_DISABLED, compress: false },
      },
    });
    NagSuppressions.addResourceSuppressions(this.distribution, [
      {
        id: 'AwsSolutions-CFR1',
        reason: 'The product is offered worldwide; there is no country to block.',
      },
      ...(props.webAclArn
        ? []
        : [
            {
              id: 'AwsSolutions-CFR2',
              reason:
                'A stage without a web ACL (dev, a fixed monthly cost; -c waf=on adds one, prod always has one): the API rate-limits authentication per account and address, and API Gateway throttles every route.',
            },
          ]),
      {
        id: 'AwsSolutions-CFR4',
        reason:
          'The default *.cloudfront.net certificate allows TLSv1 and cannot be changed; with a custom domain and ACM certificate set TLSv1.2_2021.',
      },
    ]);

    this.url = `https://${this.distribution.distributionDomainName}`;

    if (props.assetsPath && existsSync(props.assetsPath)) {
      this.deploy(props.assetsPath);
    } else {
      Annotations.of(this).addInfo(
        `No web build at ${props.assetsPath ?? '(none given)'}: the site bucket stays empty. Run "npm run build" before deploying.`,
      );
    }
  }

  /**
   * Lets `fn` write share documents (decision 024): `SITE_BUCKET` and
   * `SHARE_KVS_ARN` in its environment; put and delete under the share areas
   * given (`areas`: tracks' by default; playlists' and creators', decisions 058 and 059), read the template it writes them from (`pages/track.html`, else the
   * shell `index.html`; decision 026), and describe the
   * key store and put and delete its keys.
   */
  grantSharePages(fn: LambdaFunction, areas: readonly ShareArea[] = [SHARE_PAGE_AREA]): void {
    fn.addEnvironment('SITE_BUCKET', this.bucket.bucketName);
    fn.addEnvironment('SHARE_KVS_ARN', this.shareKeys.keyValueStoreArn);
    fn.addToRolePolicy(
      new PolicyStatement({
        actions: ['s3:PutObject', 's3:DeleteObject'],
        resources: areas.map((area) => this.bucket.arnForObjects(`${area}*`)),
      }),
    );
    fn.addToRolePolicy(
      new PolicyStatement({
        actions: ['s3:GetObject'],
        resources: [this.bucket.arnForObjects(SHARE_TEMPLATE_KEY), this.bucket.arnForObjects('index.html')],
      }),
    );
    fn.addToRolePolicy(
      new PolicyStatement({
        actions: [
          'cloudfront-keyvaluestore:DescribeKeyValueStore',
          'cloudfront-keyvaluestore:PutKey',
          'cloudfront-keyvaluestore:DeleteKey',
        ],
        resources: [this.shareKeys.keyValueStoreArn],
      }),
    );
    NagSuppressions.addResourceSuppressions(
      fn,
      [
        {
          id: 'AwsSolutions-IAM5',
          reason:
            'Share documents are one object per track, public playlist or public profile (share/{track,playlist,creator}/{id}.html): put and delete apply to those areas of the site bucket only.',
          appliesTo: [
            {
              regex: '/^Resource::<.*WebBucket[0-9A-F]{8}\\.Arn>\\/share\\/(track|playlist|creator)\\/\\*$/',
            },
          ],
        },
      ],
      true,
    );
  }

  /**
   * Lets `fn` keep the pricing page's document in line with the plans
   * (decision 038): `SITE_BUCKET` in its environment, and read and write
   * that one object (`pages/pricing.html`), nothing else of the site.
   */
  grantPricingPage(fn: LambdaFunction): void {
    fn.addEnvironment('SITE_BUCKET', this.bucket.bucketName);
    fn.addToRolePolicy(
      new PolicyStatement({
        actions: ['s3:GetObject', 's3:PutObject'],
        resources: [this.bucket.arnForObjects(PRICING_PAGE_KEY)],
      }),
    );
  }

  /**
   * A deploy writes the pricing page's document as built, with no plans in
   * it: S3 starts `fn` (the jobs function) for every object created under
   * that one key, and it fills them in (decision 038). Its own write starts
   * it once more, and that run finds nothing to change.
   */
  fillPricingPageOnDeploy(fn: LambdaFunction): void {
    this.bucket.addEventNotification(EventType.OBJECT_CREATED, new LambdaDestination(fn), {
      prefix: PRICING_PAGE_KEY,
    });
  }

  /**
   * Every share document is the track frame template filled in with a track
   * (decision 026), so a deploy that writes a new `pages/track.html` has `fn`
   * (the jobs function) rewrite them all: S3 invokes it asynchronously
   * (Lambda's retries, then its dead-letter queue) for every object created
   * under that one key (decision 024).
   */
  rewriteSharePagesOnDeploy(fn: LambdaFunction): void {
    this.bucket.addEventNotification(EventType.OBJECT_CREATED, new LambdaDestination(fn), {
      prefix: SHARE_TEMPLATE_KEY,
    });
    // Playlist and creator documents are found by listing their areas (tracks by the table's index).
    fn.addToRolePolicy(
      new PolicyStatement({
        actions: ['s3:ListBucket'],
        resources: [this.bucket.bucketArn],
        conditions: { StringLike: { 's3:prefix': COMMUNITY_SHARE_AREAS.map((area) => `${area}*`) } },
      }),
    );
    // CDK's notifications handler is a singleton at stack level, outside this construct's tree.
    for (const child of Stack.of(this).node.children) {
      if (!child.node.id.startsWith('BucketNotificationsHandler')) continue;
      NagSuppressions.addResourceSuppressions(
        child,
        [
          {
            id: 'AwsSolutions-IAM4',
            reason: "CDK's bucket notifications handler writes its logs with AWSLambdaBasicExecutionRole.",
            appliesTo: [
              'Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole',
            ],
          },
        ],
        true,
      );
    }
  }

  /**
   * Two uploads, neither pruning: Vite's hashed files under `assets/` are
   * immutable for a year, and the files named the same on every build
   * (index.html, the favicon, the background media) are revalidated on every
   * request. Chunks of earlier builds stay, so a tab opened before a deploy
   * still loads its lazy pages; index.html goes up after the chunks it names.
   */
  private deploy(assetsPath: string): void {
    const hashedDir = join(assetsPath, HASHED_DIR);
    const hashed = existsSync(hashedDir)
      ? new BucketDeployment(this, 'DeployHashed', {
          sources: [Source.asset(hashedDir, { exclude: PRECOMPRESSED })],
          destinationBucket: this.bucket,
          destinationKeyPrefix: `${HASHED_DIR}/`,
          prune: false,
          memoryLimit: 512,
          cacheControl: [CacheControl.fromString('public, max-age=31536000, immutable')],
        })
      : undefined;
    const shellPaths = readdirSync(assetsPath, { withFileTypes: true })
      .filter((entry) => entry.name !== HASHED_DIR && !/\.(br|gz)$/.test(entry.name))
      .map((entry) => (entry.isDirectory() ? `/${entry.name}/*` : `/${entry.name}`));
    const shell = new BucketDeployment(this, 'Deploy', {
      sources: [Source.asset(assetsPath, { exclude: [`${HASHED_DIR}/**`, HASHED_DIR, ...PRECOMPRESSED] })],
      destinationBucket: this.bucket,
      prune: false,
      distribution: this.distribution,
      // Only what changes under the same name; hashed files are new names.
      distributionPaths: shellPaths,
      memoryLimit: 512,
      cacheControl: [CacheControl.fromString('public, no-cache')],
    });
    if (hashed) shell.node.addDependency(hashed);
    // The handler is a singleton at stack level, outside this construct's tree.
    const stack = Stack.of(this);
    for (const child of stack.node.children) {
      if (!child.node.id.startsWith('Custom::CDKBucketDeployment')) continue;
      NagSuppressions.addResourceSuppressions(
        child,
        [
          {
            id: 'AwsSolutions-IAM4',
            reason: 'The CDK BucketDeployment handler writes its logs with AWSLambdaBasicExecutionRole.',
            appliesTo: [
              'Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole',
            ],
          },
          {
            id: 'AwsSolutions-IAM5',
            reason:
              'The CDK BucketDeployment handler copies the whole site: it reads the asset bucket and writes and deletes any key of the site bucket.',
            appliesTo: [
              'Action::s3:GetBucket*',
              'Action::s3:GetObject*',
              'Action::s3:List*',
              'Action::s3:DeleteObject*',
              'Action::s3:Abort*',
              { regex: '/^Resource::arn:<AWS::Partition>:s3:::cdk-[a-z0-9]+-assets-.+\\/\\*$/' },
              { regex: '/^Resource::<.*WebBucket[0-9A-F]{8}\\.Arn>\\/\\*$/' },
            ],
          },
          {
            id: 'AwsSolutions-IAM5',
            reason:
              'CDK grants the BucketDeployment handler cloudfront:CreateInvalidation/GetInvalidation on *; it invalidates only this distribution after an upload.',
            appliesTo: ['Resource::*'],
          },
          {
            id: 'AwsSolutions-L1',
            reason:
              'The BucketDeployment handler runtime is chosen and maintained by aws-cdk-lib, not by this app.',
          },
          {
            id: 'Serverless-LambdaLatestVersion',
            reason:
              'The BucketDeployment handler runtime is chosen and maintained by aws-cdk-lib, not by this app.',
          },
          {
            id: 'Serverless-LambdaDLQ',
            reason:
              'CloudFormation invokes the BucketDeployment handler as a custom resource and fails the deploy when it fails; there is no asynchronous invocation to catch.',
          },
          {
            id: 'Serverless-LambdaTracing',
            reason:
              'The BucketDeployment handler is aws-cdk-lib code that runs once per deploy; its configuration is not exposed for tracing.',
          },
        ],
        true,
      );
    }
  }
}

/**
 * The tracks bucket as an origin through origin access control, like
 * `S3BucketOrigin.withOriginAccessControl`, but granting the distribution
 * `s3:GetObject` on the track audio and export areas only, not the whole bucket.
 */
class TrackAudioOrigin implements IOrigin {
  private readonly origin: IOrigin;
  private readonly accessControl: S3OriginAccessControl;

  constructor(
    scope: Construct,
    private readonly bucket: IBucket,
  ) {
    this.origin = S3BucketOrigin.withBucketDefaults(bucket);
    this.accessControl = new S3OriginAccessControl(scope, 'TracksAccessControl', {
      description: 'Tunesmith: CloudFront reads track audio',
      signing: Signing.SIGV4_ALWAYS,
    });
  }

  bind(scope: Construct, options: OriginBindOptions): OriginBindConfig {
    const config = this.origin.bind(scope, options);
    this.bucket.addToResourcePolicy(
      new PolicyStatement({
        principals: [new ServicePrincipal('cloudfront.amazonaws.com')],
        actions: ['s3:GetObject'],
        resources: [TRACK_AUDIO_AREA, EXPORTS_AREA].map((area) => this.bucket.arnForObjects(`${area}*`)),
        conditions: {
          StringEquals: {
            'AWS:SourceArn': `arn:${Aws.PARTITION}:cloudfront::${Aws.ACCOUNT_ID}:distribution/${options.distributionId}`,
          },
        },
      }),
    );
    return {
      ...config,
      originProperty: config.originProperty && {
        ...config.originProperty,
        originAccessControlId: this.accessControl.originAccessControlId,
      },
    };
  }
}

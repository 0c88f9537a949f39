import { tableDesign } from '@tunesmith/functions/data/keys';
import { CfnOutput, Stack, type StackProps, Tags } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import { UsageAnalytics } from './analytics';
import { Api, apiOriginOf } from './api';
import { AudioSigning } from './audio-signing';
import { Auth } from './auth';
import { Data } from './data';
import { FailedEvents } from './failed-events';
import { BackgroundJobs } from './jobs';
import { Mail, PLACEHOLDER_MAIL_FROM } from './mail';
import { MailSink } from './mail-sink';
import { Monitoring } from './monitoring';
import { serviceNameOf } from './node-function';
import { ORIGIN_SECRET_ARN, ORIGIN_SECRET_VERSION, OriginSecret } from './origin-secret';
import { webDist } from './paths';
import { Seed } from './seed';
import { SettingsKey } from './settings-key';
import { type StageConfig, stageNamed } from './stages';
import { StripeKeys } from './stripe-keys';
import { type EdgeProtectionStack, WebAclArn } from './waf';
import { COMMUNITY_SHARE_AREAS, SHARE_AREAS, Web } from './web';
import { WebhookDelivery } from './webhooks';
import { GenerationWorkflow } from './workflow';

export interface TunesmithStackProps extends StackProps {
  /**
   * Folder with the built SPA, uploaded to the site bucket when it exists.
   * @default `web/dist` of this repository
   */
  readonly webAssetsPath?: string;
  /**
   * The stage's settings (log retention; its name tags every resource).
   * @default the dev stage
   */
  readonly stage?: { name: string } & StageConfig;
  /** The stack of the web ACL (us-east-1, infra/lib/waf.ts) on the distribution, on a stage with one. */
  readonly webAcl?: EdgeProtectionStack;
}

/** A setting from CDK context (`-c name=value`), else from the environment variable `envName` when given. */
function setting(scope: Construct, contextKey: string, envName?: string): string | undefined {
  const fromContext = scope.node.tryGetContext(contextKey) as unknown;
  if (typeof fromContext === 'string' && fromContext.trim()) return fromContext.trim();
  const fromEnv = envName ? process.env[envName]?.trim() : undefined;
  return fromEnv || undefined;
}

/**
 * Tunesmith on AWS (DESIGN.md): data, auth, API, seed and web. One stack,
 * because every part references the others and none is deployed alone.
 */
export class TunesmithStack extends Stack {
  readonly data: Data;
  readonly auth: Auth;
  readonly mail: Mail;
  readonly stripeKeys: StripeKeys;
  readonly audioSigning: AudioSigning;
  readonly api: Api;
  readonly workflow: GenerationWorkflow;
  readonly web: Web;
  readonly settingsKey: SettingsKey;
  readonly analytics: UsageAnalytics;
  readonly originSecret: OriginSecret;
  readonly failedEvents: FailedEvents;
  readonly jobs: BackgroundJobs;
  readonly webhooks: WebhookDelivery;
  readonly monitoring: Monitoring;
  /** The test mail sink, on a stage that asks for one (`-c mailSinkDomain=...`). */
  readonly mailSink?: MailSink;

  constructor(scope: Construct, id: string, props: TunesmithStackProps = {}) {
    super(scope, id, props);
    const stage = props.stage ?? stageNamed('dev');
    Tags.of(this).add('tunesmith:stage', stage.name);

    this.data = new Data(this, 'Data');
    this.auth = new Auth(this, 'Auth');
    // Sender of account mail: `cdk deploy -c mailFrom="Tunesmith <no-reply@example.com>"` (or MAIL_FROM);
    // `-c mailDomain=example.com` also creates the SES domain identity.
    const mailDomain = setting(this, 'mailDomain');
    // A second stage on the same domain reuses the first one's SES identity: `-c mailIdentity=existing` (decision 012).
    const mailIdentity = setting(this, 'mailIdentity') ?? 'create';
    if (mailIdentity !== 'create' && mailIdentity !== 'existing') {
      throw new Error(`mailIdentity "${mailIdentity}" is not create or existing.`);
    }
    if (mailIdentity === 'existing' && !mailDomain) {
      throw new Error('-c mailIdentity=existing names the identity of -c mailDomain: give the domain too.');
    }
    this.mail = new Mail(this, 'Mail', {
      from: setting(this, 'mailFrom', 'MAIL_FROM') ?? PLACEHOLDER_MAIL_FROM,
      ...(mailDomain ? { domain: mailDomain, domainIdentityExists: mailIdentity === 'existing' } : {}),
      off: setting(this, 'mail') === 'off',
    });
    // Created empty; the operator puts the keys (output StripeSecretArn, docs/deploy.md: Connect Stripe).
    this.stripeKeys = new StripeKeys(this, 'StripeKeys');
    // The keys that sign play and download links; rotation: -c audioSigningKeys=... (docs/deploy.md, decision 008).
    this.audioSigning = new AudioSigning(this, 'AudioSigning');
    // Seals secret site settings (Stripe keys, fal key) before they are stored (decision 006).
    this.settingsKey = new SettingsKey(this, 'SettingsKey');
    const apiOrigin = apiOriginOf(setting(this, 'apiOriginDomain'), setting(this, 'apiOriginCertificateArn'));
    if (stage.apiOriginRequired && !apiOrigin) {
      throw new Error(
        `The ${stage.name} stage turns the API's execute-api endpoint off, so CloudFront needs a domain of the API's own: deploy with -c apiOriginDomain=api-origin.example.com -c apiOriginCertificateArn=arn:aws:acm:<region>:<account>:certificate/<id> (a certificate for it in the stage's region; docs/deploy.md; decision 013).`,
      );
    }
    // What every function that serves users reads: the API's route groups and the jobs function.
    const environment: Record<string, string> = {
      TABLE_NAME: this.data.table.tableName,
      USER_POOL_ID: this.auth.userPool.userPoolId,
      USER_POOL_CLIENT_ID: this.auth.userPoolClient.userPoolClientId,
      ADMIN_POOL_ID: this.auth.adminPool.userPoolId,
      ADMIN_POOL_CLIENT_ID: this.auth.adminPoolClient.userPoolClientId,
      UPLOADS_BUCKET: this.data.uploads.bucketName,
      TRACKS_BUCKET: this.data.tracks.bucketName,
      MAIL_FROM: this.mail.from,
      MAIL_CONFIGURATION_SET: this.mail.configurationSet.configurationSetName,
      SITE_NAME: setting(this, 'siteName', 'SITE_NAME') ?? 'Tunesmith',
      // CloudFront is the one proxy in front of API Gateway; its X-Forwarded-For entry is the viewer.
      TRUSTED_PROXY_HOPS: '1',
    };
    this.api = new Api(this, 'Api', {
      table: this.data.table,
      uploads: this.data.uploads,
      tracks: this.data.tracks,
      userPool: this.auth.userPool,
      adminPool: this.auth.adminPool,
      mail: this.mail,
      stripeKeys: this.stripeKeys,
      audioSigning: this.audioSigning,
      settingsKey: this.settingsKey,
      // The API's own domain for CloudFront, which turns the execute-api endpoint off (decision 013).
      origin: apiOrigin,
      environment,
    });
    new Seed(this, 'Seed', { table: this.data.table });
    this.failedEvents = new FailedEvents(this, 'FailedEvents');
    this.analytics = new UsageAnalytics(this, 'UsageAnalytics', {
      table: this.data.table,
      failedEvents: this.failedEvents.queue,
    });

    // The origin lock: only calls through CloudFront (and the signed webhooks) reach the handlers. Its version
    // (`npm run deploy` passes the current one) makes a deploy after a rotation update the distribution.
    const originSecretVersion = setting(this, ORIGIN_SECRET_VERSION);
    this.originSecret = new OriginSecret(this, 'OriginLock', {
      ...(originSecretVersion ? { version: originSecretVersion } : {}),
    });
    this.api.addEnvironment(ORIGIN_SECRET_ARN, this.originSecret.secret.secretArn);
    for (const fn of Object.values(this.api.functions)) this.originSecret.grantCheck(fn);

    this.web = new Web(this, 'Web', {
      apiDomain: this.api.originHost,
      originVerify: this.originSecret.headerValue,
      uploadsOrigin: this.data.uploadsOrigin,
      audio: { bucket: this.data.tracks, keyGroup: this.audioSigning.keyGroup },
      logsBucket: this.data.accessLogs,
      priceClass: stage.priceClass,
      ...(props.webAcl ? { webAclArn: new WebAclArn(this, 'WebAclArn', props.webAcl).value } : {}),
      assetsPath: props.webAssetsPath ?? webDist,
    });
    // Known only once the distribution exists; the distribution depends on the API resource, not on the
    // functions, so the functions may depend on it without a cycle.
    this.api.addEnvironment('PUBLIC_ORIGIN', this.web.url);
    // Share pages (decision 024): the library's and the admin area's track changes keep them in line.
    // The community's playlists and profiles have documents of their own (decisions 058, 059): their
    // owners change them, and the admin area (a hidden profile, a deleted user) withdraws them.
    this.web.grantSharePages(this.api.functions.generation);
    this.web.grantSharePages(this.api.functions.admin, SHARE_AREAS);
    this.web.grantSharePages(this.api.functions.community, COMMUNITY_SHARE_AREAS);
    this.data.allowBrowserUploadsFrom(this.web.url);

    // The webhook URL names the distribution, which names the API resource only, not its routes or
    // functions, so the generation function may depend on the state machine (STATE_MACHINE_ARN) without a cycle.
    this.workflow = new GenerationWorkflow(this, 'Workflow', {
      table: this.data.table,
      uploads: this.data.uploads,
      tracks: this.data.tracks,
      // fal posts through CloudFront like Stripe, so its webhook passes the WAF and the route throttles.
      webhookBaseUrl: this.web.url,
      settingsKey: this.settingsKey,
      logRetention: stage.logRetention,
      failedEvents: this.failedEvents.queue,
    });
    this.api.connectWorkflow(this.workflow);
    // A public track's share page is written when it completes.
    this.web.grantSharePages(this.workflow.functions.FinishFunctionArn);

    // Export everything and delete my account run here, started by the API (decision 021).
    this.jobs = new BackgroundJobs(this, 'Jobs', {
      table: this.data.table,
      tracks: this.data.tracks,
      audioSigning: this.audioSigning,
      mail: this.mail,
      failedEvents: this.failedEvents.queue,
      // Links in job mail name the site, as account mail does.
      environment: { ...environment, PUBLIC_ORIGIN: this.web.url },
      logRetention: stage.logRetention,
    });
    this.api.connectJobs(this.jobs);
    // The account cascade removes share pages, and a new index.html (a deploy) rewrites every one.
    this.web.grantSharePages(this.jobs.handler, SHARE_AREAS);
    this.web.rewriteSharePagesOnDeploy(this.jobs.handler);
    // The pricing page's document shows the plans without scripts (decision 038): the admin area changes
    // the plans and brings it in line; after a deploy the jobs function fills in the new document.
    this.web.grantPricingPage(this.api.functions.admin);
    this.web.grantPricingPage(this.jobs.handler);
    this.web.fillPricingPageOnDeploy(this.jobs.handler);
    this.jobs.allowAccountDeletion({
      uploads: this.data.uploads,
      tracks: this.data.tracks,
      userPool: this.auth.userPool,
      stripeKeys: this.stripeKeys,
      settingsKey: this.settingsKey,
    });

    // Webhooks for developers (decision 053): the workflow raises a track's events and starts their delivery.
    this.webhooks = new WebhookDelivery(this, 'Webhooks', {
      table: this.data.table,
      environment: { TABLE_NAME: this.data.table.tableName, PUBLIC_ORIGIN: this.web.url },
      logRetention: stage.logRetention,
    });
    for (const fn of [
      this.workflow.functions.FinishFunctionArn,
      this.workflow.functions.StemsFunctionArn,
      this.workflow.functions.FailFunctionArn,
      this.workflow.executionEnded,
    ])
      this.webhooks.allowStart(fn);

    const alarmEmail = setting(this, 'alarmEmail');
    this.monitoring = new Monitoring(this, 'Monitoring', {
      api: this.api.httpApi,
      functions: {
        ...Object.fromEntries(Object.entries(this.api.functions).map(([group, fn]) => [`Api-${group}`, fn])),
        ...Object.fromEntries(
          Object.entries(this.workflow.functions).map(([name, fn]) => [
            `Workflow-${name.replace('FunctionArn', '')}`,
            fn,
          ]),
        ),
        'Workflow-ExecutionEnded': this.workflow.executionEnded,
        Analytics: this.analytics.handler,
        Jobs: this.jobs.handler,
        Webhooks: this.webhooks.handler,
      },
      stateMachine: this.workflow.stateMachine,
      table: this.data.table,
      tableIndexes: Object.values(tableDesign.indexes).map((index) => index.indexName),
      deadLetters: this.failedEvents.queue,
      webhookDeadLetters: this.webhooks.deadLetters,
      serviceName: serviceNameOf(this),
      // `-c alarmEmail=ops@example.com` mails every alarm there, once the address confirms.
      ...(alarmEmail ? { alarmEmail } : {}),
    });

    // The integration suite against this stage reads the mail it sends from here (docs/testing.md: the suite against a deployed stage).
    if (stage.mailSink) {
      this.mailSink = new MailSink(this, 'MailSink', {
        domain: stage.mailSink.domain,
        accessLogs: this.data.accessLogs,
        createIdentity: mailDomain?.toLowerCase() !== stage.mailSink.domain,
      });
    }

    const outputs: Record<string, [string, string]> = {
      SiteUrl: [this.web.url, 'The site (SPA and /api on one origin)'],
      TableName: [this.data.table.tableName, 'DynamoDB single table'],
      UserPoolId: [this.auth.userPool.userPoolId, 'Cognito user pool'],
      UserPoolClientId: [this.auth.userPoolClient.userPoolClientId, 'Cognito user pool app client'],
      AdminPoolId: [this.auth.adminPool.userPoolId, 'Cognito admin pool (npm run admin:create)'],
      AdminPoolClientId: [this.auth.adminPoolClient.userPoolClientId, 'Cognito admin pool app client'],
      UploadsBucketName: [this.data.uploads.bucketName, 'Bucket for uploaded audio'],
      TracksBucketName: [this.data.tracks.bucketName, 'Bucket for generated tracks'],
      SiteBucketName: [
        this.web.bucket.bucketName,
        'Bucket of the site: the SPA and the share pages (share/track/)',
      ],
      ShareKeysArn: [
        this.web.shareKeys.keyValueStoreArn,
        'CloudFront KeyValueStore of the tracks that have a share page (npm run backfill -- share-pages)',
      ],
      GenerationStateMachineArn: [this.workflow.stateMachine.stateMachineArn, 'The generation workflow'],
      SettingsKeyArn: [this.settingsKey.key.keyArn, 'KMS key that seals secret site settings'],
      OriginSecretArn: [
        this.originSecret.secret.secretArn,
        'Secrets Manager secret CloudFront sends to the API as x-origin-verify (rotation: decision 035)',
      ],
      StripeSecretArn: [
        this.stripeKeys.secret.secretArn,
        'Secrets Manager secret for the Stripe keys (put-secret-value; docs/deploy.md, Connect Stripe)',
      ],
      ContentCredentialsSecretArn: [
        this.workflow.contentCredentials.secretArn,
        "Secrets Manager secret of the WAV downloads' content credentials (C2PA), made on first use (npm run backfill -- files)",
      ],
    };
    if (this.api.originDomain) {
      outputs.ApiOriginDnsTarget = [
        this.api.originDomain.regionalDomainName,
        `Point a CNAME for ${this.api.originHost} here (the API's own domain, which only CloudFront calls)`,
      ];
    }
    for (const [id, [value, description]] of Object.entries(outputs)) {
      new CfnOutput(this, id, { value, description });
    }
  }
}

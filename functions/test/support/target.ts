/**
 * What the integration suite runs against, decided once from what the global
 * setup provides: the local cloud it started, or a deployed stage named by
 * TUNESMITH_API_URL (with the stack's outputs in the environment, see
 * `scripts/stack-outputs.ts`). Free of the test runner, so it is unit-tested.
 */
import { cookieJar } from '../../src/http/cookies';

/** What a stage run cannot do without; the outputs script names the stack output each comes from. */
export const requiredStageEnv = [
  'AWS_REGION',
  'TABLE_NAME',
  'USER_POOL_ID',
  'USER_POOL_CLIENT_ID',
  'ADMIN_POOL_ID',
  'ADMIN_POOL_CLIENT_ID',
  'UPLOADS_BUCKET',
  'TRACKS_BUCKET',
  'SETTINGS_KMS_KEY_ID',
  'MAIL_SINK_BUCKET',
  'MAIL_SINK_PREFIX',
  'MAIL_SINK_DOMAIN',
] as const;

/**
 * The environment a stage run takes from the caller (the outputs script
 * writes these); nothing else is passed on, so no local endpoint or fake key
 * can leak into a stage run. AWS credentials are never among them: every
 * client uses the default credential chain.
 */
export const stageEnvNames = [
  'TUNESMITH_API_URL',
  ...requiredStageEnv,
  'STRIPE_SECRET_ARN',
  'STATE_MACHINE_ARN',
  // Optional: the stage's Stripe webhook signing secret, for the tests that sign events as Stripe.
  'STRIPE_WEBHOOK_SECRET',
  // Optional: `1` lets generation tests call the stage's real music provider (fal), which costs money.
  'TUNESMITH_ALLOW_FAL_COST',
  // Filled in by the global setup: this machine's address as the stage sees it.
  'TEST_CLIENT_ADDRESS',
] as const;

/** The flag that lets a stage run pay for real generations. */
export const ALLOW_FAL_COST = 'TUNESMITH_ALLOW_FAL_COST';

/** The environment of a stage run: the names above from `env`, and the first required one missing, if any. */
export function stageEnvFrom(env: Record<string, string | undefined>): {
  env: Record<string, string>;
  missing: string[];
} {
  const picked: Record<string, string> = {};
  for (const name of stageEnvNames) {
    const value = env[name]?.trim();
    if (value) picked[name] = value;
  }
  return { env: picked, missing: requiredStageEnv.filter((name) => !picked[name]) };
}

export type MailSource =
  | { kind: 'local-ses'; endpoint: string }
  | { kind: 'sink'; bucket: string; prefix: string };

export interface Target {
  kind: 'local' | 'stage';
  apiUrl: string;
  region: string;
  /** A cookie's name as the API sets it on this origin: `__Host-` over https (functions/src/http/cookies.ts). */
  cookie(base: string): string;
  /** Each browser connects from a loopback address of its own (the local cloud only: all of 127/8 is this machine). */
  ownAddressPerBrowser: boolean;
  /** Where the mail the API sends can be read. */
  mail: MailSource;
  /** The domain of the suite's test mailboxes. */
  mailDomain: string;
  /** Whether generations may reach a music provider that costs money (a stage's fal, with the flag). */
  allowsPaidGeneration: boolean;
}

/** The target of a run, from the global setup's `apiUrl`, `cloudEnv` and `isLocal`. */
export function targetOf(apiUrl: string, env: Record<string, string>, isLocal: boolean): Target {
  const jar = cookieJar(apiUrl);
  const region = env.AWS_REGION || 'us-east-1';
  if (isLocal) {
    return {
      kind: 'local',
      apiUrl,
      region,
      cookie: jar.name,
      ownAddressPerBrowser: /^http:\/\/127\.0\.0\.1[:/]/.test(apiUrl),
      mail: { kind: 'local-ses', endpoint: env.SES_ENDPOINT ?? '' },
      mailDomain: 'example.com',
      // The embedded provider costs nothing.
      allowsPaidGeneration: true,
    };
  }
  return {
    kind: 'stage',
    apiUrl,
    region,
    cookie: jar.name,
    ownAddressPerBrowser: false,
    mail: { kind: 'sink', bucket: env.MAIL_SINK_BUCKET ?? '', prefix: env.MAIL_SINK_PREFIX ?? '' },
    mailDomain: env.MAIL_SINK_DOMAIN ?? '',
    allowsPaidGeneration: env[ALLOW_FAL_COST] === '1',
  };
}

export type AwsService = 'dynamodb' | 's3' | 'cognito';

/**
 * How to build an AWS SDK client for `service`: locally the emulator's
 * endpoint and its dummy keys; on a stage the region alone, so the SDK takes
 * credentials from the default chain (profile, SSO, environment, role).
 */
export function awsClientConfig(
  target: Pick<Target, 'kind' | 'region'>,
  env: Record<string, string>,
  service: AwsService,
): {
  region: string;
  endpoint?: string;
  forcePathStyle?: boolean;
  credentials?: { accessKeyId: string; secretAccessKey: string };
} {
  if (target.kind === 'stage') return { region: target.region };
  const endpoint = { dynamodb: env.DYNAMODB_ENDPOINT, s3: env.S3_ENDPOINT, cognito: env.COGNITO_ENDPOINT }[
    service
  ];
  return {
    region: target.region,
    ...(endpoint ? { endpoint } : {}),
    ...(service === 's3' && env.S3_FORCE_PATH_STYLE === 'true' ? { forcePathStyle: true } : {}),
    ...(env.AWS_ACCESS_KEY_ID && env.AWS_SECRET_ACCESS_KEY
      ? { credentials: { accessKeyId: env.AWS_ACCESS_KEY_ID, secretAccessKey: env.AWS_SECRET_ACCESS_KEY } }
      : {}),
  };
}

/** The issuer of a user pool's tokens: the local Cognito's endpoint, or Cognito's own in the region. */
export function poolIssuer(
  target: Pick<Target, 'kind' | 'region'>,
  env: Record<string, string>,
  poolId: string,
) {
  const base =
    target.kind === 'local' && env.COGNITO_ENDPOINT
      ? env.COGNITO_ENDPOINT
      : `https://cognito-idp.${target.region}.amazonaws.com`;
  return `${base}/${poolId}`;
}

import { describe, expect, it } from 'vitest';
import { awsClientConfig, poolIssuer, stageEnvFrom, targetOf } from './target';

// Choosing what the integration suite talks to: the local cloud the global
// setup started, or the deployed stage named by TUNESMITH_API_URL.

const localEnv = {
  AWS_REGION: 'us-east-1',
  AWS_ACCESS_KEY_ID: 'local',
  AWS_SECRET_ACCESS_KEY: 'local',
  DYNAMODB_ENDPOINT: 'http://127.0.0.1:8000',
  S3_ENDPOINT: 'http://127.0.0.1:4569',
  S3_FORCE_PATH_STYLE: 'true',
  COGNITO_ENDPOINT: 'http://127.0.0.1:9229',
  SES_ENDPOINT: 'http://127.0.0.1:8005',
};

const stageEnv = {
  AWS_REGION: 'eu-west-1',
  TABLE_NAME: 'Tunesmith-dev-DataTable-1',
  MAIL_SINK_BUCKET: 'sink',
  MAIL_SINK_PREFIX: 'inbox/',
  MAIL_SINK_DOMAIN: 'inbox.example.org',
};

describe('targetOf', () => {
  it('against the local cloud: plain cookie names, the SES store, a loopback address per browser', () => {
    const local = targetOf('http://127.0.0.1:41234', localEnv, true);

    expect(local.kind).toBe('local');
    expect(local.cookie('ts_session')).toBe('ts_session');
    expect(local.ownAddressPerBrowser).toBe(true);
    expect(local.mail).toEqual({ kind: 'local-ses', endpoint: 'http://127.0.0.1:8005' });
    expect(local.mailDomain).toBe('example.com');
    expect(local.allowsPaidGeneration).toBe(true);
  });

  it('against a stage over https: __Host- cookies, the mail sink, one address, fal only with the flag', () => {
    const stage = targetOf('https://d111111abcdef8.cloudfront.net', stageEnv, false);

    expect(stage.kind).toBe('stage');
    expect(stage.cookie('ts_session')).toBe('__Host-ts_session');
    expect(stage.cookie('ts_admin_refresh')).toBe('__Host-ts_admin_refresh');
    expect(stage.ownAddressPerBrowser).toBe(false);
    expect(stage.mail).toEqual({ kind: 'sink', bucket: 'sink', prefix: 'inbox/' });
    expect(stage.mailDomain).toBe('inbox.example.org');
    expect(stage.allowsPaidGeneration).toBe(false);
    expect(
      targetOf('https://d111111abcdef8.cloudfront.net', { ...stageEnv, TUNESMITH_ALLOW_FAL_COST: '1' }, false)
        .allowsPaidGeneration,
    ).toBe(true);
    expect(
      targetOf('https://d111111abcdef8.cloudfront.net', { ...stageEnv, TUNESMITH_ALLOW_FAL_COST: '0' }, false)
        .allowsPaidGeneration,
    ).toBe(false);
  });
});

describe('awsClientConfig', () => {
  it('locally: the emulator endpoints and their keys', () => {
    const local = targetOf('http://127.0.0.1:41234', localEnv, true);
    const credentials = { accessKeyId: 'local', secretAccessKey: 'local' };
    expect(awsClientConfig(local, localEnv, 'dynamodb')).toEqual({
      region: 'us-east-1',
      endpoint: 'http://127.0.0.1:8000',
      credentials,
    });
    expect(awsClientConfig(local, localEnv, 's3')).toEqual({
      region: 'us-east-1',
      endpoint: 'http://127.0.0.1:4569',
      forcePathStyle: true,
      credentials,
    });
    expect(awsClientConfig(local, localEnv, 'cognito').endpoint).toBe('http://127.0.0.1:9229');
  });

  it('on a stage: the region alone, so the SDK takes the default credential chain', () => {
    const stage = targetOf('https://d111111abcdef8.cloudfront.net', stageEnv, false);
    // Even if the environment had endpoints or keys in it, a stage run uses none.
    const env = {
      ...stageEnv,
      DYNAMODB_ENDPOINT: 'http://127.0.0.1:8000',
      AWS_ACCESS_KEY_ID: 'x',
      AWS_SECRET_ACCESS_KEY: 'y',
    };
    for (const service of ['dynamodb', 's3', 'cognito'] as const) {
      expect(awsClientConfig(stage, env, service)).toEqual({ region: 'eu-west-1' });
    }
  });

  it('names the pool issuer Cognito uses: the local endpoint, or the region’s', () => {
    expect(poolIssuer({ kind: 'local', region: 'us-east-1' }, localEnv, 'pool')).toBe(
      'http://127.0.0.1:9229/pool',
    );
    expect(poolIssuer({ kind: 'stage', region: 'eu-west-1' }, stageEnv, 'eu-west-1_x')).toBe(
      'https://cognito-idp.eu-west-1.amazonaws.com/eu-west-1_x',
    );
  });
});

describe('stageEnvFrom', () => {
  it('takes only the names a stage run uses, never credentials or endpoints, and says what is missing', () => {
    const { env, missing } = stageEnvFrom({
      ...stageEnv,
      TUNESMITH_API_URL: 'https://d111111abcdef8.cloudfront.net',
      AWS_ACCESS_KEY_ID: 'AKIA...',
      AWS_SECRET_ACCESS_KEY: 'secret',
      AWS_SESSION_TOKEN: 'token',
      DYNAMODB_ENDPOINT: 'http://127.0.0.1:8000',
      PATH: '/bin',
    });
    expect(env).toEqual({ ...stageEnv, TUNESMITH_API_URL: 'https://d111111abcdef8.cloudfront.net' });
    expect(missing).toEqual([
      'USER_POOL_ID',
      'USER_POOL_CLIENT_ID',
      'ADMIN_POOL_ID',
      'ADMIN_POOL_CLIENT_ID',
      'UPLOADS_BUCKET',
      'TRACKS_BUCKET',
      'SETTINGS_KMS_KEY_ID',
    ]);
  });
});

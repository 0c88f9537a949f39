import type { DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { describe, expect, it } from 'vitest';
import { formatEnv, readStageEnv, StageError, stackNameOf, stageEnvOf } from './stack-outputs';
import { stageRun } from './test-stage';

// From a deployed stack's outputs to the environment the integration suite
// runs with against that stage, and the vitest run that gets it.

const stackId =
  'arn:aws:cloudformation:eu-west-1:123456789012:stack/Tunesmith-dev/0a1b2c3d-aaaa-bbbb-cccc-123456789012';

const outputs = {
  SiteUrl: 'https://d111111abcdef8.cloudfront.net/',
  ApiUrl: 'https://abc123.execute-api.eu-west-1.amazonaws.com/',
  TableName: 'Tunesmith-dev-DataTable-1',
  UserPoolId: 'eu-west-1_users',
  UserPoolClientId: 'userclient',
  AdminPoolId: 'eu-west-1_admins',
  AdminPoolClientId: 'adminclient',
  UploadsBucketName: 'tunesmith-dev-uploads-0a1b2c3d-eu-west-1',
  TracksBucketName: 'tunesmith-dev-tracks-1',
  SettingsKeyArn: 'arn:aws:kms:eu-west-1:123456789012:key/1234',
  StripeSecretArn: 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:stripe',
  GenerationStateMachineArn: 'arn:aws:states:eu-west-1:123456789012:stateMachine:gen',
  AlarmTopicArn: 'arn:aws:sns:eu-west-1:123456789012:alarms',
  MailSinkBucketName: 'tunesmith-dev-mailsink-1',
  MailSinkPrefix: 'inbox/',
  MailSinkDomain: 'inbox.example.org',
  MailSinkRuleSetName: 'Tunesmith-dev-mail-sink',
};

const stack = (values: Record<string, string> = outputs) => ({
  StackName: 'Tunesmith-dev',
  StackId: stackId,
  Outputs: Object.entries(values).map(([OutputKey, OutputValue]) => ({ OutputKey, OutputValue })),
});

describe('stageEnvOf', () => {
  it('maps every output the suite uses to its variable, the site URL without a trailing slash', () => {
    expect(stageEnvOf(stack())).toEqual({
      AWS_REGION: 'eu-west-1',
      TUNESMITH_API_URL: 'https://d111111abcdef8.cloudfront.net',
      TABLE_NAME: 'Tunesmith-dev-DataTable-1',
      USER_POOL_ID: 'eu-west-1_users',
      USER_POOL_CLIENT_ID: 'userclient',
      ADMIN_POOL_ID: 'eu-west-1_admins',
      ADMIN_POOL_CLIENT_ID: 'adminclient',
      UPLOADS_BUCKET: 'tunesmith-dev-uploads-0a1b2c3d-eu-west-1',
      TRACKS_BUCKET: 'tunesmith-dev-tracks-1',
      SETTINGS_KMS_KEY_ID: 'arn:aws:kms:eu-west-1:123456789012:key/1234',
      STRIPE_SECRET_ARN: 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:stripe',
      STATE_MACHINE_ARN: 'arn:aws:states:eu-west-1:123456789012:stateMachine:gen',
      MAIL_SINK_BUCKET: 'tunesmith-dev-mailsink-1',
      MAIL_SINK_PREFIX: 'inbox/',
      MAIL_SINK_DOMAIN: 'inbox.example.org',
    });
  });

  it('goes to the site through CloudFront, never to the execute-api endpoint, and carries no credentials', () => {
    const env = stageEnvOf(stack());
    expect(Object.values(env)).not.toContain(outputs.ApiUrl);
    expect(Object.keys(env).filter((name) => /KEY_ID$|SECRET|TOKEN|ENDPOINT/.test(name))).toEqual([
      'SETTINGS_KMS_KEY_ID',
      'STRIPE_SECRET_ARN',
    ]);
  });

  it('tells a stage without a mail sink how to get one', () => {
    const { MailSinkBucketName: _b, MailSinkPrefix: _p, MailSinkDomain: _d, ...withoutSink } = outputs;
    expect(() => stageEnvOf(stack(withoutSink))).toThrow(StageError);
    expect(() => stageEnvOf(stack(withoutSink))).toThrow(/-c mailSinkDomain=/);
  });

  it('names the outputs an older stack lacks', () => {
    const { SettingsKeyArn: _k, SiteUrl: _s, ...older } = outputs;
    expect(() => stageEnvOf(stack(older))).toThrow(/lacks SiteUrl, SettingsKeyArn/);
  });
});

describe('readStageEnv', () => {
  it('describes the named stack and maps it', async () => {
    const asked: string[] = [];
    const client = {
      send: async (command: DescribeStacksCommand) => {
        asked.push(command.input.StackName as string);
        return { Stacks: [stack()] };
      },
    } as never;
    expect((await readStageEnv('Tunesmith-dev', client)).TABLE_NAME).toBe('Tunesmith-dev-DataTable-1');
    expect(asked).toEqual(['Tunesmith-dev']);
  });

  it('says when the stack is not there', async () => {
    const client = {
      send: async () => {
        throw Object.assign(new Error('Stack with id Tunesmith-dev does not exist'), {
          name: 'ValidationError',
        });
      },
    } as never;
    await expect(readStageEnv('Tunesmith-dev', client)).rejects.toThrow(/No stack Tunesmith-dev/);
  });
});

describe('stackNameOf and formatEnv', () => {
  it('names the stage stacks as the CDK app does', () => {
    expect(stackNameOf('dev')).toBe('Tunesmith-dev');
    expect(stackNameOf('prod')).toBe('Tunesmith-prod');
    expect(() => stackNameOf('qa')).toThrow(/Unknown stage "qa"/);
  });

  it('prints shell exports quoted for eval, .env lines and JSON', () => {
    const env = { A: "it's", B: 'x y' };
    expect(formatEnv(env, 'shell')).toBe(`export A='it'\\''s'\nexport B='x y'\n`);
    expect(formatEnv(env, 'dotenv')).toBe('A="it\'s"\nB="x y"\n');
    expect(JSON.parse(formatEnv(env, 'json'))).toEqual(env);
  });
});

describe('stageRun', () => {
  const stageEnv = stageEnvOf(stack());

  it('runs the functions integration tests with the outputs, and no fal cost unless allowed', () => {
    const run = stageRun(stageEnv, {
      allowFalCost: false,
      extra: [],
      env: { PATH: '/bin', AWS_PROFILE: 'dev' },
    });
    expect(run.args).toEqual(['run', '--project', 'integration', 'functions/test']);
    expect(run.env).toMatchObject({
      PATH: '/bin',
      AWS_PROFILE: 'dev',
      TUNESMITH_API_URL: 'https://d111111abcdef8.cloudfront.net',
      MAIL_SINK_BUCKET: 'tunesmith-dev-mailsink-1',
      TUNESMITH_ALLOW_FAL_COST: '0',
    });
    expect(stageRun(stageEnv, { allowFalCost: true, extra: [], env: {} }).env.TUNESMITH_ALLOW_FAL_COST).toBe(
      '1',
    );
    expect(
      stageRun(stageEnv, { allowFalCost: false, extra: [], env: { TUNESMITH_ALLOW_FAL_COST: '1' } }).env
        .TUNESMITH_ALLOW_FAL_COST,
    ).toBe('1');
  });

  it('lets a path narrow the files and passes vitest options on', () => {
    expect(stageRun(stageEnv, { allowFalCost: false, extra: ['functions/test/auth'], env: {} }).args).toEqual(
      ['run', '--project', 'integration', 'functions/test/auth'],
    );
    expect(stageRun(stageEnv, { allowFalCost: false, extra: ['-t', 'reset'], env: {} }).args).toEqual([
      'run',
      '--project',
      'integration',
      'functions/test',
      '-t',
      'reset',
    ]);
  });
});

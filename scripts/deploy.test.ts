import { describe, expect, it } from 'vitest';
import { cdkDeployArgs, contextOf, currentOriginSecretVersion } from './deploy';

// `npm run deploy`: the stage its arguments name, and the origin secret's version it hands to cdk (decision 035).

const arn = 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:OriginLockSecret-AbCd';
const current = '3f1c2b4a-5d6e-4f70-8a9b-0c1d2e3f4a5b';
const previous = 'a0b1c2d3-e4f5-4a6b-8c7d-9e0f1a2b3c4d';

describe('contextOf', () => {
  it('reads every way the CDK CLI takes context', () => {
    expect(
      contextOf(['-c', 'stage=prod', '--context', 'mailFrom=Tunesmith <a@b.c>', '--context=waf=on', '--all']),
    ).toEqual({ stage: 'prod', mailFrom: 'Tunesmith <a@b.c>', waf: 'on' });
    expect(contextOf(['--require-approval', 'never'])).toEqual({});
  });
});

describe('cdkDeployArgs', () => {
  it("deploys every stack with the caller's arguments and the current version of the origin secret", () => {
    expect(cdkDeployArgs(['-c', 'stage=prod'], current)).toEqual([
      'deploy',
      '--all',
      '-c',
      'stage=prod',
      '-c',
      `originSecretVersion=${current}`,
    ]);
  });

  it('keeps a version the caller named, and adds none before the first deploy', () => {
    expect(cdkDeployArgs(['-c', `originSecretVersion=${previous}`], current)).toEqual([
      'deploy',
      '--all',
      '-c',
      `originSecretVersion=${previous}`,
    ]);
    expect(cdkDeployArgs(['-c', 'stage=dev'], undefined)).toEqual(['deploy', '--all', '-c', 'stage=dev']);
  });
});

describe('currentOriginSecretVersion', () => {
  const clients = (outputs: { OutputKey: string; OutputValue: string }[] | 'no stack') => ({
    cloudFormation: {
      send: async () => {
        if (outputs === 'no stack')
          throw Object.assign(new Error('Stack with id Tunesmith-dev does not exist'), {
            name: 'ValidationError',
          });
        return { Stacks: [{ StackName: 'Tunesmith-dev', Outputs: outputs }] };
      },
    },
    secretsManager: {
      send: async (command: { input: { SecretId: string } }) => {
        expect(command.input.SecretId).toBe(arn);
        // After a put: the new version is current, the one CloudFront may still send is previous.
        return { VersionIdsToStages: { [previous]: ['AWSPREVIOUS'], [current]: ['AWSCURRENT'] } };
      },
    },
  });

  it('is the id of the version staged AWSCURRENT', async () => {
    const found = await currentOriginSecretVersion(
      'Tunesmith-dev',
      clients([{ OutputKey: 'OriginSecretArn', OutputValue: arn }]) as never,
    );
    expect(found).toBe(current);
  });

  it('is none before the first deploy, or for a stack from before the output', async () => {
    expect(await currentOriginSecretVersion('Tunesmith-dev', clients('no stack') as never)).toBeUndefined();
    expect(
      await currentOriginSecretVersion(
        'Tunesmith-dev',
        clients([{ OutputKey: 'SiteUrl', OutputValue: 'https://d1.cloudfront.net' }]) as never,
      ),
    ).toBeUndefined();
  });
});

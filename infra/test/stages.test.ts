import { Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { buildApp, ensureWebBuild } from '../lib/app';
import { stageContext, TEST_SENDER, tempDir } from './helpers';

// Two stages in one account: names derive from the stage's stack, nothing
// globally fixed, and a stack made again after a destroy does not collide
// with the bucket its predecessor retained.

const stageStack = (stage?: string) =>
  buildApp({
    bundle: false,
    outdir: tempDir('tunesmith-stage-'),
    webAssetsPath: '/nonexistent',
    context: { mailFrom: TEST_SENDER, ...stageContext(stage) },
  }).stack;

describe('stages', () => {
  it('name the stack after the stage, dev by default, and tag every resource with it', () => {
    expect(stageStack().stackName).toBe('Tunesmith-dev');
    const prod = stageStack('prod');
    expect(prod.stackName).toBe('Tunesmith-prod');
    const table = Object.values(Template.fromStack(prod).findResources('AWS::DynamoDB::Table'))[0];
    expect(table?.Properties.Tags).toEqual(
      expect.arrayContaining([{ Key: 'tunesmith:stage', Value: 'prod' }]),
    );
  });

  it('keep the uploads bucket name apart per stage and per stack instance', () => {
    const names = ['dev', 'prod'].map((stage) => {
      const buckets = Template.fromStack(stageStack(stage)).findResources('AWS::S3::Bucket');
      const named = Object.values(buckets).filter((b) => b.Properties?.BucketName !== undefined);
      expect(named).toHaveLength(1);
      return JSON.stringify(named[0]?.Properties.BucketName);
    });
    expect(names[0]).not.toBe(names[1]);
    for (const name of names) {
      expect(name).toMatch(/"tunesmith-(dev|prod)-uploads-"/);
      // The stack's own id is part of it, so a new stack after a destroy gets a new name.
      expect(name).toContain('AWS::StackId');
      expect(name).not.toContain('AWS::AccountId');
    }
  });

  it("keep the workflow's logs as long as the stage says", () => {
    const retention = (stage: string) =>
      Object.values(Template.fromStack(stageStack(stage)).findResources('AWS::Logs::LogGroup'))
        .filter((group) => JSON.stringify(group.Properties.LogGroupName ?? '').includes('vendedlogs'))
        .map((group) => group.Properties.RetentionInDays as number);
    expect(retention('dev')).toEqual([14]);
    expect(retention('prod')).toEqual([90]);
  });

  it('serve dev from the cheapest edge locations and prod from every one', () => {
    const priceClass = (stage: string) =>
      Object.values(Template.fromStack(stageStack(stage)).findResources('AWS::CloudFront::Distribution')).map(
        (distribution) => (distribution.Properties.DistributionConfig as { PriceClass: string }).PriceClass,
      );
    expect(priceClass('dev')).toEqual(['PriceClass_100']);
    expect(priceClass('prod')).toEqual(['PriceClass_All']);
  });

  it("turn the execute-api endpoint off on prod, which does not synthesise without a domain of the API's own", () => {
    const api = (stage: string) =>
      Object.values(Template.fromStack(stageStack(stage)).findResources('AWS::ApiGatewayV2::Api')).map(
        (resource) => resource.Properties.DisableExecuteApiEndpoint,
      );
    expect(api('prod')).toEqual([true]);
    // Dev may keep it on (the origin lock guards it) until it is given a domain.
    expect(api('dev')).toEqual([undefined]);
    expect(() =>
      buildApp({
        bundle: false,
        outdir: tempDir('tunesmith-stage-'),
        webAssetsPath: '/nonexistent',
        context: { mailFrom: TEST_SENDER, stage: 'prod' },
      }),
    ).toThrow(/prod stage turns the API's execute-api endpoint off.*-c apiOriginDomain=/);
  });

  it('refuse a stage they do not know', () => {
    expect(() => stageStack('staging')).toThrow(/Unknown stage "staging": use -c stage=dev\|prod/);
  });
});

describe('the web build for a deploy', () => {
  it('is made when missing and left alone when present', async () => {
    const { mkdirSync, writeFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const dir = join(tempDir('tunesmith-dist-'), 'dist');
    let builds = 0;
    const build = () => {
      builds++;
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, 'index.html'), '<!doctype html>');
    };
    expect(ensureWebBuild(dir, build)).toBe('built');
    expect(ensureWebBuild(dir, build)).toBe('present');
    expect(builds).toBe(1);
    expect(() => ensureWebBuild(join(dir, 'nothing'), () => {})).toThrow(/did not produce/);
  });
});

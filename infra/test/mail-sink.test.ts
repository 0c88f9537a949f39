import { describe, expect, it } from 'vitest';
import { outputVariables } from '../../scripts/stack-outputs';
import { MAIL_SINK_PREFIX, MAIL_SINK_RULE_NAME } from '../lib/mail-sink';
import { stageNamed } from '../lib/stages';
import { flatten, propsOf, type Resource, synthBeforeAll } from './helpers';

// The test mail sink for the suite against a deployed stage: only when the
// stage asks for one, SES receiving for the test domain into a private bucket
// that only this account's rule may write to.

const ofType = (resources: Record<string, Resource>, type: string) =>
  Object.entries(resources).filter(([, r]) => r.Type === type);

describe('the stage config', () => {
  it('takes a sink domain on dev, lower-cased, and none unless asked', () => {
    expect(stageNamed('dev').mailSink).toBeUndefined();
    expect(stageNamed('dev', { mailSinkDomain: ' Test.Example.ORG ' }).mailSink).toEqual({
      domain: 'test.example.org',
    });
    expect(stageNamed('dev', { mailSinkDomain: '' }).mailSink).toBeUndefined();
  });

  it('refuses a sink on prod, and a domain that is no domain', () => {
    expect(() => stageNamed('prod', { mailSinkDomain: 'test.example.org' })).toThrow(
      /prod stage takes no test mail sink/,
    );
    expect(stageNamed('prod').mailSink).toBeUndefined();
    expect(() => stageNamed('dev', { mailSinkDomain: 'not a domain' })).toThrow(/is not a domain name/);
  });
});

describe('without a sink domain', () => {
  const synthesized = synthBeforeAll();
  const { resources } = synthesized;

  it('deploys no receipt rules, no sink bucket and no sink outputs', () => {
    expect(ofType(resources, 'AWS::SES::ReceiptRuleSet')).toEqual([]);
    expect(ofType(resources, 'AWS::SES::ReceiptRule')).toEqual([]);
    const outputs = Object.keys(synthesized.template.toJSON().Outputs ?? {});
    expect(outputs.filter((name) => name.startsWith('MailSink'))).toEqual([]);
  });

  it('outputs the settings key, which the suite needs to open sealed settings', () => {
    expect(Object.keys(synthesized.template.toJSON().Outputs ?? {})).toContain('SettingsKeyArn');
  });
});

describe('with -c mailSinkDomain', () => {
  const synthesized = synthBeforeAll({ context: { mailSinkDomain: 'inbox.example.org' } });
  const { resources } = synthesized;

  const sinkBucketId = () => {
    const rule = propsOf(ofType(resources, 'AWS::SES::ReceiptRule')[0]?.[1]).Rule as {
      Actions: { S3Action: { BucketName: { Ref: string } } }[];
    };
    return rule.Actions[0]?.S3Action.BucketName.Ref as string;
  };

  it('receives every address of the domain into the bucket under inbox/, over TLS, spam-scanned', () => {
    const [ruleSet] = ofType(resources, 'AWS::SES::ReceiptRuleSet');
    expect(propsOf(ruleSet?.[1]).RuleSetName).toBe('Tunesmith-mail-sink');
    const rules = ofType(resources, 'AWS::SES::ReceiptRule');
    expect(rules).toHaveLength(1);
    const props = propsOf(rules[0]?.[1]);
    expect(props.RuleSetName).toEqual({ Ref: ruleSet?.[0] });
    expect(props.Rule).toMatchObject({
      Name: MAIL_SINK_RULE_NAME,
      Enabled: true,
      Recipients: ['inbox.example.org'],
      ScanEnabled: true,
      TlsPolicy: 'Require',
      Actions: [{ S3Action: { ObjectKeyPrefix: MAIL_SINK_PREFIX } }],
    });
    // Created after the bucket policy: SES checks its write access when the rule is made.
    expect(rules[0]?.[1].DependsOn?.some((id) => resources[id]?.Type === 'AWS::S3::BucketPolicy')).toBe(true);
  });

  it('lets only SES, for this account and this rule, put objects under inbox/', () => {
    const bucket = sinkBucketId();
    const [, policy] =
      ofType(resources, 'AWS::S3::BucketPolicy').find(
        ([, r]) => (propsOf(r).Bucket as { Ref: string }).Ref === bucket,
      ) ?? [];
    const statements = (
      propsOf(policy).PolicyDocument as {
        Statement: {
          Effect: string;
          Principal?: unknown;
          Action: unknown;
          Resource: unknown;
          Condition?: unknown;
        }[];
      }
    ).Statement;
    const ses = statements.filter((s) => JSON.stringify(s.Principal ?? '').includes('ses.amazonaws.com'));
    expect(ses).toHaveLength(1);
    const [grant] = ses;
    expect(grant?.Effect).toBe('Allow');
    expect(grant?.Action).toBe('s3:PutObject');
    expect(flatten(grant?.Resource)).toBe(`{${bucket}.Arn}/${MAIL_SINK_PREFIX}*`);
    const condition = grant?.Condition as {
      StringEquals: Record<string, unknown>;
      ArnLike: Record<string, unknown>;
    };
    expect(condition.StringEquals).toEqual({ 'aws:SourceAccount': { Ref: 'AWS::AccountId' } });
    expect(flatten(condition.ArnLike['aws:SourceArn'])).toBe(
      'arn:{Ref:AWS::Partition}:ses:{Ref:AWS::Region}:{Ref:AWS::AccountId}:receipt-rule-set/Tunesmith-mail-sink:receipt-rule/test-mailboxes',
    );
    // Nothing else may write, and plain HTTP is refused.
    expect(statements.filter((s) => s.Effect === 'Allow')).toHaveLength(1);
    expect(
      statements.some((s) => s.Effect === 'Deny' && JSON.stringify(s.Condition).includes('SecureTransport')),
    ).toBe(true);
  });

  it('keeps mail a day, private, encrypted and access-logged', () => {
    const props = propsOf(resources[sinkBucketId()]);
    expect(props.LifecycleConfiguration).toEqual({
      Rules: expect.arrayContaining([expect.objectContaining({ ExpirationInDays: 1, Status: 'Enabled' })]),
    });
    expect(props.PublicAccessBlockConfiguration).toEqual({
      BlockPublicAcls: true,
      BlockPublicPolicy: true,
      IgnorePublicAcls: true,
      RestrictPublicBuckets: true,
    });
    expect(props.BucketEncryption).toBeDefined();
    expect(props.LoggingConfiguration).toMatchObject({ LogFilePrefix: 'mail-sink/' });
  });

  it('verifies the domain with SES and outputs what the operator and the suite need', () => {
    const identities = ofType(resources, 'AWS::SES::EmailIdentity').map(([, r]) => propsOf(r).EmailIdentity);
    expect(identities).toContain('inbox.example.org');
    const outputs = synthesized.template.toJSON().Outputs as Record<string, { Value: unknown }>;
    expect(outputs.MailSinkDomain?.Value).toBe('inbox.example.org');
    expect(outputs.MailSinkBucketName?.Value).toEqual({ Ref: sinkBucketId() });
    expect(outputs.MailSinkPrefix?.Value).toBe(MAIL_SINK_PREFIX);
    expect(outputs.MailSinkRuleSetName?.Value).toBe('Tunesmith-mail-sink');
    expect(flatten(outputs.MailSinkMxRecord?.Value)).toBe(
      'inbox.example.org MX 10 inbound-smtp.{Ref:AWS::Region}.{Ref:AWS::URLSuffix}',
    );
    expect(Object.keys(outputs).filter((name) => name.startsWith('MailSinkDkim'))).toHaveLength(3);
  });

  it('has every output the suite reads against a stage (scripts/stack-outputs.ts)', () => {
    const outputs = Object.keys(synthesized.template.toJSON().Outputs ?? {});
    expect(Object.keys(outputVariables).filter((name) => !outputs.includes(name))).toEqual([]);
  });
});

describe('with the sink on the mail domain itself', () => {
  const { resources } = synthBeforeAll({
    context: {
      mailFrom: 'Tunesmith <no-reply@example.org>',
      mailDomain: 'example.org',
      mailSinkDomain: 'example.org',
    },
  });

  it('shares the one domain identity', () => {
    expect(ofType(resources, 'AWS::SES::EmailIdentity')).toHaveLength(1);
    expect(ofType(resources, 'AWS::SES::ReceiptRule')).toHaveLength(1);
  });
});

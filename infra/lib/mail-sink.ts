import { ArnFormat, Aws, CfnOutput, Duration, Stack } from 'aws-cdk-lib';
import { PolicyStatement, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Bucket, type IBucket } from 'aws-cdk-lib/aws-s3';
import { EmailIdentity, Identity, ReceiptRuleSet, TlsPolicy } from 'aws-cdk-lib/aws-ses';
import { Construct } from 'constructs';
import { privateBucket } from './data';

/** Where in the sink bucket SES puts each received message (one object per message, its raw MIME). */
export const MAIL_SINK_PREFIX = 'inbox/';

/** The rule's name; the bucket policy names it, so it is fixed rather than generated. */
export const MAIL_SINK_RULE_NAME = 'test-mailboxes';

export interface MailSinkProps {
  /** The test domain: every address in it is a test mailbox. */
  readonly domain: string;
  /** Where the bucket's server access logs go. */
  readonly accessLogs: IBucket;
  /**
   * Create the SES domain identity (Easy DKIM) that proves the domain for
   * receiving and lets a sandboxed account send to its addresses. Off when
   * the stack's mail domain is the same domain (that identity serves both).
   * @default true
   */
  readonly createIdentity?: boolean;
  /**
   * How long received mail is kept. Test mail holds live links to test
   * accounts only, and the suite reads it within seconds.
   * @default 1
   */
  readonly retentionDays?: number;
}

/**
 * A test mail sink for running the integration suite against a deployed
 * stage: SES receives mail for the test domain and puts each message into a
 * private bucket under `inbox/`, where the suite reads it with the default
 * credential chain. Only SES acting for this account's rule may write there.
 *
 * CloudFormation cannot make a receipt rule set the active one (one per
 * account and region), so activating it is an operator step; the outputs say
 * what to run and which DNS records to add.
 */
export class MailSink extends Construct {
  readonly domain: string;
  readonly bucket: Bucket;
  readonly ruleSet: ReceiptRuleSet;
  readonly identity?: EmailIdentity;

  constructor(scope: Construct, id: string, props: MailSinkProps) {
    super(scope, id);
    const stack = Stack.of(this);
    this.domain = props.domain.trim().toLowerCase();
    const ruleSetName = `${stack.stackName}-mail-sink`;

    this.bucket = new Bucket(this, 'Bucket', {
      ...privateBucket,
      serverAccessLogsBucket: props.accessLogs,
      serverAccessLogsPrefix: 'mail-sink/',
      lifecycleRules: [
        { expiration: Duration.days(props.retentionDays ?? 1) },
        { abortIncompleteMultipartUploadAfter: Duration.days(1) },
      ],
    });
    // SES writes as its service principal; the conditions keep it to this account's own rule, so no other
    // account's rule set can fill the bucket (the confused deputy).
    this.bucket.addToResourcePolicy(
      new PolicyStatement({
        sid: 'SesDeliversTestMail',
        principals: [new ServicePrincipal('ses.amazonaws.com')],
        actions: ['s3:PutObject'],
        resources: [this.bucket.arnForObjects(`${MAIL_SINK_PREFIX}*`)],
        conditions: {
          StringEquals: { 'aws:SourceAccount': Aws.ACCOUNT_ID },
          ArnLike: {
            'aws:SourceArn': stack.formatArn({
              service: 'ses',
              resource: 'receipt-rule-set',
              resourceName: `${ruleSetName}:receipt-rule/${MAIL_SINK_RULE_NAME}`,
              arnFormat: ArnFormat.SLASH_RESOURCE_NAME,
            }),
          },
        },
      }),
    );

    this.ruleSet = new ReceiptRuleSet(this, 'RuleSet', { receiptRuleSetName: ruleSetName });
    const rule = this.ruleSet.addRule('Rule', {
      receiptRuleName: MAIL_SINK_RULE_NAME,
      recipients: [this.domain],
      scanEnabled: true,
      tlsPolicy: TlsPolicy.REQUIRE,
      actions: [
        {
          bind: () => ({
            s3Action: { bucketName: this.bucket.bucketName, objectKeyPrefix: MAIL_SINK_PREFIX },
          }),
        },
      ],
    });
    // SES checks that it may write to the bucket when the rule is created.
    if (this.bucket.policy) rule.node.addDependency(this.bucket.policy);

    if (props.createIdentity ?? true) {
      this.identity = new EmailIdentity(this, 'DomainIdentity', { identity: Identity.domain(this.domain) });
      this.identity.dkimRecords.forEach((record, index) => {
        new CfnOutput(stack, `MailSinkDkimRecord${index + 1}`, {
          value: `${record.name} CNAME ${record.value}`,
          description: `DNS record ${index + 1} of 3 that verifies the test mail domain ${this.domain} for SES`,
        });
      });
    }

    const outputs: Record<string, [string, string]> = {
      MailSinkDomain: [this.domain, 'Test mail domain: the suite signs up with addresses in it'],
      MailSinkBucketName: [this.bucket.bucketName, 'Bucket SES puts received test mail in'],
      MailSinkPrefix: [MAIL_SINK_PREFIX, 'Key prefix of received test mail in the sink bucket'],
      MailSinkRuleSetName: [
        ruleSetName,
        'Receipt rule set to activate once: aws ses set-active-receipt-rule-set --rule-set-name <this>',
      ],
      MailSinkMxRecord: [
        `${this.domain} MX 10 inbound-smtp.${Aws.REGION}.${Aws.URL_SUFFIX}`,
        'DNS record that routes the test domain mail to SES receiving',
      ],
    };
    for (const [name, [value, description]] of Object.entries(outputs)) {
      new CfnOutput(stack, name, { value, description });
    }
  }
}

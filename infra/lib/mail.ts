import { Annotations, ArnFormat, CfnOutput, Stack } from 'aws-cdk-lib';
import { type IGrantable, PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { ConfigurationSet, EmailIdentity, Identity, SuppressionReasons } from 'aws-cdk-lib/aws-ses';
import { NagSuppressions } from 'cdk-nag';
import { Construct } from 'constructs';

/**
 * Used when neither the `mailFrom` context nor MAIL_FROM is set: synthesis
 * works, but a deploy is refused unless mail is stated off (`-c mail=off`),
 * because no one could verify an account.
 */
export const PLACEHOLDER_MAIL_FROM = 'Tunesmith <no-reply@example.com>';

export interface MailProps {
  /**
   * The sender of account mail, `Name <address>` or a bare address. It must be
   * an SES-verified identity (the address, or its domain).
   */
  readonly from: string;
  /**
   * A domain to create an SES domain identity for (Easy DKIM; add the three
   * CNAME records from the stack outputs to its DNS). The sender must be in it.
   * @default - none: verify the sender (or its domain) in SES yourself
   */
  readonly domain?: string;
  /**
   * The SES identity of `domain` already exists in this account and region
   * (another stage made it, or it was verified by hand): use it instead of
   * creating it, which SES would refuse (one identity per domain per region).
   * Decision 012.
   * @default false: this stage creates and owns the identity
   */
  readonly domainIdentityExists?: boolean;
  /**
   * Deploy without mail (`-c mail=off`): sign-up cannot verify anyone, so this
   * suits only a stage whose users are made another way (tests, demos).
   * @default false
   */
  readonly off?: boolean;
}

/** The address part of `Name <address>` (or the bare address), lower-cased; throws when there is none. */
export function senderAddress(from: string): string {
  const address = (/<([^<>]+)>\s*$/.exec(from)?.[1] ?? from).trim().toLowerCase();
  if (!/^[^\s@<>]+@[^\s@<>]+\.[^\s@<>]+$/.test(address)) {
    throw new Error(
      `mailFrom "${from}" has no valid address: use "Name <address@domain>" or "address@domain".`,
    );
  }
  return address;
}

/**
 * Account mail through SES (DESIGN.md, Accounts and sessions): the sender
 * address, an optional domain identity, and a grant to send only as that
 * sender.
 */
export class Mail extends Construct {
  /** `MAIL_FROM` for the functions. */
  readonly from: string;
  /** The sender's bare address, which the send grant is conditioned on. */
  readonly address: string;
  /** The domain identity, when a domain was given. */
  readonly identity?: EmailIdentity;
  /**
   * Every send goes through it: addresses that bounce or complain land on the
   * account's suppression list (no more mail to them), and the account's
   * reputation metrics are published (the bounce and complaint alarms watch them).
   */
  readonly configurationSet: ConfigurationSet;

  constructor(scope: Construct, id: string, props: MailProps) {
    super(scope, id);
    this.from = props.from;
    this.address = senderAddress(props.from);
    this.configurationSet = new ConfigurationSet(this, 'ConfigurationSet', {
      suppressionReasons: SuppressionReasons.BOUNCES_AND_COMPLAINTS,
      reputationMetrics: true,
    });

    if (props.domain) {
      const domain = props.domain.trim().toLowerCase();
      const senderDomain = this.address.slice(this.address.indexOf('@') + 1);
      if (senderDomain !== domain && !senderDomain.endsWith(`.${domain}`)) {
        throw new Error(
          `mailFrom ${this.address} is not in mailDomain ${domain}: SES would refuse to send it.`,
        );
      }
      if (props.domainIdentityExists) {
        Annotations.of(this).addInfo(
          `Mail: using the existing SES identity ${domain} of this account and region (-c mailIdentity=existing); the stage that owns it keeps its DNS records.`,
        );
        return;
      }
      this.identity = new EmailIdentity(this, 'DomainIdentity', { identity: Identity.domain(domain) });
      this.identity.dkimRecords.forEach((record, index) => {
        // At stack level, so the output names read plainly: MailDkimRecord1..3.
        new CfnOutput(Stack.of(this), `MailDkimRecord${index + 1}`, {
          value: `${record.name} CNAME ${record.value}`,
          description: `DNS record ${index + 1} of 3 that verifies ${domain} for SES (Easy DKIM)`,
        });
      });
    } else if (props.from === PLACEHOLDER_MAIL_FROM) {
      // An error stops `cdk deploy` (and `cdk synth`): a stack that cannot verify anyone is no product.
      if (props.off) {
        Annotations.of(this).addWarningV2(
          'tunesmith:mailOff',
          'Mail is off (-c mail=off): sign-up cannot send verification mail on this stage.',
        );
      } else {
        Annotations.of(this).addError(
          'No sender configured: deploy with -c mailFrom="Name <address>" (an SES-verified identity, or with -c mailDomain=...), set MAIL_FROM, or state -c mail=off to deploy a stage without mail.',
        );
      }
    }
  }

  /**
   * Lets `grantee` send mail (SendEmail, SendRawEmail) with this sender as
   * From and nothing else. The resource is the account's identities because
   * SES authorizes a send against the sender's identity (address or domain)
   * and, while the account is in the SES sandbox, against each recipient's
   * verified identity as well; the `ses:FromAddress` condition is what limits
   * the grant to the configured sender.
   */
  grantSend(grantee: IGrantable & Construct): void {
    grantee.grantPrincipal.addToPrincipalPolicy(
      new PolicyStatement({
        actions: ['ses:SendEmail', 'ses:SendRawEmail'],
        resources: [
          Stack.of(this).formatArn({
            service: 'ses',
            resource: 'identity',
            resourceName: '*',
            arnFormat: ArnFormat.SLASH_RESOURCE_NAME,
          }),
          // A send names the configuration set, which SES authorizes too.
          Stack.of(this).formatArn({
            service: 'ses',
            resource: 'configuration-set',
            resourceName: this.configurationSet.configurationSetName,
            arnFormat: ArnFormat.SLASH_RESOURCE_NAME,
          }),
        ],
        // SES compares the From address as the message has it; the code may send any case of it.
        conditions: { StringEqualsIgnoreCase: { 'ses:FromAddress': this.address } },
      }),
    );
    NagSuppressions.addResourceSuppressions(
      grantee,
      [
        {
          id: 'AwsSolutions-IAM5',
          reason:
            'SES checks a send against the sender identity and, in the SES sandbox, every verified recipient identity, so the resource is identity/*; the ses:FromAddress condition allows only the configured sender.',
          appliesTo: [
            { regex: '/^Resource::arn:<AWS::Partition>:ses:<AWS::Region>:<AWS::AccountId>:identity\\/\\*$/' },
          ],
        },
      ],
      true,
    );
  }
}

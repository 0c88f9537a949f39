import { RemovalPolicy, SecretValue } from 'aws-cdk-lib';
import type { IGrantable } from 'aws-cdk-lib/aws-iam';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { NagSuppressions } from 'cdk-nag';
import { Construct } from 'constructs';

/** The variable naming the secret; functions/src/adapters/secrets/origin-secret.ts reads it. */
export const ORIGIN_SECRET_ARN = 'ORIGIN_SECRET_ARN';

/** The CDK context setting naming the secret version CloudFront sends (`-c originSecretVersion=<id>`). */
export const ORIGIN_SECRET_VERSION = 'originSecretVersion';

/** A Secrets Manager version id (32 to 64 characters; UUIDs when Secrets Manager makes them). */
const VERSION_ID = /^[A-Za-z0-9-]{32,64}$/;

export interface OriginSecretProps {
  /**
   * The version of the secret CloudFront sends: the id of the version staged
   * AWSCURRENT when the deploy started (`npm run deploy` reads it,
   * scripts/deploy.ts). It is part of the distribution's header value, so a
   * deploy after a new value was put changes the distribution, and
   * CloudFormation resolves the header again; without it CloudFormation would
   * keep the value it resolved when the distribution last changed.
   * @default - the current version, resolved only when the distribution changes for another reason
   */
  readonly version?: string;
}

/**
 * The origin lock (decision 007): a generated value CloudFront adds to every
 * API request as `x-origin-verify`, and the functions check, so the
 * execute-api endpoint answers only calls that came through CloudFront
 * (and so carry the viewer's address in the hop CloudFront adds). The signed
 * webhooks are exempt, though Stripe's and fal's come through CloudFront too
 * (decision 013). With an API domain of its own the execute-api endpoint is
 * off and this lock is a second wall; without one it is the only one. Rotate
 * by putting a new value and deploying with its version (decision 035): the
 * functions accept the current and the previous value meanwhile.
 */
export class OriginSecret extends Construct {
  readonly secret: Secret;
  private readonly version?: string;

  constructor(scope: Construct, id: string, props: OriginSecretProps = {}) {
    super(scope, id);
    if (props.version !== undefined && !VERSION_ID.test(props.version)) {
      throw new Error(
        `${ORIGIN_SECRET_VERSION} "${props.version}" is not a Secrets Manager version id (32 to 64 letters, digits and hyphens).`,
      );
    }
    this.version = props.version;
    this.secret = new Secret(this, 'Secret', {
      description: 'Tunesmith origin lock: the header value CloudFront sends to the API (x-origin-verify)',
      generateSecretString: { passwordLength: 48, excludePunctuation: true },
      removalPolicy: RemovalPolicy.DESTROY,
    });
    NagSuppressions.addResourceSuppressions(this.secret, [
      {
        id: 'AwsSolutions-SMG4',
        reason:
          'Rotated by an operator: a new value, then a deploy that names its version (CloudFront reads the value at deploy time); the functions accept the current and the previous value during the change, which a rotation Lambda could not coordinate with the distribution (decision 035).',
      },
    ]);
  }

  /** The value for CloudFront's origin header (a dynamic reference, never in the template). */
  get headerValue(): string {
    const value = this.version
      ? SecretValue.secretsManager(this.secret.secretArn, { versionId: this.version })
      : this.secret.secretValue;
    return value.unsafeUnwrap();
  }

  /** Lets a function read the secret (current and previous versions). */
  grantCheck(grantee: IGrantable): void {
    this.secret.grantRead(grantee);
  }
}

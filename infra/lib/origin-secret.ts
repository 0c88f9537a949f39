import { RemovalPolicy } from 'aws-cdk-lib';
import type { IGrantable } from 'aws-cdk-lib/aws-iam';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { NagSuppressions } from 'cdk-nag';
import { Construct } from 'constructs';

/** The variable naming the secret; functions/src/adapters/secrets/origin-secret.ts reads it. */
export const ORIGIN_SECRET_ARN = 'ORIGIN_SECRET_ARN';

/**
 * The origin lock (decision 007): a generated value CloudFront adds to every
 * API request as `x-origin-verify`, and the functions check, so the
 * execute-api endpoint answers only calls that came through CloudFront
 * (and so carry the viewer's address in the hop CloudFront adds). The signed
 * webhooks are exempt, though Stripe's and fal's come through CloudFront too
 * (decision 013). With an API domain of its own the execute-api endpoint is
 * off and this lock is a second wall; without one it is the only one. Rotate
 * by changing the secret and deploying again: the functions accept the
 * current and the previous value meanwhile.
 */
export class OriginSecret extends Construct {
  readonly secret: Secret;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    this.secret = new Secret(this, 'Secret', {
      description: 'Tunesmith origin lock: the header value CloudFront sends to the API (x-origin-verify)',
      generateSecretString: { passwordLength: 48, excludePunctuation: true },
      removalPolicy: RemovalPolicy.DESTROY,
    });
    NagSuppressions.addResourceSuppressions(this.secret, [
      {
        id: 'AwsSolutions-SMG4',
        reason:
          'Rotated by an operator with a redeploy (CloudFront reads the value at deploy time); the functions accept the current and the previous value during the change, which a rotation Lambda could not coordinate with the distribution.',
      },
    ]);
  }

  /** The value for CloudFront's origin header (a dynamic reference, never in the template). */
  get headerValue(): string {
    return this.secret.secretValue.unsafeUnwrap();
  }

  /** Lets a function read the secret (current and previous versions). */
  grantCheck(grantee: IGrantable): void {
    this.secret.grantRead(grantee);
  }
}

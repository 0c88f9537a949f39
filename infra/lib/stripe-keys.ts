import { RemovalPolicy, SecretValue } from 'aws-cdk-lib';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { NagSuppressions } from 'cdk-nag';
import { Construct } from 'constructs';

/** The variable naming the secret; functions/src/adapters/stripe/stripe-keys.ts reads it. */
export const STRIPE_SECRET_ARN = 'STRIPE_SECRET_ARN';

/** How an operator fills the secret after the first deploy (docs/deploy.md, Connect Stripe). */
export const STRIPE_SECRET_FILL_COMMAND =
  'aws secretsmanager put-secret-value --secret-id <arn> --secret-string \'{"secretKey":"sk_test_...","webhookSecret":"whsec_..."}\'';

/**
 * Stripe's API keys on AWS (DESIGN.md, Billing; decision 005): one Secrets
 * Manager secret holding `{"secretKey": "...", "webhookSecret": "..."}`, which
 * the stack creates with empty values and an operator fills with the real keys
 * (stack output `StripeSecretArn`). The template carries only the empty
 * placeholder, never a key, and no key is put in a Lambda environment: the
 * functions get the secret's ARN and read it at run time. Site settings, when
 * set, take precedence over the secret.
 */
export class StripeKeys extends Construct {
  readonly secret: Secret;

  constructor(scope: Construct, id: string) {
    super(scope, id);

    this.secret = new Secret(this, 'Secret', {
      description: `Stripe API keys for Tunesmith billing, created empty. Fill after deploy (<arn>: stack output StripeSecretArn): ${STRIPE_SECRET_FILL_COMMAND}`,
      // The shape the functions read, with empty values: billing answers "not configured" until the operator
      // puts the keys. CloudFormation writes a value only when this property changes, so keep it as it is.
      secretObjectValue: {
        secretKey: SecretValue.unsafePlainText(''),
        webhookSecret: SecretValue.unsafePlainText(''),
      },
      // The keys were put by hand and exist nowhere else in the stack.
      removalPolicy: RemovalPolicy.RETAIN,
    });

    NagSuppressions.addResourceSuppressions(this.secret, [
      {
        id: 'AwsSolutions-SMG4',
        reason:
          'Stripe API keys are rolled in the Stripe dashboard, which no rotation Lambda can do; the operator then puts the new keys in this secret (put-secret-value).',
      },
    ]);
  }

  /**
   * Lets `fn` read the keys: `STRIPE_SECRET_ARN` in its environment and
   * GetSecretValue (with DescribeSecret) on this secret only.
   */
  grantRead(fn: LambdaFunction): void {
    fn.addEnvironment(STRIPE_SECRET_ARN, this.secret.secretArn);
    this.secret.grantRead(fn);
  }
}

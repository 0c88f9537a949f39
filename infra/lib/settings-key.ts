import { RemovalPolicy } from 'aws-cdk-lib';
import { Key } from 'aws-cdk-lib/aws-kms';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import { Construct } from 'constructs';

/** The variable naming the key; functions/src/adapters/kms/secret-box.ts reads it. */
export const SETTINGS_KMS_KEY_ID = 'SETTINGS_KMS_KEY_ID';

/**
 * The KMS key that seals secret site settings (Stripe keys, the fal key)
 * before they are stored in the table (decision 006): a table export or backup
 * holds only ciphertext. The admin function seals and opens; the functions
 * that use a secret only open. Retained with the table it protects.
 */
export class SettingsKey extends Construct {
  readonly key: Key;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    this.key = new Key(this, 'Key', {
      description: 'Tunesmith: seals secret site settings stored in the table',
      enableKeyRotation: true,
      removalPolicy: RemovalPolicy.RETAIN,
    });
  }

  /** Lets `fn` open sealed settings: kms:Decrypt on this key and the key's ARN in its environment. */
  grantOpen(fn: LambdaFunction): void {
    fn.addEnvironment(SETTINGS_KMS_KEY_ID, this.key.keyArn);
    this.key.grantDecrypt(fn);
  }

  /** Lets `fn` seal new values too (the admin area's Site Settings). */
  grantSealAndOpen(fn: LambdaFunction): void {
    fn.addEnvironment(SETTINGS_KMS_KEY_ID, this.key.keyArn);
    // Encrypt and Decrypt only (no data keys, no re-encryption): the values are small.
    this.key.grant(fn, 'kms:Encrypt', 'kms:Decrypt');
  }
}

import { CustomResource, Duration, RemovalPolicy } from 'aws-cdk-lib';
import { KeyGroup, PublicKey } from 'aws-cdk-lib/aws-cloudfront';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { Provider } from 'aws-cdk-lib/custom-resources';
import { NagSuppressions } from 'cdk-nag';
import { Construct } from 'constructs';
import { NodeFunction } from './node-function';

/** Variables of the functions that sign; functions/src/adapters/cloudfront/audio-links.ts reads them. */
export const AUDIO_SIGNING_KEY_PAIR_ID = 'AUDIO_SIGNING_KEY_PAIR_ID';
export const AUDIO_SIGNING_SECRET_ARN = 'AUDIO_SIGNING_SECRET_ARN';

/** CDK context naming the keys, the signing one first: `-c audioSigningKeys=k2,k1`. */
export const AUDIO_SIGNING_KEYS_CONTEXT = 'audioSigningKeys';
const DEFAULT_KEYS = ['k1'];

export interface AudioSigningProps {
  /**
   * Names of the key pairs, each a secret and a public key in the key group.
   * The first signs links; the others stay trusted, so links they signed keep
   * working during a rotation. Letters and digits only.
   * @default the `audioSigningKeys` context (comma-separated), else `['k1']`
   */
  readonly keys?: readonly string[];
}

/** One key pair: its private key's secret and its public key in CloudFront. */
export interface AudioSigningKey {
  readonly name: string;
  readonly secret: Secret;
  readonly publicKey: PublicKey;
}

/**
 * The keys that sign play and download links (decision 008). CDK cannot make
 * a key pair at synthesis, so a custom resource makes each one at deploy time
 * (functions/src/lambdas/audio-signing-key.ts): RSA 2048, the private key into
 * a Secrets Manager secret of its own, the public key into a CloudFront public
 * key. The key group holds every listed key and is what the audio behaviour
 * trusts; only the functions given {@link grantSign} read the signing key.
 *
 * Rotation, with play links living up to seven hours and export links (the
 * mail's, decision 021) up to 25: deploy `-c
 * audioSigningKeys=k1,k2` (the new key joins the group; k1 still signs), then
 * `k2,k1` (k2 signs; links k1 signed still play), then, 25 hours later,
 * `k2` (k1's secret and public key are deleted).
 */
export class AudioSigning extends Construct {
  readonly keys: readonly AudioSigningKey[];
  readonly keyGroup: KeyGroup;
  /** The custom resource's handler. */
  readonly handler: NodeFunction;

  constructor(scope: Construct, id: string, props: AudioSigningProps = {}) {
    super(scope, id);
    const names = props.keys ?? keysFromContext(this);
    if (
      !names.length ||
      names.some((name) => !/^[A-Za-z0-9]{1,20}$/.test(name)) ||
      new Set(names).size !== names.length
    )
      throw new Error(
        `${AUDIO_SIGNING_KEYS_CONTEXT} must list distinct key names of letters and digits, the signing one first (got "${names.join(',')}")`,
      );

    this.handler = new NodeFunction(this, 'KeyPairHandler', {
      entryName: 'audio-signing-key',
      description: 'Tunesmith: makes the key pairs that sign audio links',
      timeout: Duration.minutes(1),
    });
    const provider = new Provider(this, 'Provider', {
      onEventHandler: this.handler,
      logGroup: new LogGroup(this, 'ProviderLogs', {
        retention: RetentionDays.ONE_MONTH,
        removalPolicy: RemovalPolicy.DESTROY,
      }),
    });
    suppressProviderFindings(provider);

    this.keys = names.map((name) => {
      const secret = new Secret(this, `${name}PrivateKey`, {
        description: `Tunesmith audio links: private key ${name} (RSA, PEM), written by its key pair custom resource; its public key is in the CloudFront key group`,
        // A key can always be made again, and links last hours: nothing to keep after the stack.
        removalPolicy: RemovalPolicy.DESTROY,
      });
      NagSuppressions.addResourceSuppressions(secret, [
        {
          id: 'AwsSolutions-SMG4',
          reason:
            'Rotated by deploying a new key name beside the old (audioSigningKeys context): the key group must trust the new public key before functions sign with it, which a rotation Lambda could not coordinate.',
        },
      ]);
      this.handler.addToRolePolicy(
        new PolicyStatement({
          actions: ['secretsmanager:GetSecretValue', 'secretsmanager:PutSecretValue'],
          resources: [secret.secretArn],
        }),
      );
      const pair = new CustomResource(this, `${name}KeyPair`, {
        serviceToken: provider.serviceToken,
        resourceType: 'Custom::TunesmithAudioSigningKey',
        properties: { SecretId: secret.secretArn },
      });
      const publicKey = new PublicKey(this, `${name}PublicKey`, {
        encodedKey: pair.getAttString('PublicKeyPem'),
        comment: `Tunesmith audio links, key ${name}`,
      });
      return { name, secret, publicKey };
    });

    this.keyGroup = new KeyGroup(this, 'KeyGroup', {
      items: this.keys.map((key) => key.publicKey),
      comment: 'Tunesmith audio links: the keys the audio behaviour trusts',
    });
  }

  /** The key that signs now. */
  get signingKey(): AudioSigningKey {
    return this.keys[0] as AudioSigningKey;
  }

  /**
   * Lets `fn` sign links: the signing key's id and secret ARN in its
   * environment, and GetSecretValue (with DescribeSecret) on that secret only.
   */
  grantSign(fn: LambdaFunction): void {
    fn.addEnvironment(AUDIO_SIGNING_KEY_PAIR_ID, this.signingKey.publicKey.publicKeyId);
    fn.addEnvironment(AUDIO_SIGNING_SECRET_ARN, this.signingKey.secret.secretArn);
    this.signingKey.secret.grantRead(fn);
  }
}

function keysFromContext(scope: Construct): string[] {
  const value = scope.node.tryGetContext(AUDIO_SIGNING_KEYS_CONTEXT) as unknown;
  if (typeof value !== 'string' || !value.trim()) return DEFAULT_KEYS;
  return value
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
}

function suppressProviderFindings(provider: Provider): void {
  NagSuppressions.addResourceSuppressions(
    provider,
    [
      {
        id: 'AwsSolutions-IAM4',
        reason: 'The CDK Provider framework function writes its logs with AWSLambdaBasicExecutionRole.',
        appliesTo: ['Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole'],
      },
      {
        id: 'AwsSolutions-IAM5',
        reason:
          'The Provider framework invokes the key pair function and its versions (function ARN and ARN:*), as generated by CDK.',
        appliesTo: [{ regex: '/^Resource::<.*KeyPairHandler[0-9A-F]{8}\\.Arn>:\\*$/' }],
      },
      {
        id: 'Serverless-LambdaDLQ',
        reason:
          'The CDK Provider framework function answers CloudFormation, which fails the deploy when it fails; there is no asynchronous invocation to catch.',
      },
      {
        id: 'Serverless-LambdaDefaultMemorySize',
        reason:
          'The CDK Provider framework function only relays the key pair function answer to CloudFormation; aws-cdk-lib sizes it.',
      },
      {
        id: 'Serverless-LambdaTracing',
        reason:
          'The CDK Provider framework function is aws-cdk-lib code that runs once per deploy; the key pair function it calls is traced.',
      },
    ],
    true,
  );
}

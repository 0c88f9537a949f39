/**
 * The key pair that signs audio links (decision 008): RSA 2048, the format
 * CloudFront trusted key groups take. CDK cannot make one at synthesis, so a
 * custom resource (lambdas/audio-signing-key.ts) makes it at deploy time: the
 * private key goes into a Secrets Manager secret, the public key becomes a
 * CloudFront public key.
 */
import { createPrivateKey, createPublicKey, generateKeyPair, generateKeyPairSync } from 'node:crypto';

export interface SigningKeyPair {
  /** PKCS#8 PEM. */
  privateKey: string;
  /** SubjectPublicKeyInfo PEM (`-----BEGIN PUBLIC KEY-----`), what CloudFront's EncodedKey takes. */
  publicKey: string;
}

const KEY_OPTIONS = {
  modulusLength: 2048,
  publicKeyEncoding: { type: 'spki', format: 'pem' },
  privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
} as const;

export function newSigningKeyPair(): SigningKeyPair {
  return generateKeyPairSync('rsa', KEY_OPTIONS);
}

/** The same, made on Node's thread pool (a tenth to a fifth of a second of CPU): the caller's thread goes on meanwhile. */
export function makeSigningKeyPair(): Promise<SigningKeyPair> {
  return new Promise((resolve, reject) =>
    generateKeyPair('rsa', KEY_OPTIONS, (error, publicKey, privateKey) =>
      error ? reject(error) : resolve({ publicKey, privateKey }),
    ),
  );
}

/** The public key of a stored private key, or undefined when the value is not an RSA private key. */
export function publicKeyOf(privateKeyPem: string): string | undefined {
  try {
    const key = createPrivateKey(privateKeyPem);
    if (key.asymmetricKeyType !== 'rsa') return undefined;
    return createPublicKey(key).export({ type: 'spki', format: 'pem' }).toString();
  } catch {
    return undefined;
  }
}

/** Where the private key is kept; Secrets Manager on AWS, a fake in tests. */
export interface KeyStore {
  read(secretId: string): Promise<string | undefined>;
  write(secretId: string, privateKey: string): Promise<void>;
}

export interface KeyPairEvent {
  RequestType: 'Create' | 'Update' | 'Delete';
  PhysicalResourceId?: string;
  ResourceProperties: { SecretId: string };
  OldResourceProperties?: { SecretId?: string };
}

export interface KeyPairResult {
  PhysicalResourceId: string;
  Data?: { PublicKeyPem: string };
}

/**
 * The custom resource's answer. Create makes a pair and stores its private
 * key. Update keeps the stored key (a CloudFront public key cannot change its
 * key; rotating is a new key beside it, see infra/lib/audio-signing.ts) and
 * answers its public key again; it makes a new pair only for another secret or
 * when the secret holds no usable key. Delete leaves the secret to its own
 * resource.
 */
export async function keyPairResource(event: KeyPairEvent, store: KeyStore): Promise<KeyPairResult> {
  const secretId = event.ResourceProperties.SecretId;
  if (event.RequestType === 'Delete') return { PhysicalResourceId: event.PhysicalResourceId ?? secretId };
  if (event.RequestType === 'Update' && event.OldResourceProperties?.SecretId === secretId) {
    const stored = await store.read(secretId);
    const publicKey = stored ? publicKeyOf(stored) : undefined;
    if (publicKey) return { PhysicalResourceId: secretId, Data: { PublicKeyPem: publicKey } };
  }
  const pair = newSigningKeyPair();
  await store.write(secretId, pair.privateKey);
  return { PhysicalResourceId: secretId, Data: { PublicKeyPem: pair.publicKey } };
}

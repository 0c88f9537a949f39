import { createSign, createVerify } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  type KeyStore,
  keyPairResource,
  makeSigningKeyPair,
  newSigningKeyPair,
  publicKeyOf,
} from './signing-key-pair';

const memoryStore = (initial: Record<string, string> = {}) => {
  const values = new Map(Object.entries(initial));
  const writes: string[] = [];
  const store: KeyStore = {
    read: async (id) => values.get(id),
    write: async (id, key) => {
      writes.push(id);
      values.set(id, key);
    },
  };
  return { store, values, writes };
};

const signsFor = (privateKey: string, publicKey: string) => {
  const signature = createSign('RSA-SHA256').update('policy').sign(privateKey);
  return createVerify('RSA-SHA256').update('policy').verify(publicKey, signature);
};

const secretId = 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:audio-k1';

describe('the audio signing key pair', () => {
  it('is RSA 2048 with a PEM public key CloudFront accepts', () => {
    const pair = newSigningKeyPair();
    expect(pair.publicKey.startsWith('-----BEGIN PUBLIC KEY-----')).toBe(true);
    expect(pair.privateKey.startsWith('-----BEGIN PRIVATE KEY-----')).toBe(true);
    expect(publicKeyOf(pair.privateKey)).toBe(pair.publicKey);
    expect(publicKeyOf('not a key')).toBeUndefined();
  });

  it('is the same kind of pair when made on the thread pool, and signs', async () => {
    const pair = await makeSigningKeyPair();
    expect(pair.publicKey.startsWith('-----BEGIN PUBLIC KEY-----')).toBe(true);
    expect(pair.privateKey.startsWith('-----BEGIN PRIVATE KEY-----')).toBe(true);
    expect(publicKeyOf(pair.privateKey)).toBe(pair.publicKey);
    expect(signsFor(pair.privateKey, pair.publicKey)).toBe(true);
  });

  it('is made on create: the private key into the secret, the public key in the answer', async () => {
    const { store, values, writes } = memoryStore();
    const result = await keyPairResource(
      { RequestType: 'Create', ResourceProperties: { SecretId: secretId } },
      store,
    );

    expect(writes).toEqual([secretId]);
    expect(result.PhysicalResourceId).toBe(secretId);
    expect(JSON.stringify(result)).not.toContain('PRIVATE KEY');
    expect(signsFor(values.get(secretId) as string, result.Data?.PublicKeyPem as string)).toBe(true);
  });

  it('is kept on update (a CloudFront public key cannot change), and left to its secret on delete', async () => {
    const pair = newSigningKeyPair();
    const { store, writes } = memoryStore({ [secretId]: pair.privateKey });
    const update = await keyPairResource(
      {
        RequestType: 'Update',
        PhysicalResourceId: secretId,
        ResourceProperties: { SecretId: secretId },
        OldResourceProperties: { SecretId: secretId },
      },
      store,
    );
    expect(update).toEqual({ PhysicalResourceId: secretId, Data: { PublicKeyPem: pair.publicKey } });

    const deleted = await keyPairResource(
      { RequestType: 'Delete', PhysicalResourceId: secretId, ResourceProperties: { SecretId: secretId } },
      store,
    );
    expect(deleted).toEqual({ PhysicalResourceId: secretId });
    expect(writes).toEqual([]);
  });

  it('is made anew on update when the secret holds no usable key', async () => {
    const { store, writes } = memoryStore({ [secretId]: 'overwritten by hand' });
    const result = await keyPairResource(
      {
        RequestType: 'Update',
        PhysicalResourceId: secretId,
        ResourceProperties: { SecretId: secretId },
        OldResourceProperties: { SecretId: secretId },
      },
      store,
    );
    expect(writes).toEqual([secretId]);
    expect(result.Data?.PublicKeyPem.startsWith('-----BEGIN PUBLIC KEY-----')).toBe(true);
  });
});

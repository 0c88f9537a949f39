import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { KMSClient } from '@aws-sdk/client-kms';
import type { SecretBox } from '../../domain/admin/ports';
import { lazySdk } from '../lazy-sdk';

const KMS_PREFIX = 'kms:';
const LOCAL_PREFIX = 'aes:';

/**
 * Sealed values start with how they were sealed; anything else was stored
 * before sealing existed and is read as it is.
 */
const isSealed = (value: string) => value.startsWith(KMS_PREFIX) || value.startsWith(LOCAL_PREFIX);

type KmsSdk = typeof import('./sdk');

/**
 * Secrets sealed with a KMS key; the setting's key is bound in as encryption
 * context. The SDK is loaded with the first secret sealed or opened: most
 * requests read no secret setting.
 */
export function kmsSecretBox(makeClient: (sdk: KmsSdk) => KMSClient, keyId: string): SecretBox {
  const kms = lazySdk(() => import('./sdk'), makeClient);
  return {
    async seal(plaintext, context) {
      const { sdk, client } = await kms();
      const { EncryptCommand } = sdk;
      const out = await client.send(
        new EncryptCommand({
          KeyId: keyId,
          Plaintext: Buffer.from(plaintext, 'utf8'),
          EncryptionContext: { setting: context },
        }),
      );
      if (!out.CiphertextBlob) throw new Error('KMS returned no ciphertext');
      return KMS_PREFIX + Buffer.from(out.CiphertextBlob).toString('base64');
    },
    async open(sealed, context) {
      if (!isSealed(sealed)) return sealed;
      if (!sealed.startsWith(KMS_PREFIX)) throw new Error('Setting was sealed with another key');
      const { sdk, client } = await kms();
      const { DecryptCommand } = sdk;
      const out = await client.send(
        new DecryptCommand({
          CiphertextBlob: Buffer.from(sealed.slice(KMS_PREFIX.length), 'base64'),
          EncryptionContext: { setting: context },
        }),
      );
      if (!out.Plaintext) throw new Error('KMS returned no plaintext');
      return Buffer.from(out.Plaintext).toString('utf8');
    },
  };
}

/**
 * The local cloud's stand-in for KMS: AES-256-GCM with a 32-byte key kept in
 * the data directory, the setting's key as additional authenticated data.
 */
export function localSecretBox(key: Buffer): SecretBox {
  if (key.length !== 32) throw new Error('The local settings key must be 32 bytes');
  return {
    async seal(plaintext, context) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      cipher.setAAD(Buffer.from(context, 'utf8'));
      const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      return LOCAL_PREFIX + Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64');
    },
    async open(sealed, context) {
      if (!isSealed(sealed)) return sealed;
      if (!sealed.startsWith(LOCAL_PREFIX)) throw new Error('Setting was sealed with another key');
      const raw = Buffer.from(sealed.slice(LOCAL_PREFIX.length), 'base64');
      const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
      decipher.setAAD(Buffer.from(context, 'utf8'));
      decipher.setAuthTag(raw.subarray(12, 28));
      return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
    },
  };
}

/**
 * The box of this runtime: KMS when `SETTINGS_KMS_KEY_ID` names a key (AWS),
 * else the local key in `SETTINGS_LOCAL_KEY` (base64, the local cloud sets it).
 * Without either, secrets cannot be stored: writing one fails loudly.
 */
export function secretBoxFromEnv(
  kms: (sdk: KmsSdk) => KMSClient,
  env: NodeJS.ProcessEnv = process.env,
): SecretBox {
  if (env.SETTINGS_KMS_KEY_ID) return kmsSecretBox(kms, env.SETTINGS_KMS_KEY_ID);
  if (env.SETTINGS_LOCAL_KEY) return localSecretBox(Buffer.from(env.SETTINGS_LOCAL_KEY, 'base64'));
  return {
    seal: async () => {
      throw new Error('No key to seal secret settings: set SETTINGS_KMS_KEY_ID or SETTINGS_LOCAL_KEY');
    },
    open: async (sealed) => {
      if (isSealed(sealed)) throw new Error('No key to open sealed settings');
      return sealed;
    },
  };
}

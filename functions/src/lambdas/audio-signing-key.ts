/**
 * CloudFormation custom resource handler (through the CDK Provider
 * framework): makes the key pair that signs audio links and keeps its private
 * key in the secret named by `SecretId`; answers the public key as
 * `PublicKeyPem` (adapters/cloudfront/signing-key-pair.ts). Never logs a key.
 */
import {
  GetSecretValueCommand,
  PutSecretValueCommand,
  SecretsManagerClient,
} from '@aws-sdk/client-secrets-manager';
import { awsClientDefaults } from '../adapters/client-options';
import { type KeyPairEvent, type KeyStore, keyPairResource } from '../adapters/cloudfront/signing-key-pair';

const secretsManagerStore = (client: SecretsManagerClient): KeyStore => ({
  async read(secretId) {
    try {
      return (await client.send(new GetSecretValueCommand({ SecretId: secretId }))).SecretString;
    } catch (error) {
      if ((error as { name?: string }).name === 'ResourceNotFoundException') return undefined;
      throw error;
    }
  },
  async write(secretId, privateKey) {
    await client.send(new PutSecretValueCommand({ SecretId: secretId, SecretString: privateKey }));
  },
});

export const handler = async (event: KeyPairEvent) => {
  const client = new SecretsManagerClient({ ...awsClientDefaults, region: process.env.AWS_REGION });
  try {
    return await keyPairResource(event, secretsManagerStore(client));
  } finally {
    client.destroy();
  }
};

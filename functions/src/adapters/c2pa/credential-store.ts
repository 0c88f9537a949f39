/**
 * Where the content credentials' signing key and certificates live: made on
 * first use and kept, in the process (the local cloud: a new root each run)
 * or in a Secrets Manager secret (AWS: the secret `C2PA_SIGNING_SECRET_ARN`,
 * which the stack creates with a random placeholder).
 */
import { awsClientDefaults } from '../client-options';
import { traced } from '../tracing';
import { makeSigningCredentials, parseSigningCredentials, type SigningCredentials } from './certificates';

/** A place for one text value. */
export interface CredentialStore {
  read(): Promise<string | undefined>;
  write(value: string): Promise<void>;
}

/** A store that lives as long as the process. */
export function memoryCredentialStore(): CredentialStore {
  let value: string | undefined;
  return {
    read: async () => value,
    write: async (next) => {
      value = next;
    },
  };
}

/** A Secrets Manager secret (read with GetSecretValue, written with PutSecretValue). */
export function secretsManagerCredentialStore(
  secretId: string,
  region = process.env.AWS_REGION,
): CredentialStore {
  const client = async () => {
    const sdk = await import('@aws-sdk/client-secrets-manager');
    return { sdk, client: traced(new sdk.SecretsManagerClient({ ...awsClientDefaults, region })) };
  };
  return {
    async read() {
      const { sdk, client: c } = await client();
      try {
        return (await c.send(new sdk.GetSecretValueCommand({ SecretId: secretId }))).SecretString;
      } finally {
        c.destroy();
      }
    },
    async write(value) {
      const { sdk, client: c } = await client();
      try {
        await c.send(new sdk.PutSecretValueCommand({ SecretId: secretId, SecretString: value }));
      } finally {
        c.destroy();
      }
    },
  };
}

/**
 * The credentials in `store`, made (for the site `organization()` names) and
 * stored when it holds none. Two runtimes making them at once each store
 * theirs; both read back what was stored last, so at most the files they
 * were signing then carry the other root, valid all the same.
 */
export function credentialsMadeOnFirstUse(
  store: CredentialStore,
  organization: () => Promise<string>,
): () => Promise<SigningCredentials> {
  return async () => {
    const stored = parseSigningCredentials(await store.read());
    if (stored) return stored;
    const made = makeSigningCredentials(await organization());
    await store.write(JSON.stringify(made));
    return parseSigningCredentials(await store.read()) ?? made;
  };
}

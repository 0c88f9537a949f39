import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { runtimeConfig } from '../../config';
import { awsClientDefaults } from '../client-options';
import { traced } from '../tracing';

/** How long a read secret is trusted before it is read again (a rotation reaches every function within this). */
const REFRESH_MS = 5 * 60 * 1000;

/**
 * The values CloudFront's origin header may carry: the secret's current value
 * and, during a rotation (the value changed, the distribution not yet
 * redeployed), its previous one. Undefined when `ORIGIN_SECRET_ARN` is not set
 * (locally, where the one-origin server is the only way in).
 */
export function originSecretFromEnv(
  env: NodeJS.ProcessEnv = process.env,
  now: () => number = Date.now,
): (() => Promise<string[]>) | undefined {
  const arn = env.ORIGIN_SECRET_ARN?.trim();
  if (!arn) return undefined;
  let client: SecretsManagerClient | undefined;
  let cached: { values: string[]; at: number } | undefined;
  const read = async (stage: 'AWSCURRENT' | 'AWSPREVIOUS') => {
    client ??= traced(new SecretsManagerClient({ ...awsClientDefaults, region: runtimeConfig().region }));
    try {
      const out = await client.send(new GetSecretValueCommand({ SecretId: arn, VersionStage: stage }));
      return out.SecretString;
    } catch (error) {
      // A secret never rotated has no previous version.
      if (stage === 'AWSPREVIOUS' && (error as { name?: string }).name === 'ResourceNotFoundException')
        return undefined;
      throw error;
    }
  };
  return async () => {
    if (cached && now() - cached.at < REFRESH_MS) return cached.values;
    const values = (await Promise.all([read('AWSCURRENT'), read('AWSPREVIOUS')])).filter(
      (v): v is string => typeof v === 'string' && v.length > 0,
    );
    cached = { values, at: now() };
    return values;
  };
}

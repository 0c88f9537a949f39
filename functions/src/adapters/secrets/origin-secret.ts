import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { runtimeConfig } from '../../config';
import { awsClientDefaults } from '../client-options';
import { traced } from '../tracing';

/**
 * Reads the values CloudFront's origin header may carry: the secret's current
 * value and, during a rotation (a new value put, the distribution not yet
 * deployed with it), its previous one. The origin lock
 * (functions/src/http/origin-lock.ts) decides how often. Undefined when
 * `ORIGIN_SECRET_ARN` is not set (locally, where the one-origin server is the
 * only way in).
 */
export function originSecretFromEnv(
  env: NodeJS.ProcessEnv = process.env,
): (() => Promise<string[]>) | undefined {
  const arn = env.ORIGIN_SECRET_ARN?.trim();
  if (!arn) return undefined;
  let client: SecretsManagerClient | undefined;
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
  return async () =>
    (await Promise.all([read('AWSCURRENT'), read('AWSPREVIOUS')])).filter(
      (v): v is string => typeof v === 'string' && v.length > 0,
    );
}

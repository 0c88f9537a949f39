/**
 * Stripe's keys "from site settings or environment": the `stripe_secret_key`
 * and `stripe_webhook_secret` site settings when an administrator has set
 * them, otherwise `STRIPE_SECRET_KEY` / `STRIPE_WEBHOOK_SECRET`, otherwise
 * (on AWS, where the environment holds no secrets) the JSON secret named by
 * `STRIPE_SECRET_ARN` in Secrets Manager: `{"secretKey": "...", "webhookSecret": "..."}`.
 * Keys are read again after a minute, so a changed setting takes effect
 * without a deploy. They are never logged or returned to a browser.
 */
import { SecretsProvider } from '@aws-lambda-powertools/parameters/secrets';
import { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { runtimeConfig } from '../../config';
import type { SettingsRepository } from '../../domain/settings/settings';
import { awsClientDefaults } from '../client-options';
import { traced } from '../tracing';

export interface StripeKeys {
  secretKey?: string;
  webhookSecret?: string;
}

export interface StripeKeySources {
  settings: Pick<SettingsRepository, 'get'>;
  env?: NodeJS.ProcessEnv;
  /** Reads the Secrets Manager secret (Powertools Parameters, cached); replaceable in tests. */
  readSecret?: (arn: string) => Promise<StripeKeys | undefined>;
  /** How long resolved keys are reused (default one minute). */
  refreshMs?: number;
  now?: () => number;
}

let secrets: SecretsProvider | undefined;

const readSecretsManager = async (arn: string): Promise<StripeKeys | undefined> => {
  secrets ??= new SecretsProvider({
    awsSdkV3Client: traced(
      new SecretsManagerClient({ ...awsClientDefaults, region: runtimeConfig().region }),
    ),
  });
  const value = await secrets.get<StripeKeys>(arn, { transform: 'json', maxAge: 300 });
  return value && typeof value === 'object' ? value : undefined;
};

const nonBlank = (value: string | undefined) => value?.trim() || undefined;

/** A reader of the current keys, cached for `refreshMs`. */
export function stripeKeys(sources: StripeKeySources): () => Promise<StripeKeys> {
  const env = sources.env ?? process.env;
  const refreshMs = sources.refreshMs ?? 60_000;
  const now = sources.now ?? Date.now;
  const readSecret = sources.readSecret ?? readSecretsManager;
  let cached: { keys: StripeKeys; at: number } | undefined;

  return async () => {
    if (cached && now() - cached.at < refreshMs) return cached.keys;
    const [secretSetting, webhookSetting] = await Promise.all([
      sources.settings.get('stripe_secret_key'),
      sources.settings.get('stripe_webhook_secret'),
    ]);
    let secretKey = nonBlank(secretSetting?.value) ?? nonBlank(env.STRIPE_SECRET_KEY);
    let webhookSecret = nonBlank(webhookSetting?.value) ?? nonBlank(env.STRIPE_WEBHOOK_SECRET);
    const arn = nonBlank(env.STRIPE_SECRET_ARN);
    if ((!secretKey || !webhookSecret) && arn) {
      const stored = await readSecret(arn);
      secretKey ??= nonBlank(stored?.secretKey);
      webhookSecret ??= nonBlank(stored?.webhookSecret);
    }
    const keys: StripeKeys = {
      ...(secretKey ? { secretKey } : {}),
      ...(webhookSecret ? { webhookSecret } : {}),
    };
    cached = { keys, at: now() };
    return keys;
  };
}

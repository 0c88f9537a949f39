import { describe, expect, it } from 'vitest';
import type { Setting } from '../../domain/settings/settings';
import { inMemorySettings } from '../../testing/in-memory';
import { stripeKeys } from './stripe-keys';

const setting = (key: Setting['key'], value: string): Setting => ({
  key,
  value,
  description: '',
  type: 'secret',
  category: 'stripe',
  updatedAt: '2026-11-24T00:00:00.000Z',
});

describe('stripeKeys', () => {
  it('prefers the site settings, then the environment', async () => {
    const settings = inMemorySettings();
    const env = { STRIPE_SECRET_KEY: 'sk_env', STRIPE_WEBHOOK_SECRET: 'whsec_env' };
    expect(await stripeKeys({ settings, env })()).toEqual({
      secretKey: 'sk_env',
      webhookSecret: 'whsec_env',
    });

    await settings.put(setting('stripe_secret_key', 'sk_setting'));
    await settings.put(setting('stripe_webhook_secret', '  '));
    expect(await stripeKeys({ settings, env })()).toEqual({
      secretKey: 'sk_setting',
      webhookSecret: 'whsec_env',
    });
  });

  it('reads the Secrets Manager secret only for what settings and environment lack', async () => {
    const settings = inMemorySettings();
    await settings.put(setting('stripe_secret_key', 'sk_setting'));
    const asked: string[] = [];
    const keys = stripeKeys({
      settings,
      env: { STRIPE_SECRET_ARN: 'arn:aws:secretsmanager:eu-west-1:1:secret:stripe' },
      readSecret: async (arn) => {
        asked.push(arn);
        return { secretKey: 'sk_secret', webhookSecret: 'whsec_secret' };
      },
    });
    expect(await keys()).toEqual({ secretKey: 'sk_setting', webhookSecret: 'whsec_secret' });
    expect(asked).toEqual(['arn:aws:secretsmanager:eu-west-1:1:secret:stripe']);
  });

  it('gives no keys when none are configured (the placeholder secret is empty)', async () => {
    const keys = stripeKeys({
      settings: inMemorySettings(),
      env: { STRIPE_SECRET_ARN: 'arn' },
      readSecret: async () => ({ secretKey: '', webhookSecret: '' }),
    });
    expect(await keys()).toEqual({});
  });

  it('reuses what it read for a minute, then reads again', async () => {
    const settings = inMemorySettings();
    let now = 0;
    const keys = stripeKeys({ settings, env: {}, now: () => now });
    expect(await keys()).toEqual({});
    await settings.put(setting('stripe_secret_key', 'sk_new'));
    now = 59_000;
    expect(await keys()).toEqual({});
    now = 61_000;
    expect(await keys()).toEqual({ secretKey: 'sk_new' });
  });
});

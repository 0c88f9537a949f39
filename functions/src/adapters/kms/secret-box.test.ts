import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { sealedSettings } from '../../domain/admin/settings';
import type { Setting, SettingsRepository } from '../../domain/settings/settings';
import { localSecretBox, secretBoxFromEnv } from './secret-box';

function memorySettings(): SettingsRepository & { stored: Map<string, Setting> } {
  const stored = new Map<string, Setting>();
  return {
    stored,
    list: async () => [...stored.values()],
    get: async (key) => stored.get(key),
    put: async (setting) => {
      stored.set(setting.key, setting);
    },
    putIfAbsent: async (setting) => {
      if (stored.has(setting.key)) return false;
      stored.set(setting.key, setting);
      return true;
    },
  };
}

const setting = (key: Setting['key'], value: string): Setting => ({
  key,
  value,
  description: '',
  type: 'text',
  category: 'general',
  updatedAt: '2026-11-25T00:00:00.000Z',
});

describe('sealed settings with the local key', () => {
  const box = localSecretBox(randomBytes(32));

  it('stores secrets sealed and reads them opened; plain settings stay as they are', async () => {
    const raw = memorySettings();
    const settings = sealedSettings(raw, box);
    await settings.put(setting('stripe_secret_key', 'sk_test_123'));
    await settings.put(setting('site_name', 'Tunesmith'));

    expect(raw.stored.get('stripe_secret_key')?.value).toMatch(/^aes:/);
    expect(raw.stored.get('stripe_secret_key')?.value).not.toContain('sk_test_123');
    expect(raw.stored.get('site_name')?.value).toBe('Tunesmith');
    expect((await settings.get('stripe_secret_key'))?.value).toBe('sk_test_123');
    expect((await settings.list()).map((s) => s.value).sort()).toEqual(['Tunesmith', 'sk_test_123']);
  });

  it('binds a sealed value to its key and to the key that sealed it', async () => {
    const sealed = await box.seal('whsec_abc', 'stripe_webhook_secret');
    await expect(box.open(sealed, 'stripe_secret_key')).rejects.toThrow();
    await expect(localSecretBox(randomBytes(32)).open(sealed, 'stripe_webhook_secret')).rejects.toThrow();
    expect(await box.open('plain-from-before', 'fal_api_key')).toBe('plain-from-before');
  });

  it('refuses to store a secret when no key is configured', async () => {
    const none = secretBoxFromEnv(() => {
      throw new Error('no KMS here');
    }, {});
    await expect(none.seal('x', 'fal_api_key')).rejects.toThrow(/No key to seal/);
    const local = secretBoxFromEnv(
      () => {
        throw new Error('no KMS here');
      },
      { SETTINGS_LOCAL_KEY: randomBytes(32).toString('base64') },
    );
    expect(await local.open(await local.seal('v', 'fal_api_key'), 'fal_api_key')).toBe('v');
  });
});

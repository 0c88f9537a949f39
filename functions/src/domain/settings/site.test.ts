import type { SettingKey } from '@tunesmith/shared/settings';
import { describe, expect, it } from 'vitest';
import { inMemorySettings } from '../../testing/in-memory';
import { type Setting, seedSettings } from './settings';
import { publicSite, siteNameSource } from './site';

const stamp = '2026-11-25T10:00:00.000Z';

/** A stored setting as the seed writes it, with another value. */
function stored(key: SettingKey, value: string): Setting {
  const seeded = seedSettings(stamp).find((setting) => setting.key === key);
  if (!seeded) throw new Error(`no default for ${key}`);
  return { ...seeded, value };
}

function settingsWith(values: Record<string, string>) {
  const settings = inMemorySettings();
  for (const setting of seedSettings(stamp)) {
    settings.all.set(setting.key, { ...setting, value: values[setting.key] ?? setting.value });
  }
  return settings;
}

describe('publicSite', () => {
  it('gives the name, description and addresses an administrator set, and never a secret', async () => {
    const settings = settingsWith({
      site_name: 'Harbour Radio',
      support_email: 'help@harbour.example',
      stripe_secret_key: 'sealed-secret',
      fal_api_key: 'sealed-fal',
    });

    const site = await publicSite(settings, 'Tunesmith');

    expect(site).toEqual({
      name: 'Harbour Radio',
      description: settings.all.get('site_description')?.value,
      supportEmail: 'help@harbour.example',
      contactEmail: 'hello@tunesmith.example',
    });
    expect(JSON.stringify(site)).not.toContain('sealed');
  });

  it("falls back to the deployment's name, then the defaults, when nothing is stored", async () => {
    expect((await publicSite(inMemorySettings(), 'Studio Nine')).name).toBe('Studio Nine');
    expect(await publicSite(inMemorySettings(), '')).toMatchObject({
      name: 'Tunesmith',
      supportEmail: 'support@tunesmith.example',
    });
  });
});

describe('siteNameSource', () => {
  it('reads the setting, reuses it for a minute, then reads it again', async () => {
    const settings = settingsWith({ site_name: 'Harbour Radio' });
    let now = 0;
    const siteName = siteNameSource(settings, 'Tunesmith', { now: () => now });

    expect(await siteName()).toBe('Harbour Radio');
    await settings.put(stored('site_name', 'Night Shift'));
    now = 59_000;
    expect(await siteName()).toBe('Harbour Radio');
    now = 60_000;
    expect(await siteName()).toBe('Night Shift');
  });

  it('uses the fallback without a setting, and when the setting cannot be read', async () => {
    expect(await siteNameSource(inMemorySettings(), 'Studio Nine')()).toBe('Studio Nine');

    const errors: unknown[] = [];
    const broken = { get: async () => Promise.reject(new Error('table unavailable')) };
    const siteName = siteNameSource(broken, 'Studio Nine', { onError: (e) => errors.push(e) });
    expect(await siteName()).toBe('Studio Nine');
    expect(errors).toHaveLength(1);
  });

  it('keeps the last name read while the setting cannot be read', async () => {
    const settings = settingsWith({ site_name: 'Harbour Radio' });
    let failing = false;
    let now = 0;
    const flaky = {
      get: async (key: 'site_name') => (failing ? Promise.reject(new Error('down')) : settings.get(key)),
    };
    const siteName = siteNameSource(flaky, 'Tunesmith', { now: () => now });
    expect(await siteName()).toBe('Harbour Radio');
    failing = true;
    now = 120_000;
    expect(await siteName()).toBe('Harbour Radio');
  });
});

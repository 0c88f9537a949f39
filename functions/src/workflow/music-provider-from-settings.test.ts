import { describe, expect, it } from 'vitest';
import type { MusicProvider } from '../domain/generations/music-provider';
import { inMemorySettings } from '../testing/in-memory';
import { musicProviderFromSettings } from './music-provider-from-settings';

/** A provider whose lyrics say which key built it. */
const keyed = (key: string) =>
  ({ writeLyrics: async () => `written with ${key}` }) as unknown as MusicProvider;

function setup(envKey?: string) {
  const settings = inMemorySettings();
  let clock = 0;
  const provider = musicProviderFromSettings({
    settings,
    ...(envKey ? { envKey } : {}),
    create: keyed,
    refreshMs: 1000,
    now: () => clock,
  });
  const setKey = (value: string) =>
    settings.put({
      key: 'fal_api_key',
      value,
      description: '',
      type: 'secret',
      category: 'music',
      updatedAt: '2026-01-01T00:00:00.000Z',
    });
  const lyrics = () => provider.writeLyrics({ prompt: 'x', duration: 30 });
  return { setKey, lyrics, advance: (ms: number) => (clock += ms) };
}

describe('musicProviderFromSettings', () => {
  it('uses the environment key while the setting is absent or blank', async () => {
    const absent = setup('env-key');
    expect(await absent.lyrics()).toBe('written with env-key');

    const blank = setup('env-key');
    await blank.setKey('  ');
    expect(await blank.lyrics()).toBe('written with env-key');
  });

  it('prefers the site setting, and picks up a change once the key is read again', async () => {
    const { setKey, lyrics, advance } = setup('env-key');
    await setKey('setting-key');
    expect(await lyrics()).toBe('written with setting-key');

    await setKey('');
    expect(await lyrics()).toBe('written with setting-key');
    advance(1000);
    expect(await lyrics()).toBe('written with env-key');
  });

  it('fails as unavailable when neither has a key', async () => {
    const { lyrics } = setup();
    await expect(lyrics()).rejects.toMatchObject({ name: 'MusicProviderError', reason: 'unavailable' });
  });
});

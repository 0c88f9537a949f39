/**
 * The music provider with its key "from settings or environment": the
 * `fal_api_key` site setting when an administrator has set one, otherwise env
 * `FAL_KEY`. The key is read again after `refreshMs`, so a changed setting
 * takes effect without a deploy. The key itself is never logged or returned.
 */
import type { MusicProvider } from '../domain/generations/music-provider';
import { MusicProviderError } from '../domain/generations/music-provider';
import type { SettingsRepository } from '../domain/settings/settings';

export const FAL_KEY_SETTING = 'fal_api_key' as const;

export interface KeyedProviderOptions {
  settings: Pick<SettingsRepository, 'get'>;
  /** `FAL_KEY`, used when the setting is empty. */
  envKey?: string;
  /** Builds the provider for a key (the fal adapter). */
  create: (key: string) => MusicProvider;
  /** How long a resolved key is reused (default one minute). */
  refreshMs?: number;
  now?: () => number;
}

/** The key to use: the setting's value when not blank, else the environment's. */
export async function resolveMusicKey(
  settings: Pick<SettingsRepository, 'get'>,
  envKey: string | undefined,
): Promise<string | undefined> {
  const stored = (await settings.get(FAL_KEY_SETTING))?.value.trim();
  return stored || envKey?.trim() || undefined;
}

export function musicProviderFromSettings(options: KeyedProviderOptions): MusicProvider {
  const refreshMs = options.refreshMs ?? 60_000;
  const now = options.now ?? Date.now;
  let current: { key: string; provider: MusicProvider; at: number } | undefined;

  const provider = async (): Promise<MusicProvider> => {
    if (current && now() - current.at < refreshMs) return current.provider;
    const key = await resolveMusicKey(options.settings, options.envKey);
    if (!key) throw new MusicProviderError('No music provider key is configured', 'unavailable');
    current =
      current?.key === key ? { ...current, at: now() } : { key, provider: options.create(key), at: now() };
    return current.provider;
  };

  return {
    submitTextToMusic: async (request) => (await provider()).submitTextToMusic(request),
    submitAudioToMusic: async (request) => (await provider()).submitAudioToMusic(request),
    submitExtend: async (request) => (await provider()).submitExtend(request),
    submitRepaint: async (request) => (await provider()).submitRepaint(request),
    submitStems: async (request) => (await provider()).submitStems(request),
    stemsResult: async (requestId) => (await provider()).stemsResult(requestId),
    status: async (kind, requestId, endpoint) => (await provider()).status(kind, requestId, endpoint),
    result: async (kind, requestId, endpoint) => (await provider()).result(kind, requestId, endpoint),
    cancel: async (kind, requestId, endpoint) => (await provider()).cancel(kind, requestId, endpoint),
    writeLyrics: async (request) => (await provider()).writeLyrics(request),
    transcribe: async (request) => (await provider()).transcribe(request),
  };
}

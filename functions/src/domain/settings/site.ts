import { defaultPublicSite, type PublicSite, publicSettingKeys } from '@tunesmith/shared/settings';
import type { SettingsRepository } from './settings';

const nonBlank = (value: string | undefined) => value?.trim() || undefined;

/**
 * How the site names itself and where to write to it, for anyone: the
 * public settings only (never a secret), each falling back to the default
 * when no value is stored; the name falls back to the deployment's name.
 */
export async function publicSite(
  settings: Pick<SettingsRepository, 'list'>,
  fallbackName: string,
): Promise<PublicSite> {
  const publicKeys: readonly string[] = publicSettingKeys;
  const stored = new Map(
    (await settings.list()).filter((s) => publicKeys.includes(s.key)).map((s) => [s.key, s.value]),
  );
  return {
    name: nonBlank(stored.get('site_name')) ?? nonBlank(fallbackName) ?? defaultPublicSite.name,
    description: nonBlank(stored.get('site_description')) ?? defaultPublicSite.description,
    supportEmail: nonBlank(stored.get('support_email')) ?? defaultPublicSite.supportEmail,
    contactEmail: nonBlank(stored.get('contact_email')) ?? defaultPublicSite.contactEmail,
  };
}

export interface SiteNameOptions {
  /** How long a name read is reused (default one minute, as the other settings). */
  refreshMs?: number;
  now?: () => number;
  /** Told when the setting cannot be read (the fallback is used meanwhile). */
  onError?: (error: unknown) => void;
}

/**
 * The site's name as account mail gives it: the `site_name` setting, read
 * again after `refreshMs`, else `fallback` (the deployment's SITE_NAME). A
 * setting that cannot be read never stops a mail: the last name read, or the
 * fallback, stands in and the next mail tries again.
 */
export function siteNameSource(
  settings: Pick<SettingsRepository, 'get'>,
  fallback: string,
  options: SiteNameOptions = {},
): () => Promise<string> {
  const refreshMs = options.refreshMs ?? 60_000;
  const now = options.now ?? Date.now;
  let cached: { name: string; at: number } | undefined;
  return async () => {
    if (cached && now() - cached.at < refreshMs) return cached.name;
    try {
      const name = nonBlank((await settings.get('site_name'))?.value) ?? fallback;
      cached = { name, at: now() };
      return name;
    } catch (error) {
      options.onError?.(error);
      return cached?.name ?? fallback;
    }
  };
}

import { defaultSettings, type SettingKey } from '@tunesmith/shared/settings';

function defaultSetting(key: SettingKey): string {
  return defaultSettings.find((setting) => setting.key === key)?.value ?? '';
}

/** Public site details. Defaults until site settings are served to the browser. */
export const site = {
  name: defaultSetting('site_name'),
  supportEmail: defaultSetting('support_email'),
  contactEmail: defaultSetting('contact_email'),
} as const;

import { defaultSettings, type SettingKey, secretSettingKeys } from '@tunesmith/shared/settings';

export interface Setting {
  key: SettingKey;
  value: string;
  description: string;
  type: string;
  category: string;
  updatedAt: string;
}

/** Storage port for site settings. */
export interface SettingsRepository {
  list(): Promise<Setting[]>;
  get(key: SettingKey): Promise<Setting | undefined>;
  put(setting: Setting): Promise<void>;
  /** Writes the setting only when no value is stored for its key yet. */
  putIfAbsent(setting: Setting): Promise<boolean>;
}

/** The default settings as records stamped with `now`. */
export function seedSettings(now: string): Setting[] {
  return defaultSettings.map((s) => ({ ...s, updatedAt: now }));
}

/** Whether a setting's value must never be sent to a browser. */
export function isSecretSetting(key: SettingKey): boolean {
  return secretSettingKeys.includes(key);
}

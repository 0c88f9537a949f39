import { type AdminSetting, type AdminUpdateSettingInput, adminMessages } from '@tunesmith/shared/admin';
import { defaultSettings } from '@tunesmith/shared/settings';
import type { AdminUser } from '../accounts/admin';
import { DomainError, validationError } from '../errors';
import { isSecretSetting, type Setting, type SettingsRepository } from '../settings/settings';
import { audit } from './audit';
import type { AdminDeps, SecretBox } from './ports';

/** Every known setting; a secret's value is never returned, only whether one is stored. */
export async function listSettings(deps: Pick<AdminDeps, 'storedSettings'>): Promise<AdminSetting[]> {
  const stored = new Map((await deps.storedSettings.list()).map((s) => [s.key, s]));
  return defaultSettings.map((meta) => {
    const setting = stored.get(meta.key);
    const value = setting?.value ?? '';
    const secret = isSecretSetting(meta.key);
    return {
      key: meta.key,
      value: secret ? '' : value,
      secret,
      isSet: value !== '',
      description: meta.description,
      type: meta.type,
      category: meta.category,
      updatedAt: setting?.updatedAt ?? null,
    };
  });
}

/**
 * A Stripe secret key is tried against Stripe before it is stored: one that
 * Stripe refuses is a 400, and one that cannot be checked (Stripe out of
 * reach) a 503; either way nothing is written. Clearing the key is not checked.
 */
async function checkKey(deps: Pick<AdminDeps, 'stripeKeyCheck'>, input: AdminUpdateSettingInput) {
  if (input.key !== 'stripe_secret_key' || input.value === '') return;
  const verdict = await deps.stripeKeyCheck.checkSecretKey(input.value);
  if (verdict === 'refused') throw validationError(adminMessages.stripeKeyRefused, { field: 'value' });
  if (verdict === 'unreachable') throw new DomainError('unavailable', adminMessages.stripeKeyUnchecked);
}

/**
 * Stores one setting (secrets sealed by the repository), after checking a
 * Stripe secret key with Stripe; the audit names the key, never the value.
 */
export async function updateSetting(
  deps: Pick<AdminDeps, 'settings' | 'audit' | 'clock' | 'newId' | 'stripeKeyCheck'>,
  admin: Pick<AdminUser, 'username'>,
  input: AdminUpdateSettingInput,
): Promise<AdminSetting> {
  const meta = defaultSettings.find((s) => s.key === input.key);
  if (!meta) throw validationError(adminMessages.unknownSetting, { field: 'key' });
  await checkKey(deps, input);
  const stamp = deps.clock.now().toISOString();
  await deps.settings.put({
    key: meta.key,
    value: input.value,
    description: meta.description,
    type: meta.type,
    category: meta.category,
    updatedAt: stamp,
  });
  const secret = isSecretSetting(meta.key);
  const what = secret ? (input.value ? 'Set' : 'Cleared') : 'Updated';
  await audit(deps, admin, 'setting.update', meta.key, `${what} ${meta.key}`);
  return {
    key: meta.key,
    value: secret ? '' : input.value,
    secret,
    isSet: input.value !== '',
    description: meta.description,
    type: meta.type,
    category: meta.category,
    updatedAt: stamp,
  };
}

/**
 * Settings whose secret values are sealed before they are stored and opened
 * when read, so the table (and its exports and backups) never holds them in
 * the clear. Values stored before sealing existed are read as they are.
 */
export function sealedSettings(repository: SettingsRepository, box: SecretBox): SettingsRepository {
  const open = async (setting: Setting): Promise<Setting> =>
    isSecretSetting(setting.key) && setting.value !== ''
      ? { ...setting, value: await box.open(setting.value, setting.key) }
      : setting;
  const seal = async (setting: Setting): Promise<Setting> =>
    isSecretSetting(setting.key) && setting.value !== ''
      ? { ...setting, value: await box.seal(setting.value, setting.key) }
      : setting;
  return {
    list: async () => Promise.all((await repository.list()).map(open)),
    get: async (key) => {
      const setting = await repository.get(key);
      return setting ? open(setting) : undefined;
    },
    put: async (setting) => repository.put(await seal(setting)),
    putIfAbsent: async (setting) => repository.putIfAbsent(await seal(setting)),
  };
}

import { zodResolver } from '@hookform/resolvers/zod';
import {
  type AdminSetting,
  type AdminUpdateSettingInput,
  adminToasts,
  adminUpdateSettingSchema,
} from '@tunesmith/shared/admin';
import { useId } from 'react';
import { useForm } from 'react-hook-form';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { PasswordInput } from '@/components/ui/password-input';
import { ApiError, serverMessage } from '@/lib/api-client';
import { toast } from '@/lib/toast';
import { useSaveSetting } from '../api/settings';

/**
 * One setting with its own Save button. A secret is never shown: the field
 * starts empty, says whether a value is stored, and replaces it when saved.
 */
export function SettingField({ setting, label }: { setting: AdminSetting; label: string }) {
  const id = useId();
  const save = useSaveSetting();
  const form = useForm<AdminUpdateSettingInput>({
    resolver: zodResolver(adminUpdateSettingSchema),
    defaultValues: { key: setting.key, value: setting.secret ? '' : setting.value },
  });
  const error = form.formState.errors.value?.message;
  const hintId = `${id}-hint`;

  const submit = form.handleSubmit((input) =>
    save.mutate(input, {
      onSuccess: () => {
        toast({ title: 'Setting Saved', description: `${label} was saved.` });
        if (setting.secret) form.reset({ key: setting.key, value: '' });
        else form.reset(input);
      },
      onError: (failure) => {
        const message = serverMessage(failure, adminToasts.failedUpdateSetting);
        // A refused value (a key Stripe does not know) is said beside the field too.
        if (failure instanceof ApiError && failure.status === 400) form.setError('value', { message });
        toast({ title: adminToasts.error, description: message, variant: 'destructive' });
      },
    }),
  );
  const checksWithStripe = setting.key === 'stripe_secret_key';

  const describedBy = [error ? `${id}-error` : null, hintId].filter(Boolean).join(' ');
  return (
    <form onSubmit={submit} noValidate className="grid gap-2" aria-label={label}>
      <label htmlFor={id} className="text-sm font-medium text-zinc-200">
        {label}
      </label>
      <div className="flex gap-2">
        <div className="flex-1">
          {setting.secret ? (
            <PasswordInput
              id={id}
              toggleLabel={label}
              autoComplete="off"
              placeholder={setting.isSet ? '•••••••• (stored; type to replace)' : 'Not set'}
              aria-invalid={error ? true : undefined}
              aria-describedby={describedBy}
              {...form.register('value')}
            />
          ) : (
            <Input
              id={id}
              aria-invalid={error ? true : undefined}
              aria-describedby={describedBy}
              {...form.register('value')}
            />
          )}
        </div>
        <Button type="submit" disabled={save.isPending}>
          {save.isPending ? (checksWithStripe ? 'Checking with Stripe...' : 'Saving...') : 'Save'}
        </Button>
      </div>
      {error ? (
        <p id={`${id}-error`} className="text-sm text-red-300">
          {error}
        </p>
      ) : null}
      <p id={hintId} className="text-xs text-zinc-400">
        {setting.secret ? (setting.isSet ? 'Set' : 'Not set') : setting.description}
        {setting.secret ? ' · never shown again after saving; save an empty value to clear it.' : ''}
        {checksWithStripe ? ' Stripe is asked whether the key works before it is saved.' : ''}
      </p>
    </form>
  );
}

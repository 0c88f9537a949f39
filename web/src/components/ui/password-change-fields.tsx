import type { FieldInputProps } from '@/lib/use-form';
import { FormField } from './form-field';
import { PasswordInput } from './password-input';

type PasswordField = 'currentPassword' | 'newPassword' | 'confirmPassword';

interface FieldProps {
  register: (name: PasswordField) => FieldInputProps;
  fieldMeta: (name: PasswordField) => { htmlFor: string; error: string | undefined; errorId: string };
}

export interface PasswordChangeFieldsProps {
  /** The form's `register` and `fieldMeta` (see `useForm`). */
  form: FieldProps;
  /** The shortest new password the rules allow (8 for users, 6 for admins). */
  minLength: number;
}

/** Current, new and confirm password fields, each with its own show/hide toggle. */
export function PasswordChangeFields({ form, minLength }: PasswordChangeFieldsProps) {
  return (
    <>
      <FormField label="Current Password" {...form.fieldMeta('currentPassword')}>
        <PasswordInput
          {...form.register('currentPassword')}
          required
          autoComplete="current-password"
          toggleLabel="current password"
        />
      </FormField>
      <FormField label="New Password" {...form.fieldMeta('newPassword')}>
        <PasswordInput
          {...form.register('newPassword')}
          required
          minLength={minLength}
          autoComplete="new-password"
          toggleLabel="new password"
        />
      </FormField>
      <FormField label="Confirm New Password" {...form.fieldMeta('confirmPassword')}>
        <PasswordInput
          {...form.register('confirmPassword')}
          required
          minLength={minLength}
          autoComplete="new-password"
          toggleLabel="confirm password"
        />
      </FormField>
    </>
  );
}

import { authMessages, updatePasswordSchema } from '@tunesmith/shared/auth';
import { PASSWORD_MIN_LENGTH } from '@tunesmith/shared/constants';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader } from '@/components/ui/card';
import { PasswordChangeFields } from '@/components/ui/password-change-fields';
import { serverMessage } from '@/lib/api-client';
import { toast } from '@/lib/toast';
import { type FormErrors, useForm, type Validator, zodValidator } from '@/lib/use-form';
import { useUnauthorizedHandler } from '@/lib/use-unauthorized';
import { useUpdatePassword } from '../api/update-password';

type Field = 'currentPassword' | 'newPassword' | 'confirmPassword';
interface PasswordChange {
  currentPassword: string;
  newPassword: string;
}

const checkPasswords = zodValidator<Field, PasswordChange>(updatePasswordSchema);

/** All three required; the new password at least 8 characters and confirmed. */
const validatePasswordChange: Validator<Field, PasswordChange> = (values) => {
  const result = checkPasswords(values);
  const errors: FormErrors<Field> = result.success ? {} : { ...result.errors };
  if (!values.confirmPassword) errors.confirmPassword = authMessages.confirmRequired;
  else if (values.confirmPassword !== values.newPassword)
    errors.confirmPassword = authMessages.passwordMismatch;
  if (result.success && !errors.confirmPassword) return result;
  return { success: false, errors };
};

const emptyForm: Record<Field, string> = { currentPassword: '', newPassword: '', confirmPassword: '' };

/** Changes the password. This session stays signed in; other sessions end. */
export function UpdatePasswordForm() {
  const handleUnauthorized = useUnauthorizedHandler();
  const form = useForm<Field, PasswordChange>(emptyForm, validatePasswordChange);

  const update = useUpdatePassword({
    onSuccess: () => {
      form.reset();
      toast({ title: authMessages.passwordUpdated });
    },
    onError: (error) => {
      if (handleUnauthorized(error)) return;
      toast({
        title: 'Failed to update password',
        description: serverMessage(error, 'Please try again.'),
        variant: 'destructive',
      });
    },
  });

  return (
    <Card>
      <CardHeader>
        <h2 className="text-xl font-semibold text-white">Update Password</h2>
        <p className="text-sm text-zinc-400">
          Use at least 8 characters. Your other devices will be signed out.
        </p>
      </CardHeader>
      <CardContent>
        <form
          noValidate
          aria-label="Update password"
          onSubmit={form.handleSubmit((data) => {
            if (!update.isPending) update.mutate(data);
          })}
          className="grid gap-4"
        >
          <PasswordChangeFields form={form} minLength={PASSWORD_MIN_LENGTH} />
          <Button type="submit" disabled={update.isPending} className="justify-self-start">
            {update.isPending ? 'Updating...' : 'Update Password'}
          </Button>
        </form>
      </CardContent>
    </Card>
  );
}

import { useQueryClient } from '@tanstack/react-query';
import { adminChangePasswordSchema, authMessages } from '@tunesmith/shared/auth';
import { ADMIN_PASSWORD_MIN_LENGTH } from '@tunesmith/shared/constants';
import { useNavigate } from 'react-router';
import { Button } from '@/components/ui/button';
import { PasswordChangeFields } from '@/components/ui/password-change-fields';
import { clearAdminSession } from '@/lib/admin-auth';
import { serverMessage } from '@/lib/api-client';
import { toast } from '@/lib/toast';
import { useForm } from '@/lib/use-form';
import { useUnauthorizedHandler } from '@/lib/use-unauthorized';
import { type ChangeAdminPasswordInput, useChangeAdminPassword } from '../api/change-admin-password';

type Field = keyof ChangeAdminPasswordInput;

const emptyForm: Record<Field, string> = { currentPassword: '', newPassword: '', confirmPassword: '' };

/** Security tab: changes the admin password, which signs out every admin session. */
export function ChangePasswordForm() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const handleUnauthorized = useUnauthorizedHandler('admin');
  const form = useForm<Field, ChangeAdminPasswordInput>(emptyForm, adminChangePasswordSchema);

  const change = useChangeAdminPassword({
    onSuccess: (answer) => {
      form.reset();
      toast({ title: 'Password updated', description: answer.message || authMessages.adminPasswordChanged });
      clearAdminSession(queryClient);
      navigate('/admin/login', { replace: true });
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
    <form
      noValidate
      aria-label="Change admin password"
      onSubmit={form.handleSubmit((data) => {
        if (!change.isPending) change.mutate(data);
      })}
      className="grid max-w-lg gap-5"
    >
      <p
        role="note"
        className="rounded-lg border border-amber-400/40 bg-amber-500/10 p-3 text-sm text-amber-100"
      >
        Changing your password logs out all active sessions, including this one. You will need to sign in
        again with the new password.
      </p>
      <PasswordChangeFields form={form} minLength={ADMIN_PASSWORD_MIN_LENGTH} />
      <Button type="submit" disabled={change.isPending} className="justify-self-start">
        {change.isPending ? 'Updating...' : 'Update Password'}
      </Button>
    </form>
  );
}

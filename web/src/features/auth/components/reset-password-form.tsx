import { authMessages, resetPasswordFormSchema } from '@tunesmith/shared/auth';
import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { Button, buttonClasses } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { FormField } from '@/components/ui/form-field';
import { Icon } from '@/components/ui/icon';
import { PasswordInput } from '@/components/ui/password-input';
import { serverMessage } from '@/lib/api-client';
import { toast } from '@/lib/toast';
import { useForm } from '@/lib/use-form';
import { useResetPassword } from '../api/reset-password';

/** Tokens we mail are long and URL-safe; anything else was mangled on the way. */
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{20,}$/;

export function isWellFormedResetToken(token: string | undefined): token is string {
  return typeof token === 'string' && TOKEN_PATTERN.test(token);
}

type Field = 'password' | 'confirmPassword';

/** Sets a new password with the token from the mailed link. */
export function ResetPasswordForm({ token }: { token: string | undefined }) {
  const navigate = useNavigate();
  const valid = isWellFormedResetToken(token);
  const redirected = useRef(false);
  const [doneMessage, setDoneMessage] = useState<string | null>(null);
  const form = useForm<Field, { password: string; confirmPassword: string }>(
    { password: '', confirmPassword: '' },
    resetPasswordFormSchema,
  );

  useEffect(() => {
    if (valid || redirected.current) return;
    redirected.current = true;
    toast({
      title: 'Invalid Reset Link',
      description: 'This password reset link is invalid or malformed.',
      variant: 'destructive',
    });
    navigate('/auth', { replace: true });
  }, [valid, navigate]);

  const reset = useResetPassword({
    onSuccess: () => {
      form.reset();
      setDoneMessage(authMessages.resetDone);
    },
    onError: (error) =>
      toast({
        title: 'Reset Failed',
        description: serverMessage(error, 'Failed to reset password. The link may be expired.'),
        variant: 'destructive',
      }),
  });

  if (!valid) return null;

  if (doneMessage) {
    return (
      <Card className="p-6 text-center sm:p-8">
        <div
          aria-hidden="true"
          className="mx-auto grid size-14 place-items-center rounded-full bg-emerald-500/20 text-emerald-300"
        >
          <Icon className="size-7" strokeWidth="2.5" d="M5 12l5 5L19 7" />
        </div>
        <h1 className="mt-5 text-3xl font-bold text-white">Password Reset Complete</h1>
        <p className="mt-3 text-zinc-300">{doneMessage}</p>
        <Link to="/auth" className={buttonClasses('primary', 'lg', 'mt-8 w-full')}>
          Go to Sign In
        </Link>
      </Card>
    );
  }

  return (
    <Card className="p-6 sm:p-8">
      <h1 className="text-3xl font-bold text-white">Set a New Password</h1>
      <p className="mt-2 text-zinc-300">Choose a new password with at least 8 characters.</p>
      <form
        noValidate
        aria-label="Set a new password"
        onSubmit={form.handleSubmit((data) => {
          if (!reset.isPending) reset.mutate({ token, newPassword: data.password });
        })}
        className="mt-6 grid gap-5"
      >
        <FormField label="New Password" {...form.fieldMeta('password')}>
          <PasswordInput
            {...form.register('password')}
            autoComplete="new-password"
            toggleLabel="new password"
          />
        </FormField>
        <FormField label="Confirm Password" {...form.fieldMeta('confirmPassword')}>
          <PasswordInput
            {...form.register('confirmPassword')}
            autoComplete="new-password"
            toggleLabel="confirm password"
          />
        </FormField>
        <Button type="submit" size="lg" disabled={reset.isPending} className="w-full">
          {reset.isPending ? 'Resetting...' : 'Reset Password'}
        </Button>
      </form>
      <div className="mt-6 text-center">
        <Link
          to="/auth"
          className="rounded text-sm font-medium text-violet-300 hover:text-violet-200 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-violet-300"
        >
          Back to Sign In
        </Link>
      </div>
    </Card>
  );
}

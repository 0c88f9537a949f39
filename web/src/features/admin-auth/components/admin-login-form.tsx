import { type AdminSecondFactor, adminLoginSchema, authMessages } from '@tunesmith/shared/auth';
import { useEffect, useRef } from 'react';
import { useNavigate } from 'react-router';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { PasswordInput } from '@/components/ui/password-input';
import { serverMessage } from '@/lib/api-client';
import { toast } from '@/lib/toast';
import { useForm } from '@/lib/use-form';
import { useAdminLogin } from '../api/admin-login';

type Field = 'username' | 'password';

/** Said when the administrator signed in: the spec's success toast. */
export const welcomeAdmin = () =>
  toast({ title: 'Login successful', description: 'Welcome to the admin dashboard' });

/**
 * The administrator sign-in form: username and password. A right password
 * leads to the second factor (`onSecondFactor`). `returned` says the form is
 * shown again after a second factor that ended, so focus goes back to it.
 */
export function AdminLoginForm({
  onSecondFactor,
  returned = false,
}: {
  onSecondFactor: (step: AdminSecondFactor) => void;
  returned?: boolean;
}) {
  const navigate = useNavigate();
  const heading = useRef<HTMLHeadingElement>(null);
  const form = useForm<Field, { username: string; password: string }>(
    { username: '', password: '' },
    adminLoginSchema,
  );

  useEffect(() => {
    if (returned) heading.current?.focus();
  }, [returned]);

  const login = useAdminLogin({
    onSecondFactor,
    onSignedIn: () => {
      welcomeAdmin();
      navigate('/admin', { replace: true });
    },
    onError: (error) =>
      toast({
        title: 'Login failed',
        description: serverMessage(error, authMessages.adminInvalidCredentials),
        variant: 'destructive',
      }),
  });

  return (
    <Card className="w-full max-w-md p-6 sm:p-8">
      <h1 ref={heading} tabIndex={-1} className="text-2xl font-bold text-white focus:outline-none">
        Admin Sign In
      </h1>
      <p className="mt-1 text-sm text-zinc-300">Sign in to manage Tunesmith.</p>
      <form
        noValidate
        aria-label="Admin sign in"
        onSubmit={form.handleSubmit((data) => {
          if (!login.isPending) login.mutate(data);
        })}
        className="mt-6 grid gap-5"
      >
        <FormField label="Username" {...form.fieldMeta('username')}>
          <Input {...form.register('username')} autoComplete="username" autoCapitalize="none" required />
        </FormField>
        <FormField label="Password" {...form.fieldMeta('password')}>
          <PasswordInput {...form.register('password')} autoComplete="current-password" required />
        </FormField>
        <Button type="submit" size="lg" disabled={login.isPending} className="w-full">
          {login.isPending ? 'Signing In...' : 'Sign In'}
        </Button>
      </form>
    </Card>
  );
}

import type { LoginInput } from '@tunesmith/shared/auth';
import { authMessages } from '@tunesmith/shared/auth-messages';
import { lazy, Suspense, useState } from 'react';
import { useNavigate } from 'react-router';
import { Button } from '@/components/ui/button';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { PasswordInput } from '@/components/ui/password-input';
import { serverMessage } from '@/lib/api-client';
import { noteSignIn } from '@/lib/first-sign-in';
import { toast } from '@/lib/toast';
import { lazySchema, useForm } from '@/lib/use-form';
import { useLogin } from '../api/login';
import { clearPendingNext, savePendingVerification } from '../utils/pending-verification';

/** The reset dialog and the dialog primitives arrive when Forgot Password? is first pressed, not with the page. */
const ForgotPasswordDialog = lazy(() =>
  import('./forgot-password-dialog').then((m) => ({ default: m.ForgotPasswordDialog })),
);

const VERIFY_EMAIL_HINT = 'verify your email';

/** The sign-in schema, loaded once the form is used: the page paints and starts without the schema library. */
const loginValidation = lazySchema(() => import('@tunesmith/shared/auth').then((m) => m.loginSchema));

export interface LoginFormProps {
  /** A path on this site to go to after signing in (checked by the caller); home otherwise. */
  next?: string | null;
}

/** The Sign In tab: email and password, Forgot Password? and what signing in leads to. */
export function LoginForm({ next }: LoginFormProps) {
  const navigate = useNavigate();
  const [forgotOpen, setForgotOpen] = useState(false);
  // Mounted from its first opening on, so it stays mounted and closes as a dialog does.
  const [forgotAsked, setForgotAsked] = useState(false);
  const form = useForm<keyof LoginInput, LoginInput>({ email: '', password: '' }, loginValidation);

  const login = useLogin({
    onSuccess: (user) => {
      // 'Welcome back!' (the spec's toast) is for someone who has been here before.
      const title = noteSignIn(user) ? 'Welcome!' : 'Welcome back!';
      toast({ title, description: 'You have successfully logged in.' });
      clearPendingNext();
      navigate(next ?? '/', { replace: true });
    },
    onError: (error, { email }) => {
      if (error.message.toLowerCase().includes(VERIFY_EMAIL_HINT)) {
        savePendingVerification({ email, next });
        toast({
          title: 'Email Verification Required',
          description: 'Please check your email and click the verification link before logging in.',
          variant: 'destructive',
        });
        navigate('/check-email', { state: { email } });
        return;
      }
      toast({
        title: 'Login failed',
        description: serverMessage(error, authMessages.invalidCredentials),
        variant: 'destructive',
      });
    },
  });

  return (
    <>
      <form
        noValidate
        aria-label="Sign in"
        onSubmit={form.handleSubmit((data) => {
          if (!login.isPending) login.mutate(data);
        })}
        className="grid gap-5"
      >
        <FormField label="Email" {...form.fieldMeta('email')}>
          <Input
            {...form.register('email')}
            type="email"
            autoComplete="email"
            inputMode="email"
            placeholder="you@example.com"
          />
        </FormField>
        <FormField
          label="Password"
          {...form.fieldMeta('password')}
          labelAction={
            <button
              type="button"
              onClick={() => {
                setForgotAsked(true);
                setForgotOpen(true);
              }}
              className="rounded text-sm font-medium text-violet-300 hover:text-violet-200 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-violet-300"
            >
              Forgot Password?
            </button>
          }
        >
          <PasswordInput {...form.register('password')} autoComplete="current-password" />
        </FormField>
        <Button type="submit" size="lg" disabled={login.isPending} className="w-full">
          {login.isPending ? 'Signing In...' : 'Sign In'}
        </Button>
      </form>
      {forgotAsked ? (
        <Suspense fallback={null}>
          <ForgotPasswordDialog open={forgotOpen} onClose={() => setForgotOpen(false)} />
        </Suspense>
      ) : null}
    </>
  );
}

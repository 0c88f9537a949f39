import { resendVerificationSchema } from '@tunesmith/shared/auth';
import { type FormEvent, useEffect, useState } from 'react';
import { Link, useLocation } from 'react-router';
import { Button, buttonClasses } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { FormField } from '@/components/ui/form-field';
import { Icon } from '@/components/ui/icon';
import { Input } from '@/components/ui/input';
import { serverMessage } from '@/lib/api-client';
import { signInPath } from '@/lib/return-path';
import { toast } from '@/lib/toast';
import { useForm, zodValidator } from '@/lib/use-form';
import { useResendVerification } from '../api/resend-verification';
import {
  clearPendingVerification,
  readPendingNext,
  readPendingVerification,
} from '../utils/pending-verification';

interface PendingState {
  email?: unknown;
  firstName?: unknown;
}

const text = (value: unknown) => (typeof value === 'string' ? value.trim() : '');

const validateResend = zodValidator<'email', { email: string }>(resendVerificationSchema);

/** After signing up: where the link went, what to do, and a way to get a new one. */
export function CheckEmail() {
  const location = useLocation();
  // Read once and kept in state: the storage entries are removed right after.
  const [pending] = useState(() => {
    const state = (location.state ?? {}) as PendingState;
    const stored = readPendingVerification();
    return {
      email: text(state.email) || stored.email,
      firstName: text(state.firstName) || stored.firstName,
      // Left in storage for the verify-email page, which may open in another tab.
      next: readPendingNext(),
    };
  });
  useEffect(() => {
    clearPendingVerification();
  }, []);

  const form = useForm<'email', { email: string }>({ email: pending.email }, validateResend);
  const resend = useResendVerification({
    onSuccess: () =>
      toast({
        title: 'Email Sent',
        description: 'A new verification email has been sent. Check your inbox.',
      }),
    onError: (error) =>
      toast({
        title: 'Failed to Send Email',
        description: serverMessage(error, 'Could not send verification email. Please try again.'),
        variant: 'destructive',
      }),
  });

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (resend.isPending) return;
    const result = validateResend(form.values);
    if (!result.success) {
      form.showErrors(result.errors);
      const empty = form.values.email.trim() === '';
      toast({
        title: empty ? 'Email Required' : 'Invalid Email',
        description: result.errors.email ?? '',
        variant: 'destructive',
      });
      return;
    }
    resend.mutate(result.data);
  };

  return (
    <div className="mx-auto grid max-w-xl px-4 py-16 sm:py-24">
      <Card className="p-6 sm:p-8">
        <div
          aria-hidden="true"
          className="mx-auto grid size-14 place-items-center rounded-full bg-gradient-to-br from-violet-500 to-fuchsia-500 text-white"
        >
          <Icon className="size-7">
            <rect x="3" y="5" width="18" height="14" rx="2" />
            <path d="M3 7l9 6 9-6" />
          </Icon>
        </div>
        <h1 className="mt-5 text-center text-3xl font-bold text-white">Check Your Email</h1>
        <p className="mt-3 text-center text-zinc-300">
          Hi {pending.firstName || 'there'}, we sent a verification link to{' '}
          {pending.email ? (
            <strong className="font-semibold break-all text-white">{pending.email}</strong>
          ) : (
            'your email address'
          )}
          .
        </p>
        <ul className="mt-6 grid gap-2 rounded-xl border border-white/10 bg-zinc-950/40 p-4 text-sm text-zinc-300">
          <li>Click the link in the email to verify your account.</li>
          <li>Can't find it? Check your spam or junk folder.</li>
          <li>The link expires in 24 hours.</li>
        </ul>

        <form noValidate aria-label="Resend verification email" onSubmit={submit} className="mt-6 grid gap-4">
          <FormField label="Email" {...form.fieldMeta('email')}>
            <Input
              {...form.register('email')}
              type="email"
              autoComplete="email"
              inputMode="email"
              placeholder="you@example.com"
            />
          </FormField>
          <Button type="submit" disabled={resend.isPending} className="w-full">
            {resend.isPending ? 'Sending...' : 'Resend Verification Email'}
          </Button>
        </form>

        <div className="mt-6 flex flex-wrap justify-center gap-3">
          <Link to="/" className={buttonClasses('ghost')}>
            Back to Home
          </Link>
          <Link to={signInPath(pending.next)} className={buttonClasses('outline')}>
            Go to Sign In
          </Link>
        </div>
      </Card>
    </div>
  );
}

import {
  type AdminCodeInput,
  type AdminSecondFactor,
  adminCodeSchema,
  authMessages,
} from '@tunesmith/shared/auth';
import { TOTP_CODE_LENGTH } from '@tunesmith/shared/constants';
import { lazy, Suspense, useEffect, useId, useRef } from 'react';
import { useNavigate } from 'react-router';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Skeleton } from '@/components/ui/skeleton';
import { ApiError, serverMessage } from '@/lib/api-client';
import { toast } from '@/lib/toast';
import { useForm } from '@/lib/use-form';
import { useAdminLoginCode } from '../api/admin-login-code';
import { welcomeAdmin } from './admin-login-form';

// The QR encoder loads with the setup step only: an admin who has an authenticator never downloads it.
const QrCode = lazy(() => import('./qr-code'));

/** A base32 key in groups of four, as authenticator apps show and take it. */
export const keyInGroups = (secret: string) => secret.match(/.{1,4}/g)?.join(' ') ?? secret;

/**
 * The second step of an administrator's sign-in (decision 036): setting up
 * an authenticator app (a QR code of the `otpauth://` URI, and the key typed
 * out for apps that cannot scan) and then its code; or only the code. The
 * step's heading (setup) or its code field takes the focus when it opens.
 * A sign-in that is over (expired), or Back to Sign In, goes back to the
 * password with `onRestart`.
 */
export function SecondFactorForm({ step, onRestart }: { step: AdminSecondFactor; onRestart: () => void }) {
  const navigate = useNavigate();
  const heading = useRef<HTMLHeadingElement>(null);
  const headingId = useId();
  const form = useForm<'code', AdminCodeInput>({ code: '' }, adminCodeSchema);
  const setup = step.secondFactor === 'setup' ? step : undefined;

  const isSetup = setup !== undefined;
  const codeFieldId = form.fieldMeta('code').htmlFor;
  // When the step opens: the setup's heading (its instructions come first), else the code field.
  useEffect(() => {
    if (isSetup) heading.current?.focus();
    else document.getElementById(codeFieldId)?.focus();
  }, [isSetup, codeFieldId]);

  const verify = useAdminLoginCode({
    onSignedIn: () => {
      welcomeAdmin();
      navigate('/admin', { replace: true });
    },
    onError: (error) => {
      const message = serverMessage(error, authMessages.codeWrong);
      toast({ title: 'Login failed', description: message, variant: 'destructive' });
      if (error instanceof ApiError && error.status === 401) return onRestart();
      form.setValue('code', '');
      if (error instanceof ApiError && error.status === 400) form.showErrors({ code: message });
    },
  });

  return (
    <Card className="w-full max-w-md p-6 sm:p-8">
      <h1
        ref={heading}
        id={headingId}
        tabIndex={-1}
        className="text-2xl font-bold text-white focus:outline-none"
      >
        {setup ? 'Set Up Two-Factor Authentication' : 'Two-Factor Authentication'}
      </h1>
      {setup ? (
        <div className="mt-2 grid gap-4 text-sm text-zinc-300">
          <p>
            Scan this QR code with an authenticator app (such as Google Authenticator, 1Password or Authy), or
            enter the key below. Then type the {TOTP_CODE_LENGTH}-digit code the app shows.
          </p>
          <div className="mx-auto size-48 overflow-hidden rounded-lg bg-white p-2">
            <Suspense fallback={<Skeleton className="size-full" />}>
              <QrCode
                value={setup.otpauthUri}
                label="QR code of your authenticator key"
                className="size-full"
              />
            </Suspense>
          </div>
          <dl className="grid gap-1">
            <dt className="font-medium text-zinc-100">Key</dt>
            <dd>
              <code className="block rounded-md bg-zinc-950/60 px-3 py-2 font-mono text-base tracking-wider break-words text-white select-all">
                {keyInGroups(setup.secret)}
              </code>
            </dd>
            <dd>
              <a href={setup.otpauthUri} className="text-violet-300 underline hover:text-violet-200">
                Open in an authenticator app on this device
              </a>
            </dd>
          </dl>
        </div>
      ) : (
        <p className="mt-1 text-sm text-zinc-300">
          Enter the {TOTP_CODE_LENGTH}-digit code from your authenticator app.
        </p>
      )}
      <form
        noValidate
        aria-labelledby={headingId}
        onSubmit={form.handleSubmit((data) => {
          if (!verify.isPending) verify.mutate(data);
        })}
        className="mt-6 grid gap-5"
      >
        <FormField label="Authentication Code" {...form.fieldMeta('code')}>
          <Input
            {...form.register('code')}
            autoComplete="one-time-code"
            inputMode="numeric"
            pattern="[0-9 ]*"
            maxLength={TOTP_CODE_LENGTH + 1}
            required
          />
        </FormField>
        <Button type="submit" size="lg" disabled={verify.isPending} className="w-full">
          {verify.isPending ? 'Verifying...' : 'Verify'}
        </Button>
        <Button type="button" variant="ghost" onClick={onRestart} className="w-full">
          Back to Sign In
        </Button>
      </form>
    </Card>
  );
}

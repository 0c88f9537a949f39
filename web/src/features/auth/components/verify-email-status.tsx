import { authMessages } from '@tunesmith/shared/auth';
import { type ReactNode, useEffect, useState } from 'react';
import { Link } from 'react-router';
import { buttonClasses } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Icon } from '@/components/ui/icon';
import { Spinner } from '@/components/ui/spinner';
import { ApiError, serverMessage } from '@/lib/api-client';
import { signInPath } from '@/lib/return-path';
import { useVerifyEmail } from '../api/verify-email';
import { clearPendingNext, readPendingNext } from '../utils/pending-verification';

const MISSING_TOKEN = 'Invalid verification link. Please check your email for the correct link.';
const NETWORK_ERROR = 'An error occurred during verification. Please try again.';
const DEFAULT_ERROR = 'Something went wrong during email verification.';

type Outcome =
  | { state: 'loading' }
  | { state: 'success'; firstName: string; message: string }
  | { state: 'expired'; message: string }
  | { state: 'error'; message: string };

function isExpired(error: unknown): boolean {
  if (!(error instanceof ApiError)) return false;
  try {
    const body: unknown = JSON.parse(error.body);
    return Boolean(body && typeof body === 'object' && 'expired' in body && body.expired === true);
  } catch {
    return false;
  }
}

function failure(error: unknown): Outcome {
  if (isExpired(error))
    return { state: 'expired', message: serverMessage(error, authMessages.verificationExpired) };
  if (error instanceof ApiError) return { state: 'error', message: serverMessage(error, DEFAULT_ERROR) };
  return { state: 'error', message: NETWORK_ERROR };
}

function StatusCard({
  tone,
  title,
  children,
}: {
  tone: 'success' | 'warning' | 'error';
  title: string;
  children: ReactNode;
}) {
  const icon =
    tone === 'success' ? (
      <path d="M5 12l5 5L19 7" />
    ) : tone === 'warning' ? (
      <>
        <circle cx="12" cy="12" r="9" />
        <path d="M12 7v5l3 2" />
      </>
    ) : (
      <path d="M6 6l12 12M18 6L6 18" />
    );
  return (
    <Card className="p-6 text-center sm:p-8">
      <div
        aria-hidden="true"
        className={
          tone === 'success'
            ? 'mx-auto grid size-14 place-items-center rounded-full bg-emerald-500/20 text-emerald-300'
            : tone === 'warning'
              ? 'mx-auto grid size-14 place-items-center rounded-full bg-amber-500/20 text-amber-300'
              : 'mx-auto grid size-14 place-items-center rounded-full bg-red-500/20 text-red-300'
        }
      >
        <Icon className="size-7" strokeWidth="2.5">
          {icon}
        </Icon>
      </div>
      <h1 className="mt-5 text-3xl font-bold text-white">{title}</h1>
      {children}
    </Card>
  );
}

/** Confirms the address from the mailed link: loading, then success, expired or error. */
export function VerifyEmailStatus({ token }: { token: string | undefined }) {
  const cleanToken = token?.trim() ?? '';
  const query = useVerifyEmail(cleanToken, cleanToken !== '');
  // A plan chosen on Pricing before signing up: Continue to Login carries it to the sign-in page.
  const [next] = useState(readPendingNext);
  const verified = query.isSuccess;
  useEffect(() => {
    // Once verified, the link carries it; an expired link keeps it for the next mail.
    if (verified) clearPendingNext();
  }, [verified]);

  const outcome: Outcome = !cleanToken
    ? { state: 'error', message: MISSING_TOKEN }
    : query.isPending
      ? { state: 'loading' }
      : query.isError
        ? failure(query.error)
        : {
            state: 'success',
            firstName: query.data.user?.firstName?.trim() ?? '',
            message: query.data.message || authMessages.verified,
          };

  return (
    <div className="mx-auto grid max-w-xl px-4 py-16 sm:py-24" aria-live="polite">
      {outcome.state === 'loading' ? (
        <Card className="grid place-items-center gap-4 p-10 text-center">
          <Spinner label="Verifying your email" className="[&>span:first-child]:size-8" />
          <p className="text-zinc-300">Verifying your email...</p>
        </Card>
      ) : outcome.state === 'success' ? (
        <StatusCard tone="success" title="Email Verified!">
          <p className="mt-3 text-lg text-white">
            Welcome{outcome.firstName ? `, ${outcome.firstName}` : ''}!
          </p>
          <p className="mt-2 text-zinc-300">{outcome.message}</p>
          <Link to={signInPath(next)} className={buttonClasses('primary', 'lg', 'mt-8 w-full')}>
            Continue to Login
          </Link>
        </StatusCard>
      ) : outcome.state === 'expired' ? (
        <StatusCard tone="warning" title="Link Expired">
          <p className="mt-3 text-zinc-300">{outcome.message}</p>
          <Link to="/check-email" className={buttonClasses('primary', 'lg', 'mt-8 w-full')}>
            Request New Verification Email
          </Link>
        </StatusCard>
      ) : (
        <StatusCard tone="error" title="Verification Failed">
          <p className="mt-3 text-zinc-300">{outcome.message}</p>
          <div className="mt-8 grid gap-3">
            <Link to="/check-email" className={buttonClasses('primary', 'lg', 'w-full')}>
              Request New Verification Email
            </Link>
            <Link to="/" className={buttonClasses('ghost', 'md', 'w-full')}>
              Back to Home
            </Link>
          </div>
        </StatusCard>
      )}
    </div>
  );
}

import { Navigate, useSearchParams } from 'react-router';
import { Spinner } from '@/components/ui/spinner';
import { AuthScreen } from '@/features/auth/components/auth-screen';
import { useUser } from '@/lib/auth';
import { pageTitle } from '@/lib/page-title';
import { NEXT_PARAM, safeReturnPath } from '@/lib/return-path';

/**
 * Sign in and sign up. A spinner while the auth state loads; signed-in users go
 * to `?next=` when it is a path on this site, else home.
 */
export default function AuthRoute() {
  const { user, isLoading } = useUser();
  const [params] = useSearchParams();
  const next = safeReturnPath(params.get(NEXT_PARAM));
  if (isLoading) {
    return (
      <div className="grid min-h-[60vh] place-items-center">
        <title>{pageTitle('Sign In / Sign Up')}</title>
        <Spinner label="Checking your sign-in status" className="[&>span:first-child]:size-8" />
      </div>
    );
  }
  if (user) return <Navigate to={next ?? '/'} replace />;
  return (
    <>
      <title>{pageTitle('Sign In / Sign Up')}</title>
      <AuthScreen next={next} />
    </>
  );
}

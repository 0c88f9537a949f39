import { Navigate } from 'react-router';
import { Spinner } from '@/components/ui/spinner';
import { AuthScreen } from '@/features/auth/components/auth-screen';
import { useUser } from '@/lib/auth';
import { pageTitle } from '@/lib/page-title';

/** Sign in and sign up. A spinner while the auth state loads; signed-in users go home. */
export default function AuthRoute() {
  const { user, isLoading } = useUser();
  if (isLoading) {
    return (
      <div className="grid min-h-[60vh] place-items-center">
        <title>{pageTitle('Sign In / Sign Up')}</title>
        <Spinner label="Checking your sign-in status" className="[&>span:first-child]:size-8" />
      </div>
    );
  }
  if (user) return <Navigate to="/" replace />;
  return (
    <>
      <title>{pageTitle('Sign In / Sign Up')}</title>
      <AuthScreen />
    </>
  );
}

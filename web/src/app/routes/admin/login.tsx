import { Navigate } from 'react-router';
import { Spinner } from '@/components/ui/spinner';
import { AdminSignIn } from '@/features/admin-auth/components/admin-sign-in';
import { useAdmin } from '@/lib/admin-auth';
import { pageTitle } from '@/lib/page-title';

/** Admin sign-in (password, then the second factor). An administrator who is already signed in goes to the admin area. */
export default function AdminLoginRoute() {
  const { admin, isLoading } = useAdmin();
  if (admin) return <Navigate to="/admin" replace />;
  return (
    <main id="admin-main" tabIndex={-1} className="grid min-h-dvh place-items-center px-4 py-12">
      <title>{pageTitle('Admin Sign In')}</title>
      {isLoading ? (
        <Spinner label="Checking admin session" className="[&>span:first-child]:size-8" />
      ) : (
        <AdminSignIn />
      )}
    </main>
  );
}

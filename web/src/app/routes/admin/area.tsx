import { Suspense } from 'react';
import { Navigate, Outlet } from 'react-router';
import { AdminLayout } from '@/components/layout/admin-layout';
import { PageFallback } from '@/components/layout/page-fallback';
import { Spinner } from '@/components/ui/spinner';
import { useAdmin } from '@/lib/admin-auth';

/** Guards the admin area: a loading state while the session is checked, the login page without one. */
export default function AdminAreaRoute() {
  const { admin, isLoading } = useAdmin();
  if (isLoading) {
    return (
      <div className="grid min-h-dvh place-items-center">
        <Spinner label="Checking admin session" className="[&>span:first-child]:size-8" />
      </div>
    );
  }
  if (!admin) return <Navigate to="/admin/login" replace />;
  return (
    <AdminLayout admin={admin}>
      {/* The sidebar stays while a section's code loads. */}
      <Suspense fallback={<PageFallback />}>
        <Outlet />
      </Suspense>
    </AdminLayout>
  );
}

import { Outlet } from 'react-router';
import { PageBoundary } from '@/app/page-boundary';
import { AdminShell } from '@/components/layout/admin-shell';

/** Everything under /admin: its own frame, without the public header and footer. */
export function AdminRoot() {
  return (
    <AdminShell>
      <PageBoundary>
        <Outlet />
      </PageBoundary>
    </AdminShell>
  );
}

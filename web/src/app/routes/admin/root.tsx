import { Outlet, ScrollRestoration } from 'react-router';
import { AdminShell } from '@/components/layout/admin-shell';

/** Everything under /admin: its own frame, without the public header and footer. */
export function AdminRoot() {
  return (
    <AdminShell>
      <Outlet />
      <ScrollRestoration />
    </AdminShell>
  );
}

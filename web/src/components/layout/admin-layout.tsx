import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useEffect, useId, useState } from 'react';
import { NavLink, useLocation, useNavigate } from 'react-router';
import { Button } from '@/components/ui/button';
import { MenuToggle } from '@/components/ui/menu-toggle';
import { type Admin, adminLogout, clearAdminSession } from '@/lib/admin-auth';
import { ApiError, serverMessage } from '@/lib/api-client';
import { cn } from '@/lib/cn';
import { useSite } from '@/lib/site';
import { toast } from '@/lib/toast';
import { LogoMark } from './logo';

const sections = [
  { to: '/admin', label: 'Dashboard', end: true },
  { to: '/admin/users', label: 'User Management', end: false },
  { to: '/admin/plans', label: 'Subscription Plans', end: false },
  { to: '/admin/models', label: 'Models', end: false },
  { to: '/admin/tracks', label: 'Music Tracks', end: false },
  { to: '/admin/reports', label: 'Reports', end: false },
  { to: '/admin/settings', label: 'Site Settings', end: false },
] as const;

const navLinkClasses = ({ isActive }: { isActive: boolean }) =>
  cn(
    'flex items-center rounded-lg px-3 py-2 text-sm font-medium transition-colors',
    'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-violet-300',
    isActive
      ? 'bg-gradient-to-r from-violet-600/80 to-fuchsia-600/80 text-white'
      : 'text-zinc-300 hover:bg-white/10 hover:text-white',
  );

/** Ends the admin session: forgets all cached data and goes to the admin login. */
function useAdminSignOut() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const finish = () => {
    queryClient.clear();
    clearAdminSession(queryClient);
    navigate('/admin/login', { replace: true });
  };
  return useMutation({
    mutationFn: adminLogout,
    onSuccess: finish,
    onError: (error) => {
      // The session had already ended: signing out is done.
      if (error instanceof ApiError && error.status === 401) {
        finish();
        return;
      }
      toast({
        title: 'Logout failed',
        description: serverMessage(error, 'Please try again.'),
        variant: 'destructive',
      });
    },
  });
}

/** The admin area: a sidebar with the sections, the admin's name and role, and Sign Out. */
export function AdminLayout({ admin, children }: { admin: Admin; children: ReactNode }) {
  const [menuOpen, setMenuOpen] = useState(false);
  const menuId = useId();
  const { pathname } = useLocation();
  const signOut = useAdminSignOut();
  const { site } = useSite();

  // biome-ignore lint/correctness/useExhaustiveDependencies: close the menu whenever the page changes
  useEffect(() => {
    setMenuOpen(false);
  }, [pathname]);

  useEffect(() => {
    if (!menuOpen) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setMenuOpen(false);
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [menuOpen]);

  return (
    <div className="flex min-h-dvh flex-col lg:flex-row">
      <div className="sticky top-0 z-30 flex h-16 items-center justify-between border-b border-white/10 bg-zinc-950/80 px-4 backdrop-blur-lg lg:hidden">
        <span className="flex items-center gap-2 text-lg font-bold text-white">
          <LogoMark />
          {site.name} Admin
        </span>
        <MenuToggle open={menuOpen} controls={menuId} onToggle={() => setMenuOpen((open) => !open)} />
      </div>

      <aside
        id={menuId}
        aria-label="Admin sidebar"
        className={cn(
          'z-20 flex-col border-white/10 bg-zinc-950/85 backdrop-blur-lg lg:sticky lg:top-0 lg:flex lg:h-dvh lg:w-64 lg:shrink-0 lg:border-r',
          menuOpen ? 'flex border-b' : 'hidden',
        )}
      >
        <div className="hidden h-16 items-center gap-2 px-5 text-lg font-bold whitespace-nowrap text-white lg:flex">
          <LogoMark className="size-8 shrink-0" />
          {site.name} Admin
        </div>
        <nav aria-label="Admin" className="flex flex-col gap-1 p-3">
          {sections.map((section) => (
            <NavLink key={section.to} to={section.to} end={section.end} className={navLinkClasses}>
              {section.label}
            </NavLink>
          ))}
        </nav>
        <div className="mt-auto grid gap-3 border-t border-white/10 p-4">
          <div className="flex items-center gap-3">
            <span
              aria-hidden="true"
              className="grid size-9 shrink-0 place-items-center rounded-full bg-gradient-to-br from-violet-500 to-fuchsia-500 text-sm font-bold text-white uppercase"
            >
              {admin.username.charAt(0)}
            </span>
            <div className="min-w-0">
              <p className="truncate text-sm font-semibold text-white" data-testid="admin-username">
                {admin.username}
              </p>
              <p className="text-xs text-zinc-400 capitalize" data-testid="admin-role">
                {admin.role}
              </p>
            </div>
          </div>
          <Button variant="outline" disabled={signOut.isPending} onClick={() => signOut.mutate()}>
            {signOut.isPending ? 'Signing Out...' : 'Sign Out'}
          </Button>
        </div>
      </aside>

      <main id="admin-main" tabIndex={-1} className="min-w-0 flex-1 px-4 py-8 focus:outline-none sm:px-8">
        {children}
      </main>
    </div>
  );
}

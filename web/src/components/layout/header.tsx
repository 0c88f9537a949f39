import { useEffect, useId, useState } from 'react';
import { Link, NavLink, useLocation } from 'react-router';
import { Button, buttonClasses } from '@/components/ui/button';
import { MenuToggle } from '@/components/ui/menu-toggle';
import { Skeleton } from '@/components/ui/skeleton';
import { logout, type User, userDisplayName, useUser } from '@/lib/auth';
import { cn } from '@/lib/cn';
import { useNavigationPending } from '@/lib/navigation-pending';
import { useSite } from '@/lib/site';
import { LogoMark } from './logo';

const navLinkClasses = ({ isActive }: { isActive: boolean }) =>
  cn(
    'rounded-lg px-3 py-2 text-sm font-medium transition-colors',
    'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-violet-300',
    isActive
      ? 'bg-white/10 text-white shadow-[inset_0_-2px_0_0] shadow-fuchsia-400'
      : 'text-zinc-300 hover:text-white',
  );

function NavItems({ user, onNavigate }: { user: User | null; onNavigate?: () => void }) {
  return (
    <>
      <NavLink to="/" end className={navLinkClasses} onClick={onNavigate}>
        {user ? 'Create' : 'Home'}
      </NavLink>
      <NavLink to="/gallery" className={navLinkClasses} onClick={onNavigate}>
        Gallery
      </NavLink>
      <NavLink to="/pricing" className={navLinkClasses} onClick={onNavigate}>
        Pricing
      </NavLink>
      <NavLink to="/contact" className={navLinkClasses} onClick={onNavigate}>
        Contact
      </NavLink>
    </>
  );
}

function AccountActions({
  user,
  isLoading,
  onAuthPage,
  onNavigate,
}: {
  user: User | null;
  isLoading: boolean;
  onAuthPage: boolean;
  onNavigate?: () => void;
}) {
  if (isLoading) return <Skeleton className="h-9 w-40" />;
  if (user) {
    const name = userDisplayName(user);
    return (
      <>
        <NavLink
          to="/profile"
          onClick={onNavigate}
          className={({ isActive }) =>
            cn(
              'flex max-w-48 items-center gap-2 rounded-full border py-1 pr-3 pl-1 text-sm font-medium',
              'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-violet-300',
              isActive
                ? 'border-fuchsia-400 bg-white/10 text-white'
                : 'border-white/15 text-zinc-200 hover:bg-white/10',
            )
          }
        >
          <span
            aria-hidden="true"
            className="grid size-7 shrink-0 place-items-center rounded-full bg-gradient-to-br from-violet-500 to-fuchsia-500 text-xs font-bold text-white uppercase"
          >
            {name.charAt(0)}
          </span>
          <span className="truncate">{name}</span>
        </NavLink>
        <Button variant="outline" size="sm" onClick={logout}>
          Logout
        </Button>
      </>
    );
  }
  if (onAuthPage) {
    return (
      <span aria-current="page" className="rounded-lg bg-white/10 px-3 py-2 text-sm font-medium text-white">
        Sign In / Sign Up
      </span>
    );
  }
  return (
    <>
      <Link to="/auth" onClick={onNavigate} className={buttonClasses('ghost', 'sm')}>
        Sign In
      </Link>
      <Link to="/auth" onClick={onNavigate} className={buttonClasses('primary', 'sm')}>
        Get Started
      </Link>
    </>
  );
}

/** The site header: brand, navigation, account actions and a menu for small screens. */
export function Header() {
  const { user, isLoading } = useUser();
  const { site, isLoading: siteLoading } = useSite();
  const { pathname } = useLocation();
  const navigating = useNavigationPending();
  const onAuthPage = pathname === '/auth';
  const [menuOpen, setMenuOpen] = useState(false);
  const menuId = useId();
  const closeMenu = () => setMenuOpen(false);

  useEffect(() => {
    if (!menuOpen) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setMenuOpen(false);
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [menuOpen]);

  return (
    <header className="sticky top-0 z-40 border-b border-white/10 bg-zinc-950/90">
      <div className="mx-auto flex h-16 max-w-7xl items-center justify-between gap-4 px-4 sm:px-6">
        <Link
          to="/"
          className="flex items-center gap-2 rounded-lg text-lg font-bold tracking-tight text-white focus-visible:outline-2 focus-visible:outline-offset-4 focus-visible:outline-violet-300"
        >
          <LogoMark />
          {siteLoading ? (
            <>
              <span className="sr-only">Home</span>
              <Skeleton className="h-5 w-28" />
            </>
          ) : (
            <span>{site.name}</span>
          )}
        </Link>

        <nav aria-label="Main" className="hidden items-center gap-1 md:flex">
          <NavItems user={user} />
        </nav>

        <div className="hidden items-center gap-2 md:flex">
          <AccountActions user={user} isLoading={isLoading} onAuthPage={onAuthPage} />
        </div>

        <MenuToggle
          className="md:hidden"
          open={menuOpen}
          controls={menuId}
          onToggle={() => setMenuOpen((open) => !open)}
        />
      </div>

      <div id={menuId} hidden={!menuOpen} className="border-t border-white/10 px-4 pb-4 md:hidden">
        <nav aria-label="Mobile" className="flex flex-col gap-1 pt-3">
          <NavItems user={user} onNavigate={closeMenu} />
        </nav>
        <div className="mt-3 flex flex-wrap items-center gap-2 border-t border-white/10 pt-3">
          <AccountActions user={user} isLoading={isLoading} onAuthPage={onAuthPage} onNavigate={closeMenu} />
        </div>
      </div>

      {navigating ? (
        <div
          role="progressbar"
          aria-label="Loading page"
          className="absolute inset-x-0 bottom-0 h-0.5 overflow-hidden bg-violet-950"
        >
          <div className="h-full w-1/3 bg-gradient-to-r from-violet-400 to-fuchsia-400 motion-safe:animate-[progress_1s_ease-in-out_infinite]" />
        </div>
      ) : null}
    </header>
  );
}

import { useSyncExternalStore } from 'react';
import { Link, NavLink } from 'react-router';
import { cn } from '@/lib/cn';
import { useSite } from '@/lib/site';
import { LogoMark } from './logo';

const footerLinkClasses = ({ isActive }: { isActive: boolean }) =>
  cn(
    'rounded text-sm transition-colors hover:text-white focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-violet-300',
    isActive ? 'font-medium text-white underline decoration-fuchsia-400 underline-offset-4' : 'text-zinc-400',
  );

const unchanging = () => () => undefined;

/**
 * The year now, for the copyright line. A prerendered frame says the year it
 * was built in (`__BUILD_YEAR__`, vite.config.ts); the app hydrates it with
 * that year, then writes this one, so a frame built last year is put right
 * without React rendering the page afresh.
 */
function useYear(): number {
  return useSyncExternalStore(
    unchanging,
    () => new Date().getFullYear(),
    () => __BUILD_YEAR__,
  );
}

export function Footer() {
  const { site } = useSite();
  const year = useYear();
  return (
    <footer className="border-t border-white/10 bg-zinc-950/90">
      <div className="mx-auto grid max-w-7xl gap-10 px-4 py-12 sm:px-6 md:grid-cols-4">
        <div className="md:col-span-2">
          <Link
            to="/"
            className="inline-flex items-center gap-2 rounded-lg text-lg font-bold text-white focus-visible:outline-2 focus-visible:outline-violet-300"
          >
            <LogoMark className="size-7" />
            <span>{site.name}</span>
          </Link>
          <p className="mt-3 max-w-sm text-sm text-zinc-400">{site.description}</p>
        </div>
        <nav aria-labelledby="footer-quick-links">
          <h2 id="footer-quick-links" className="text-sm font-semibold text-white">
            Quick Links
          </h2>
          <ul className="mt-3 grid gap-2">
            <li>
              <NavLink to="/pricing" className={footerLinkClasses}>
                Pricing
              </NavLink>
            </li>
            <li>
              <NavLink to="/auth" className={footerLinkClasses}>
                Get Started
              </NavLink>
            </li>
            <li>
              <NavLink to="/developers" className={footerLinkClasses}>
                Developers
              </NavLink>
            </li>
          </ul>
        </nav>
        <nav aria-labelledby="footer-legal">
          <h2 id="footer-legal" className="text-sm font-semibold text-white">
            Legal
          </h2>
          <ul className="mt-3 grid gap-2">
            <li>
              <NavLink to="/privacy" className={footerLinkClasses}>
                Privacy Policy
              </NavLink>
            </li>
            <li>
              <NavLink to="/terms" className={footerLinkClasses}>
                Terms of Service
              </NavLink>
            </li>
          </ul>
        </nav>
      </div>
      <div className="border-t border-white/10">
        <p className="mx-auto max-w-7xl px-4 py-6 text-sm text-zinc-400 sm:px-6">
          © {year} {site.name}. All rights reserved.
        </p>
      </div>
    </footer>
  );
}

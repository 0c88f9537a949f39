import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { buttonClasses } from '@/components/ui/button';

/**
 * What a track offers in place of an action its plan does not allow
 * (Upgrade to Download, Upgrade to Make Private): a button-styled link to the plans.
 */
export function UpgradeLink({ children, describedBy }: { children: ReactNode; describedBy?: string }) {
  return (
    <Link to="/pricing" className={buttonClasses('outline', 'sm')} aria-describedby={describedBy}>
      {children}
    </Link>
  );
}

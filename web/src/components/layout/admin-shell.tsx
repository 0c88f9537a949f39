import type { ReactNode } from 'react';
import { ToasterHost } from '@/components/ui/toaster-host';
import { useSite } from '@/lib/site';
import { BackgroundVideo } from './background-video';
import { PageFallback } from './page-fallback';

/**
 * The frame of the admin area: the background and notifications, without the
 * public header and footer. Pages show once the site's name is known.
 */
export function AdminShell({ children }: { children: ReactNode }) {
  const { isLoading } = useSite();
  return (
    <>
      <div className="relative isolate min-h-dvh">
        <a
          href="#admin-main"
          className="sr-only rounded-lg bg-white px-4 py-2 font-medium text-zinc-950 focus:not-sr-only focus:fixed focus:top-3 focus:left-3 focus:z-50"
        >
          Skip to content
        </a>
        <BackgroundVideo />
        {isLoading ? <PageFallback /> : children}
      </div>
      {/* Outside the page's stacking context, so notifications sit above a dialog's backdrop. */}
      <ToasterHost />
    </>
  );
}

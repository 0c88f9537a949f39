import type { ReactNode } from 'react';
import { ToasterHost } from '@/components/ui/toaster-host';
import { useSite } from '@/lib/site';
import { BackgroundVideo } from './background-video';
import { Footer } from './footer';
import { Header } from './header';
import { PageFallback } from './page-fallback';

/**
 * The frame around every page: background, header, main landmark, footer and
 * notifications. Pages show once the site's name is known, so their titles carry it.
 */
export function MainLayout({ children }: { children: ReactNode }) {
  const { isLoading } = useSite();
  return (
    <>
      <div className="relative isolate flex min-h-dvh flex-col">
        <a
          href="#main"
          className="sr-only rounded-lg bg-white px-4 py-2 font-medium text-zinc-950 focus:not-sr-only focus:fixed focus:top-3 focus:left-3 focus:z-50"
        >
          Skip to content
        </a>
        <BackgroundVideo />
        <Header />
        <main id="main" tabIndex={-1} className="flex-1 focus:outline-none">
          {isLoading ? <PageFallback /> : children}
        </main>
        <Footer />
      </div>
      {/* Outside the page's stacking context, so notifications sit above a dialog's backdrop. */}
      <ToasterHost />
    </>
  );
}

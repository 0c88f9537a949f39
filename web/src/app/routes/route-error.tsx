import { Link } from 'react-router';
import { Button, buttonClasses } from '@/components/ui/button';
import { pageTitle } from '@/lib/page-title';

/** Shown inside the layout when a page fails to load or render. */
export function RouteError() {
  return (
    <section className="mx-auto flex max-w-xl flex-col items-center gap-4 px-4 py-24 text-center">
      <title>{pageTitle('Something went wrong')}</title>
      <h1 className="text-3xl font-bold text-white">Something went wrong</h1>
      <p className="text-zinc-300">This page could not be shown. Reloading usually helps.</p>
      <div className="flex gap-3">
        <Button onClick={() => window.location.reload()}>Reload page</Button>
        <Link to="/" className={buttonClasses('outline')}>
          Go Home
        </Link>
      </div>
    </section>
  );
}

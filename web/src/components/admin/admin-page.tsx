import type { ReactNode } from 'react';
import { Card } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { pageTitle } from '@/lib/page-title';
import { useSite } from '@/lib/site';

/** An admin page: its title in the tab and as the heading, an optional badge and actions beside it. */
export function AdminPage({
  title,
  badge,
  actions,
  children,
}: {
  title: string;
  badge?: ReactNode;
  actions?: ReactNode;
  children: ReactNode;
}) {
  const { site } = useSite();
  return (
    <section className="mx-auto grid max-w-6xl gap-6">
      <title>{pageTitle(`${title} · Admin`, site.name)}</title>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div className="flex flex-wrap items-center gap-3">
          <h1 className="text-3xl font-bold text-white">{title}</h1>
          {badge}
        </div>
        {actions ? <div className="flex flex-wrap gap-2">{actions}</div> : null}
      </div>
      {children}
    </section>
  );
}

/** A counter card of the dashboard and the tracks page. */
export function StatCard({ label, value }: { label: string; value: number | undefined }) {
  return (
    <Card className="p-5">
      <p className="text-sm text-zinc-300">{label}</p>
      {value === undefined ? (
        <Skeleton className="mt-2 h-8 w-16" />
      ) : (
        <p className="mt-1 text-3xl font-bold text-white tabular-nums">{value.toLocaleString('en-US')}</p>
      )}
    </Card>
  );
}

/** What a list shows when its query failed. */
export function LoadFailed({ what, onRetry }: { what: string; onRetry: () => void }) {
  return (
    <Card className="p-6" role="alert">
      <p className="text-zinc-200">Could not load {what}.</p>
      <button
        type="button"
        onClick={onRetry}
        className="mt-3 text-sm font-medium text-violet-300 underline underline-offset-4 hover:text-violet-200"
      >
        Try again
      </button>
    </Card>
  );
}

/** The empty state of a list. */
export function EmptyState({ children }: { children: ReactNode }) {
  return <Card className="p-10 text-center text-zinc-300">{children}</Card>;
}

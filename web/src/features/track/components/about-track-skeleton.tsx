import type { ReactNode } from 'react';
import { Skeleton } from '@/components/ui/skeleton';

/** The section's terms, in the order the record's values fill them. */
export const aboutTerms = ['Model', 'Endpoint', 'Seed', 'Date made', 'License'] as const;

/**
 * The frame of "About this track": its heading, an AI-generated note and one
 * row per term, each value given room for the same lines whether it is there
 * or still loading, so nothing below moves when the record arrives.
 */
export function AboutTrackFrame({
  values,
  note,
  footer,
  busy = false,
}: {
  /** One value per term of {@link aboutTerms}. */
  values: readonly ReactNode[];
  note: ReactNode;
  footer?: ReactNode;
  busy?: boolean;
}) {
  return (
    <section aria-labelledby="track-about" aria-busy={busy || undefined} className="grid gap-3">
      <h2 id="track-about" className="text-lg font-semibold text-white">
        About this track
      </h2>
      <div className="min-h-5 text-sm text-zinc-300">{note}</div>
      <dl className="grid gap-4 text-sm sm:grid-cols-2">
        {aboutTerms.map((term, index) => (
          <div key={term} className={term === 'License' ? 'sm:col-span-2' : undefined}>
            <dt className="text-zinc-400">{term}</dt>
            {/* Two lines for the license (its summary wraps on a phone), one for the rest. */}
            <dd className={term === 'License' ? 'mt-1 min-h-10 text-zinc-100' : 'mt-1 min-h-5 text-zinc-100'}>
              {values[index]}
            </dd>
          </div>
        ))}
      </dl>
      {footer}
    </section>
  );
}

/** "About this track" while its record loads: the frame at its final size. */
export function AboutTrackSkeleton({ owner }: { owner: boolean }) {
  return (
    <AboutTrackFrame
      busy
      note={
        <>
          <span role="status" className="sr-only">
            Loading details about this track
          </span>
          <Skeleton className="h-5 w-3/4" />
        </>
      }
      values={[
        <Skeleton key="model" className="h-5 w-32" />,
        <Skeleton key="endpoint" className="h-5 w-36" />,
        <Skeleton key="seed" className="h-5 w-24" />,
        <Skeleton key="date" className="h-5 w-28" />,
        <Skeleton key="license" className="h-10 w-full" />,
      ]}
      footer={owner ? <Skeleton className="h-9 w-56" /> : null}
    />
  );
}

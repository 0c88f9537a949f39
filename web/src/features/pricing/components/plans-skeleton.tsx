import { Card } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';

/**
 * The plans' space while they load: the billing cycle toggle and three cards,
 * each at its size, so the cards do not drop when the toggle arrives with them.
 */
export function PlansSkeleton() {
  return (
    <div aria-busy="true" className="flex flex-col items-center gap-12">
      <span className="sr-only" role="status">
        Loading plans
      </span>
      {/* The toggle's box (components/ui/toggle-group.tsx): three options of one line each. */}
      <div aria-hidden="true" className="inline-flex rounded-xl border border-white/10 bg-zinc-900/80 p-1">
        {[0, 1, 2].map((i) => (
          <Skeleton key={i} className="mx-4 my-2 h-5 w-14" />
        ))}
      </div>
      <div className="grid w-full gap-8 md:grid-cols-3">
        {[0, 1, 2].map((i) => (
          <Card key={i} className="flex flex-col gap-4 p-6">
            <Skeleton className="h-7 w-24" />
            <Skeleton className="h-4 w-3/4" />
            <Skeleton className="h-10 w-32" />
            <Skeleton className="h-4 w-full" />
            <Skeleton className="h-4 w-5/6" />
            <Skeleton className="h-4 w-2/3" />
            <Skeleton className="mt-4 h-12 w-full" />
          </Card>
        ))}
      </div>
    </div>
  );
}

import { Card } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';

/** The plans' space while they load: three cards of a plan card's size. */
export function PlansSkeleton() {
  return (
    <div aria-busy="true" className="grid gap-8 md:grid-cols-3">
      <span className="sr-only" role="status">
        Loading plans
      </span>
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
  );
}

import type { WebhookDeliveryView } from '@tunesmith/shared/developer-api';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { refusalMessage } from '@/lib/api-client';
import { cn } from '@/lib/cn';
import { useWebhookDeliveries } from '../api/webhooks';

/** A moment in the reader's time zone: `May 2, 2026, 10:00:05 AM`. */
export const formatMoment = (iso: string) =>
  new Date(iso).toLocaleString('en-US', {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    second: '2-digit',
  });

const statusText: Record<WebhookDeliveryView['status'], string> = {
  pending: 'Pending',
  delivered: 'Delivered',
  failed: 'Failed',
};

const statusClasses: Record<WebhookDeliveryView['status'], string> = {
  pending: 'bg-amber-500/15 text-amber-200',
  delivered: 'bg-emerald-500/15 text-emerald-200',
  failed: 'bg-red-500/15 text-red-200',
};

/** One endpoint's deliveries: each event's status, tries, last answer, error and next try; read again while any waits. */
export function WebhookDeliveries({ endpointId }: { endpointId: string }) {
  const deliveries = useWebhookDeliveries(endpointId, true);
  if (deliveries.isPending) {
    return (
      <div aria-busy="true">
        <span className="sr-only">Loading deliveries</span>
        <Skeleton className="h-16 w-full" />
      </div>
    );
  }
  if (deliveries.isError) {
    return (
      <div className="flex flex-wrap items-center gap-3">
        <p className="text-sm text-red-300">
          {refusalMessage(deliveries.error, 'We could not load the deliveries.')}
        </p>
        <Button variant="outline" size="sm" onClick={() => void deliveries.refetch()}>
          Try Again
        </Button>
      </div>
    );
  }
  return (
    <div className="grid gap-2">
      <div className="flex items-center justify-between gap-2">
        <h5 className="text-sm font-semibold text-zinc-200">Deliveries</h5>
        <Button
          variant="ghost"
          size="sm"
          onClick={() => void deliveries.refetch()}
          disabled={deliveries.isFetching}
        >
          {deliveries.isFetching ? 'Refreshing…' : 'Refresh'}
        </Button>
      </div>
      {deliveries.data.length === 0 ? (
        <p className="text-sm text-zinc-400">Nothing has been sent to this endpoint yet.</p>
      ) : (
        <ul className="grid gap-2" aria-label="Deliveries">
          {deliveries.data.map((delivery) => (
            <li
              key={delivery.id}
              aria-label={`${delivery.event}, ${statusText[delivery.status]}`}
              className="grid gap-2 rounded-lg border border-white/10 p-3 text-sm"
            >
              <div className="flex flex-wrap items-center justify-between gap-2">
                <span className="font-mono break-all text-white">{delivery.event}</span>
                <span
                  className={cn(
                    'rounded-full px-2 py-0.5 text-xs font-semibold',
                    statusClasses[delivery.status],
                  )}
                >
                  {statusText[delivery.status]}
                </span>
              </div>
              <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-zinc-300">
                <dt className="text-zinc-400">Attempts</dt>
                <dd>{delivery.attempts}</dd>
                <dt className="text-zinc-400">Response</dt>
                <dd>{delivery.responseStatus ?? 'No answer'}</dd>
                {delivery.error ? (
                  <>
                    <dt className="text-zinc-400">Error</dt>
                    <dd className="break-words">{delivery.error}</dd>
                  </>
                ) : null}
                {delivery.status === 'pending' && delivery.nextAttemptAt ? (
                  <>
                    <dt className="text-zinc-400">Next try</dt>
                    <dd>{formatMoment(delivery.nextAttemptAt)}</dd>
                  </>
                ) : null}
                <dt className="text-zinc-400">Last change</dt>
                <dd>{formatMoment(delivery.updatedAt)}</dd>
              </dl>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

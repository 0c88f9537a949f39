import type { QueryClient } from '@tanstack/react-query';
import { type LoaderFunctionArgs, useParams } from 'react-router';
import { trackTitle } from '@/components/tracks/track-title';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { trackQueryOptions, useTrack } from '@/features/track/api/get-track';
import { TrackDetails, TrackDetailsSkeleton, TrackNotFound } from '@/features/track/components/track-details';
import { isNotFoundError } from '@/lib/api-client';
import { pageTitle } from '@/lib/page-title';

/** Loads the track before the page shows; a missing track shows the page's not-found state. */
export const clientLoader =
  (queryClient: QueryClient) =>
  async ({ params }: LoaderFunctionArgs) => {
    if (params.id) await queryClient.ensureQueryData(trackQueryOptions(params.id)).catch(() => undefined);
    return null;
  };

function TrackPage({ id }: { id: string }) {
  const track = useTrack(id);
  const { data } = track;
  if (track.isPending) return <TrackDetailsSkeleton />;
  // A track that is gone (deleted, or made private) is not found even if it was shown before.
  const notFound = isNotFoundError(track.error);
  // Any other failed check while the track generates keeps the track on screen; the next check may succeed.
  if (!data || notFound) {
    if (notFound) {
      return (
        <>
          <title>{pageTitle('Track Not Found')}</title>
          <TrackNotFound />
        </>
      );
    }
    return (
      <Card className="mx-auto max-w-xl p-8 text-center">
        <title>{pageTitle('Track')}</title>
        <h1 className="text-2xl font-bold text-white">This track could not be loaded</h1>
        <p className="mt-3 text-zinc-300">Please check your connection and try again.</p>
        <Button className="mt-6" onClick={() => void track.refetch()}>
          Try Again
        </Button>
      </Card>
    );
  }
  return (
    <>
      <title>{pageTitle(trackTitle(data))}</title>
      <TrackDetails track={data} />
    </>
  );
}

export default function TrackRoute() {
  const { id = '' } = useParams();
  return (
    <div className="mx-auto max-w-3xl px-4 py-12 sm:px-6 sm:py-16">
      <TrackPage key={id} id={id} />
    </div>
  );
}

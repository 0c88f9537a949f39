import { useQuery } from '@tanstack/react-query';
import type { Track } from '@tunesmith/shared/tracks';
import { lazy, Suspense } from 'react';
import { type Params, useNavigate, useParams } from 'react-router';
import { DownloadAction } from '@/components/tracks/download-action';
import { trackTitle } from '@/components/tracks/track-title';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { myGenerationsQueryOptions } from '@/features/library/api/get-my-generations';
import { LazyAddToPlaylist } from '@/features/playlists/lazy-add-to-playlist';
import { LazyTrackReportMenu } from '@/features/reports/lazy-report';
import { LazyStemsPanel } from '@/features/stems/lazy-stems';
import { LazyStudioActions } from '@/features/studio/lazy-studio';
import { trackQueryOptions, useTrack } from '@/features/track/api/get-track';
import { AboutTrack } from '@/features/track/components/about-track';
import {
  TRACK_TITLE_ID,
  TrackDetails,
  TrackDetailsSkeleton,
  TrackNotFound,
} from '@/features/track/components/track-details';
import { isNotFoundError } from '@/lib/api-client';
import { canDownloadTracks, useUser } from '@/lib/auth';
import { pageTitle } from '@/lib/page-title';
import { usePageData } from '@/lib/use-page-data';

/** A track's remixes and the Remix form load after the page, in their own chunk. */
const TrackRemix = lazy(() => import('./track-remix'));

/**
 * Whether the signed-in viewer owns the track: it is in their library (the
 * track answer does not say whose it is; the server checks again on every call).
 */
function useOwnsTrack(id: string): { owner: boolean; known: boolean } {
  const { user } = useUser();
  const mine = useQuery({ ...myGenerationsQueryOptions(), enabled: Boolean(user) });
  return { owner: Boolean(user && mine.data?.some((track) => track.id === id)), known: mine.isSuccess };
}

/** What the page waits for: a share link's first load asks for it beside the page's code. */
export const pageData = ({ id }: Params) => (id ? [trackQueryOptions(id)] : []);

/** The track's page, shown once the track has answered; a missing track shows the page's not-found state. */
function TrackPage({ id }: { id: string }) {
  usePageData(trackQueryOptions(id));
  const track = useTrack(id);
  const { owner, known: ownershipKnown } = useOwnsTrack(id);
  const { user } = useUser();
  const navigate = useNavigate();
  const { data } = track;
  // A new version's page follows it as it generates, then plays it; the route change puts focus on its
  // heading, as on every new page (scroll-restoration.tsx).
  const openNew = (made: Track | null) => {
    if (made) navigate(`/track/${made.id}`);
  };
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
      {data.hidden ? (
        // Only the owner is ever answered a hidden track: they are told why no one else sees it.
        <p
          role="status"
          className="mb-4 rounded-xl border border-amber-400/30 bg-amber-500/10 p-4 text-amber-100"
        >
          This track was hidden after a report. Only you can see it: it is not in the gallery, on your profile
          or in playlists, and its link shows nothing to others.
        </p>
      ) : null}
      <TrackDetails
        track={data}
        about={<AboutTrack track={data} owner={owner} />}
        stems={(audio) => (
          <LazyStemsPanel
            trackId={data.id}
            audio={audio}
            owner={owner}
            canDownload={Boolean(user && canDownloadTracks(user))}
            describedBy={TRACK_TITLE_ID}
          />
        )}
        actions={
          // The owner's actions are for a finished track: Download, as the library offers it, and the studio.
          // Anyone signed in may add a finished track to a playlist, and report someone else's (once the
          // library says whose it is).
          user && data.status === 'completed'
            ? (describedBy) => (
                <div className="flex flex-wrap items-start gap-2">
                  <LazyAddToPlaylist
                    track={{ id: data.id, title: trackTitle(data) }}
                    describedBy={describedBy}
                  />
                  {owner && data.audioUrl ? (
                    <DownloadAction
                      trackId={data.id}
                      title={trackTitle(data)}
                      license={data.license}
                      canDownload={canDownloadTracks(user)}
                      ready={data.downloadReady}
                      describedBy={describedBy}
                    />
                  ) : null}
                  {owner ? (
                    <LazyStudioActions track={data} describedBy={describedBy} onStarted={openNew} />
                  ) : null}
                  {ownershipKnown && !owner ? (
                    <LazyTrackReportMenu
                      trackId={data.id}
                      title={trackTitle(data)}
                      describedBy={describedBy}
                    />
                  ) : null}
                </div>
              )
            : undefined
        }
      />
      <Suspense fallback={null}>
        <TrackRemix
          track={data}
          owner={owner}
          signedIn={Boolean(user)}
          onStarted={(made) => navigate(`/track/${made}`)}
        />
      </Suspense>
    </>
  );
}

export default function TrackRoute() {
  const { id = '' } = useParams();
  return (
    <div className="mx-auto max-w-3xl px-4 py-12 sm:px-6 sm:py-16">
      <Suspense key={id} fallback={<TrackDetailsSkeleton />}>
        <TrackPage id={id} />
      </Suspense>
    </div>
  );
}
